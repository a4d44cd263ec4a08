"""Reads iCalendar feeds with two independent parsers from PyPI, `icalendar` and `ics`, and
prints what each found as JSON, for CalendarFeedClientTests: per file, per parser, every event
with its UID, start (an ISO date for an all-day event, else the instant in UTC and the UTC
offset the feed's zone gives it), summary, description, sequence and last-modified.

The `icalendar` reading also checks each VTIMEZONE the file carries on its own: the start of
every event with a TZID is converted with the tzinfo built from the file's VTIMEZONE alone
(`Timezone.to_tz()`), not from the machine's zone database, and reported as `vtimezone_utc`.

usage: python3 parse_feeds.py FILE.ics...
"""

import datetime
import json
import sys

import icalendar
import ics


def utc_text(value):
    return value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def offset_text(value):
    offset = value.utcoffset()
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    minutes = abs(minutes)
    return "%s%02d:%02d" % (sign, minutes // 60, minutes % 60)


def start_fields(value):
    if isinstance(value, datetime.datetime):
        return {"all_day": False, "start_utc": utc_text(value), "local": value.strftime("%Y-%m-%dT%H:%M:%S"),
                "offset": offset_text(value)}
    return {"all_day": True, "date": value.isoformat()}


def with_icalendar(text):
    calendar = icalendar.Calendar.from_ical(text)
    zones = {}
    for component in calendar.walk("VTIMEZONE"):
        zones[str(component["TZID"])] = component.to_tz()
    events = []
    for event in calendar.walk("VEVENT"):
        start = event.decoded("DTSTART")
        fields = {
            "uid": str(event["UID"]),
            "summary": str(event.get("SUMMARY", "")),
            "description": str(event.get("DESCRIPTION", "")),
            "sequence": int(event.get("SEQUENCE", 0)),
            "last_modified": utc_text(event.decoded("LAST-MODIFIED")) if "LAST-MODIFIED" in event else None,
            "transparent": str(event.get("TRANSP", "")) == "TRANSPARENT",
            "url": str(event["URL"]) if "URL" in event else None,
        }
        fields.update(start_fields(start))
        tzid = event["DTSTART"].params.get("TZID")
        if tzid is not None and isinstance(start, datetime.datetime):
            naive = start.replace(tzinfo=None)
            fields["vtimezone_utc"] = utc_text(naive.replace(tzinfo=zones[str(tzid)]))
        events.append(fields)
    return {"name": str(calendar.get("X-WR-CALNAME", "")), "events": events}


def with_ics(text):
    calendar = ics.Calendar(text)
    events = []
    for event in calendar.events:
        fields = {"uid": event.uid, "summary": event.name or "", "description": event.description or ""}
        if event.all_day:
            fields.update({"all_day": True, "date": event.begin.date().isoformat()})
        else:
            begin = event.begin.datetime
            fields.update(start_fields(begin))
        events.append(fields)
    return {"events": events}


def main():
    result = {}
    for path in sys.argv[1:]:
        with open(path, "rb") as handle:
            raw = handle.read()
        text = raw.decode("utf-8")
        result[path] = {"icalendar": with_icalendar(raw), "ics": with_ics(text)}
    json.dump(result, sys.stdout, indent=1, sort_keys=True, ensure_ascii=False)


if __name__ == "__main__":
    main()
