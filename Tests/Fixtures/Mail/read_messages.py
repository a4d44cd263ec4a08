#!/usr/bin/env python3
"""Reads messages with Python's own `email` package (policy.default, which decodes RFC 2047
words and transfer encodings) for DigestDeliveryTests; prints, per file, a JSON object: the
headers the digest sets (decoded), the plain and HTML parts (decoded), and facts of the raw
bytes (longest line, all 7-bit, line ends). Standard library only.

Usage: read_messages.py FILE...
"""
import email
import email.policy
import json
import sys


def read(path):
    raw = open(path, "rb").read()
    message = email.message_from_bytes(raw, policy=email.policy.default)
    lines = raw.split(b"\n")
    result = {
        "from": str(message["From"]),
        "to": [str(a) for a in message["To"].addresses] if message["To"] else [],
        "to_addresses": [a.addr_spec for a in message["To"].addresses] if message["To"] else [],
        "to_names": [a.display_name for a in message["To"].addresses] if message["To"] else [],
        "subject": str(message["Subject"]),
        "date": str(message["Date"]),
        "message_id": str(message["Message-ID"]),
        "auto_submitted": str(message["Auto-Submitted"]),
        "content_type": message.get_content_type(),
        "defects": [type(d).__name__ for d in message.defects],
        "longest_line": max(len(line.rstrip(b"\r")) for line in lines),
        "seven_bit": all(b < 128 for b in raw),
        "crlf": all(line.endswith(b"\r") for line in lines[:-1]),
    }
    parts = {}
    for part in message.walk():
        if part.get_content_maintype() == "multipart":
            continue
        # Line ends as text has them: the parts' CRLF (the wire's) read as LF.
        parts[part.get_content_type()] = part.get_content().replace("\r\n", "\n")
        result.setdefault("part_defects", []).extend(type(d).__name__ for d in part.defects)
    result["text"] = parts.get("text/plain")
    result["html"] = parts.get("text/html")
    return result


json.dump({path: read(path) for path in sys.argv[1:]}, sys.stdout, ensure_ascii=False, sort_keys=True)
