#!/usr/bin/env python3
"""Two nights of an LMS export made from OULAD, and what changed between them, computed
independently of `dashboard` (issue 28, item 3). Standard library only.

Usage: oulad_nights.py SOURCE_DIR OUT_DIR NIGHT...
  SOURCE_DIR  courses.csv + tasks.csv with assignment_id, status, submitted_at (SOURCE.md)
  NIGHT       the nights' dates in order, YYYY-MM-DD (the exports are taken at 02:00 UTC; the
              courses are in Europe/London, on UTC from November to March, so the UTC date is
              the local one)
Writes OUT_DIR/night1, OUT_DIR/night2, … (courses.csv, tasks.csv in the import format:
task_id, course_id, student_id, title, due, priority, completed, assignment_id) and prints
{"rows": [rows of each night], "changes": [{course_id: {new, now_overdue, completed, pinned,
unpinned, deleted, handed_in, excused}} from each night to the next]}.

How an export of night N is made from the real submissions:
  * an assessment is in the export from 48 days before its due date (the LMS publishes it
    then); an undated one (the exams) always is;
  * a student whose id is 7 modulo 40 withdraws after the first night: none of their tasks
    are in a later night's export;
  * a task is completed when the student submitted before night N's date (submitted_at < N).
What changed, by the documented meaning (docs/reports.md, "What changed overnight"):
  * new: in the later night's export, not in the earlier one's; deleted: the other way round;
  * completed: in both, open in the earlier night, completed in the later;
  * now overdue: in both, open in the later night with a due before its date (a date-only due
    is overdue after its day), and not already overdue at the earlier night (open with a due
    before its date); a new task is counted as new only, whatever its state;
  * pinned, unpinned: 0 (no one reclassifies by hand here);
  * handed_in, excused: 0 (the exports have no status column: SPEC §11's states come from
    `completed` alone, open or completed, so nothing is ever turned in or excused).
"""
import csv
import json
import os
import sys
from datetime import date, timedelta

LEAD_DAYS = 48


def export(tasks, night, withdrawn):
    rows = {}
    for t in tasks:
        if t["due"] and date.fromisoformat(t["due"]) - timedelta(days=LEAD_DAYS) > night:
            continue
        if t["student_id"] in withdrawn:
            continue
        done = t["status"] != "open" and t["submitted_at"] != "" and date.fromisoformat(t["submitted_at"]) < night
        rows[t["task_id"]] = dict(t, completed="true" if done else "false")
    return rows


def write(folder, courses, rows):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "courses.csv"), "w", newline="") as f:
        f.write(courses)
    fields = ["task_id", "course_id", "student_id", "title", "due", "priority", "completed", "assignment_id"]
    with open(os.path.join(folder, "tasks.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        for row in rows.values():
            w.writerow(row)


def overdue(row, night):
    return row["completed"] == "false" and row["due"] != "" and date.fromisoformat(row["due"]) < night


def changes_between(course_ids, before_rows, before_night, rows, night):
    changes = {c: dict(new=0, now_overdue=0, completed=0, pinned=0, unpinned=0, deleted=0, handed_in=0, excused=0) for c in course_ids}
    for task_id, row in rows.items():
        counts = changes[row["course_id"]]
        before = before_rows.get(task_id)
        if before is None:
            counts["new"] += 1
            continue
        if before["completed"] == "false" and row["completed"] == "true":
            counts["completed"] += 1
        if overdue(row, night) and not overdue(before, before_night):
            counts["now_overdue"] += 1
    for task_id, row in before_rows.items():
        if task_id not in rows:
            changes[row["course_id"]]["deleted"] += 1
    return changes


def main():
    source, out = sys.argv[1], sys.argv[2]
    nights = [date.fromisoformat(text) for text in sys.argv[3:]]
    with open(os.path.join(source, "courses.csv"), newline="") as f:
        courses = f.read()
    with open(os.path.join(source, "tasks.csv"), newline="") as f:
        tasks = list(csv.DictReader(f))
    course_ids = [r["course_id"] for r in csv.DictReader(courses.splitlines())]
    withdrawn = {t["student_id"] for t in tasks if int(t["student_id"]) % 40 == 7}
    exports = [export(tasks, night, set() if i == 0 else withdrawn) for i, night in enumerate(nights)]
    for i, rows in enumerate(exports):
        write(os.path.join(out, "night%d" % (i + 1)), courses, rows)
    changes = [
        changes_between(course_ids, exports[i - 1], nights[i - 1], exports[i], nights[i]) for i in range(1, len(nights))
    ]
    json.dump({"rows": [len(rows) for rows in exports], "changes": changes}, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()
