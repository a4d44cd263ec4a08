"""Reads Prometheus alert rules with a YAML parser and prints them as JSON.

Usage: alert_rules.py RULES.yml OPERATIONS.md

Reads the rules file and the ```yaml block of OPERATIONS.md that starts with `groups:` (the
"Alert rules" section), both with PyYAML's safe loader (PyYAML comes with frictionless, which
`make python-tools` installs), and prints {"same": whether the block's text is the file's,
"rules": [{"group", "alert", "expr", "for", "labels", "annotations"}]} from the file. Exits 1
when either does not parse, has no rule, or a rule misses `alert`, `expr`, a severity label or a
summary. Used by Tests/EndToEndTests/Commands/Nightly/MonitoringAlertRulesTests.swift (`PythonTools.run`).
"""

import json
import sys

import yaml


def block(markdown):
    lines = markdown.split("\n")
    for start, line in enumerate(lines):
        if line.strip() == "```yaml" and start + 1 < len(lines) and lines[start + 1].startswith("groups:"):
            end = lines.index("```", start + 1)
            return "\n".join(lines[start + 1 : end]) + "\n"
    return None


def rules(document):
    found = []
    for group in document.get("groups") or []:
        for rule in group.get("rules") or []:
            if "alert" not in rule or "expr" not in rule:
                raise ValueError(f"a rule of {group.get('name')} has no alert or expr: {rule}")
            if "severity" not in (rule.get("labels") or {}) or "summary" not in (rule.get("annotations") or {}):
                raise ValueError(f"{rule['alert']} has no severity label or no summary")
            found.append(
                {
                    "group": group.get("name"),
                    "alert": rule["alert"],
                    "expr": str(rule["expr"]),
                    "for": rule.get("for"),
                    "labels": rule.get("labels"),
                    "annotations": rule.get("annotations"),
                }
            )
    if not found:
        raise ValueError("no alert rule")
    return found


def main(argv):
    if len(argv) != 3:
        print("usage: alert_rules.py RULES.yml OPERATIONS.md", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as handle:
        text = handle.read()
    with open(argv[2], encoding="utf-8") as handle:
        shown = block(handle.read())
    if shown is None:
        print(f"{argv[2]} has no ```yaml block that starts with groups:", file=sys.stderr)
        return 1
    try:
        found = rules(yaml.safe_load(text))
        rules(yaml.safe_load(shown))
    except (yaml.YAMLError, ValueError, AttributeError) as error:
        print(f"the rules do not read: {error}", file=sys.stderr)
        return 1
    json.dump({"same": shown == text, "rules": found}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
