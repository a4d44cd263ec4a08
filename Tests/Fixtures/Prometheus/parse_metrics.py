"""Reads Prometheus text with prometheus_client's own parser and prints what it found as JSON.

Usage: parse_metrics.py FILE   (or - for standard input)

The parser is `prometheus_client.parser.text_string_to_metric_families`, the one Prometheus'
Python client library reads the text exposition format with. Output: a JSON array with one
object per family, in the order of the text: {"name", "type", "help", "samples": [{"name",
"labels", "value", "timestamp"}]}; a value that is not finite is given as its text ("NaN",
"+Inf"). Exits 1, naming the parser's complaint on stderr, when the text does not parse.
Used by Tests/EndToEndTests/Commands/Nightly/MonitoringMetricsTests.swift (`PythonTools.run`).
"""

import json
import math
import sys

from prometheus_client.parser import text_string_to_metric_families


def value(number):
    if math.isfinite(number):
        return number
    return "NaN" if math.isnan(number) else ("+Inf" if number > 0 else "-Inf")


def main(argv):
    if len(argv) != 2:
        print("usage: parse_metrics.py FILE|-", file=sys.stderr)
        return 2
    if argv[1] == "-":
        text = sys.stdin.read()
    else:
        with open(argv[1], encoding="utf-8") as handle:
            text = handle.read()
    try:
        families = list(text_string_to_metric_families(text))
    except Exception as error:  # the parser raises ValueError, and others on odd input
        print(f"the text does not parse: {error!r}", file=sys.stderr)
        return 1
    found = [
        {
            "name": family.name,
            "type": family.type,
            "help": family.documentation,
            "samples": [
                {"name": s.name, "labels": s.labels, "value": value(s.value), "timestamp": s.timestamp}
                for s in family.samples
            ],
        }
        for family in families
    ]
    json.dump(found, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
