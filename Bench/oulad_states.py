#!/usr/bin/env python3
"""make oulad-states: SPEC §11 on the whole of OULAD (issue 31; docs/performance.md, "Real data").

Converts the Open University Learning Analytics Dataset with the converter nobody on the team
wrote (`../shared/testdata/oulad-dashboard/oulad_to_dashboard.py --states --roster
registrations`: a task per registered student per assessment, `status` completed when scored,
submitted when handed in but not scored, open otherwise, `submitted_at` the day it was handed
in), imports it into an SQLite file and into a throwaway PostgreSQL server, and checks on both:

- every row imported, none rejected;
- per course, the grid's `to_grade` is the CSV's submitted tasks, `completed` its completed ones,
  the four open buckets its open ones, and `report list --late --include-completed` lists the
  CSV's late tasks: handed in on a later date than the due (the converter writes dates only,
  whose text orders as the dates do). The expected counts come from the CSV alone, here.

It prints the figures (rows, import seconds per store, per-course counts) and exits 1 on any
difference. Environment: OULAD_CONVERTER (the converter's path), DASHBOARD_BIN (the binary;
default .build/release/dashboard), OULAD_KEEP=1 keeps the work folder.
"""
import collections, csv, json, os, shutil, subprocess, sys, tempfile, time

from bench_postgres import Server

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("DASHBOARD_BIN", os.path.join(ROOT, ".build", "release", "dashboard"))
CONVERTER = os.environ.get(
    "OULAD_CONVERTER", os.path.join(ROOT, "..", "shared", "testdata", "oulad-dashboard", "oulad_to_dashboard.py"))
AS_OF = "2014-12-31T12:00:00Z"  # after every presentation: every dated open task is overdue


def expected(tasks_csv):
    """Per course: submitted, completed, open and late counts, from the CSV's text alone."""
    counts = collections.defaultdict(collections.Counter)
    with open(tasks_csv, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            course, status, due, at = row["course_id"], row["status"], row["due"], row["submitted_at"]
            counts[course][status] += 1
            if len(due) not in (0, 10) or len(at) not in (0, 10):
                sys.exit(f"oulad: {row['task_id']}: a due or hand-in that is not a date ({due!r}, {at!r})")
            if status in ("submitted", "completed") and at and due and at > due:
                counts[course]["late"] += 1
    return counts


def run(db, *args):
    proc = subprocess.run([BIN, "--db", db, "--as-of", AS_OF, *args], capture_output=True, text=True)
    return proc


def listed(db, *args):
    proc = run(db, "report", "list", "--format", "json", *args)
    if proc.returncode != 0:
        sys.exit(f"oulad: report list {args} failed: {proc.stderr[-500:]}")
    out = collections.Counter()
    for course in json.loads(proc.stdout)["courses"]:
        out[course["course_id"]] += sum(len(s["tasks"]) for s in course["sections"])
    return out


def check(name, db, want, rows):
    problems = []
    start = time.monotonic()
    proc = run(db, "import", folder)
    seconds = time.monotonic() - start
    if proc.returncode != 0 or f"{rows:,} rows read, {rows:,} inserted" not in proc.stderr or " 0 rejected" not in proc.stderr:
        problems.append(f"{name}: import: exit {proc.returncode}: {proc.stderr.strip()[-400:]}")
        return problems, seconds
    grid = run(db, "report", "grid", "--format", "json")
    cards = {c["course_id"]: c["counts"] for c in json.loads(grid.stdout)["courses"]}
    late = listed(db, "--late", "--include-completed")
    for course, c in sorted(want.items()):
        got = cards.get(course, {})
        opened = sum(got.get(b, 0) for b in ("overdue", "today", "upcoming", "undated"))
        pairs = [("to_grade", got.get("to_grade"), c["submitted"]), ("completed", got.get("completed"), c["completed"]),
                 ("open", opened, c["open"]), ("excused", got.get("excused"), c["excused"]),
                 ("late", late.get(course, 0), c["late"])]
        for what, have, should in pairs:
            if have != should:
                problems.append(f"{name}: {course} {what}: {have}, the CSV says {should}")
    verify = subprocess.run([BIN, "--db", db, "verify"], capture_output=True, text=True)
    if verify.returncode != 0:
        problems.append(f"{name}: verify: {verify.stdout[-400:]}")
    return problems, seconds


if __name__ == "__main__":
    if not os.path.exists(CONVERTER):
        sys.exit(f"oulad: the converter is not at {CONVERTER} (set OULAD_CONVERTER)")
    work = tempfile.mkdtemp(prefix="dashboard-oulad-")
    folder = os.path.join(work, "export")
    server = None
    try:
        subprocess.run([sys.executable, CONVERTER, "--states", "--roster", "registrations", "--output-dir", folder],
                       check=True, stdout=subprocess.DEVNULL)
        want = expected(os.path.join(folder, "tasks.csv"))
        tasks = sum(sum(c[s] for s in ("open", "submitted", "completed", "excused")) for c in want.values())
        with open(os.path.join(folder, "courses.csv"), encoding="utf-8") as f:
            courses = sum(1 for _ in f) - 1
        total = collections.Counter()
        for c in want.values():
            total.update(c)
        print(f"oulad: {courses} courses, {tasks:,} tasks: {total['completed']:,} completed, {total['submitted']:,} submitted, "
              f"{total['open']:,} open, {total['late']:,} handed in late")
        problems, seconds = check("sqlite", os.path.join(work, "oulad.sqlite"), want, courses + tasks)
        print(f"oulad: SQLite import {seconds:.1f} s")
        server = Server()
        server.create("oulad")
        pg_problems, pg_seconds = check("postgresql", server.uri("oulad"), want, courses + tasks)
        print(f"oulad: PostgreSQL import {pg_seconds:.1f} s")
        problems += pg_problems
        for course, c in sorted(want.items()):
            print(f"  {course:10} {sum(c[s] for s in ('open', 'submitted', 'completed')):7,} tasks "
                  f"{c['submitted']:4} to grade {c['late']:6,} late")
        for p in problems:
            print("oulad: DIFFERENCE " + p)
        print("oulad: " + ("every count equals the CSV's on both stores" if not problems else f"{len(problems)} differences"))
        sys.exit(1 if problems else 0)
    finally:
        if server:
            server.stop()
        if os.environ.get("OULAD_KEEP") == "1":
            print(f"oulad: kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
