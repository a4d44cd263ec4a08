#!/usr/bin/env python3
"""A real SMTP server on loopback for DigestDeliveryTests (aiosmtpd, pinned in the build's
Python tools): every message it accepts is written to OUT_DIR as N.eml (the bytes as received)
and N.json (the envelope: sender and recipients). With --refuse it answers every recipient
550 (a server that refuses the mail). It writes its port to PORT_FILE once it listens and runs
until it is terminated (SIGTERM).

Usage: smtp_sink.py PORT_FILE OUT_DIR [--refuse]
"""
import asyncio
import json
import os
import signal
import socket
import sys
import threading

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, out, refuse):
        self.out = out
        self.refuse = refuse
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.refuse:
            return "550 5.7.1 refused by the test's server"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        base = os.path.join(self.out, str(self.count))
        with open(base + ".eml", "wb") as f:
            f.write(envelope.original_content or envelope.content)
        with open(base + ".json", "w") as f:
            json.dump({"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos}, f)
        return "250 Message accepted for delivery"


def main():
    port_file, out = sys.argv[1], sys.argv[2]
    refuse = "--refuse" in sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    controller = Controller(Sink(out, refuse), hostname="127.0.0.1", port=port)
    controller.start()
    with open(port_file + ".tmp", "w") as f:
        f.write(str(port))
    os.rename(port_file + ".tmp", port_file)
    # Until SIGTERM, whose default action ends the process (the server's thread with it); the
    # test runner may have left it ignored, which a child inherits.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Event().wait()


if __name__ == "__main__":
    main()
