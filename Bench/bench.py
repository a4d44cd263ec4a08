#!/usr/bin/env python3
"""make bench: the performance figures of docs/performance.md (issues 15 and 26), each against a
baseline measured in the same run (this machine is shared and noisy): the sqlite3 shell's
`.import` of the same tasks.csv into a typed table with a primary key, median of BENCH_RUNS runs.

Environment: BENCH_TASKS (default 1000000), BENCH_COURSES (2000), BENCH_RUNS (5),
BENCH_AUDIT (audit entries for the `audit --task` figure, default 10000000),
BENCH_SCALE=10M (also the 10,000,000-task rows: not in CI, about 20 minutes),
BENCH_DATA (where generated data is cached, default .build/bench-data).
"""
import json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".build", "release", "dashboard")
GEN = os.path.join(ROOT, ".build", "release", "dashboard-datagen")
TASKS = int(os.environ.get("BENCH_TASKS", "1000000"))
COURSES = int(os.environ.get("BENCH_COURSES", "2000"))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
AUDIT = int(os.environ.get("BENCH_AUDIT", "10000000"))
AUDIT_TASKS = 1000000
SCALE_10M = os.environ.get("BENCH_SCALE", "").upper() == "10M"
DATA = os.environ.get("BENCH_DATA", os.path.join(ROOT, ".build", "bench-data"))
AS_OF = "2026-11-29T08:00:00Z"


def generate(name, tasks, courses, extra=()):
    out = os.path.join(DATA, name)
    stamp = os.path.join(out, ".done")
    if not os.path.exists(stamp):
        os.makedirs(out, exist_ok=True)
        subprocess.run([GEN, "--tasks", str(tasks), "--courses", str(courses), "--out", out, *extra], check=True)
        open(stamp, "w").close()
    return out


def timed(cmd, **kw):
    """Wall seconds and peak RSS (KiB) of one command, via /usr/bin/time; and its stdout."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        start = time.monotonic()
        proc = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name, *cmd], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, **kw)
        elapsed = time.monotonic() - start
        rss = int(t.read().strip().splitlines()[-1] or 0)
    if proc.returncode not in (0, 65):
        sys.exit(f"bench: {' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-500:]}")
    return elapsed, rss, proc.stdout


def median(values):
    return statistics.median(values)


def remove_db(db):
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)


def sqlite_baseline(work, tasks_csv):
    db = os.path.join(work, "baseline.sqlite")
    remove_db(db)
    schema = ("CREATE TABLE t(task_id TEXT PRIMARY KEY, course_id TEXT NOT NULL, title TEXT NOT NULL, student_id TEXT, "
              "due TEXT, priority TEXT, completed TEXT);")
    return timed(["sqlite3", db, schema, f".import --csv --skip 1 {tasks_csv} t"])[0]


def fresh_import(folder, db):
    remove_db(db)
    return timed([BIN, "--db", db, "--as-of", AS_OF, "--quiet", "import", folder])


def audit_database(work):
    """A database with AUDIT audit entries over 1,000,000 tasks (written by the sqlite3 shell
    with a recursive CTE, as Bench/memory.sh does), cached: each task has a handful (AUDIT /
    1,000,000), as in a school's log after years of nights."""
    db = os.path.join(DATA, f"audit-{AUDIT}-over-{AUDIT_TASKS}.sqlite")
    stamp = db + ".done"
    if not os.path.exists(stamp):
        remove_db(db)
        folder = os.path.join(work, "audit-input")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "courses.csv"), "w") as f:
            f.write("course_id,title\nC1,Maths\n")
        with open(os.path.join(folder, "tasks.csv"), "w") as f:
            f.write("task_id,course_id,title,due\n" + "".join(f"T{i},C1,Task {i},2026-12-01\n" for i in range(1, AUDIT_TASKS + 1)))
        subprocess.run([BIN, "--db", db, "--as-of", AS_OF, "--quiet", "import", folder], check=True)
        sql = f"""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {AUDIT})
            INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, reason)
            SELECT '2026-11-29T08:00:00Z', '2026-11-29T08:00:00Z', 'T' || (i % {AUDIT_TASKS} + 1), 'C1', 'upcoming', 'today', 'time', 'bench', ''
            FROM n;
        """
        subprocess.run(["sqlite3", db, sql], check=True)
        open(stamp, "w").close()
    return db


def main():
    work = tempfile.mkdtemp(prefix="dashboard-bench-")
    try:
        big = generate(f"full-{TASKS}", TASKS, COURSES)
        small = generate(f"full-{TASKS // 10}", TASKS // 10, max(1, COURSES // 10))
        delta = generate(f"delta-{TASKS}", TASKS, COURSES, ["--delta-from", big, "--changed", "1", "--new", "0.5", "--missing", "0.5"])
        rows = []
        full_db = os.path.join(work, "full.sqlite")

        baseline, imports, rss_big = [], [], []
        for _ in range(RUNS):
            baseline.append(sqlite_baseline(work, os.path.join(big, "tasks.csv")))
            seconds, rss, _ = fresh_import(big, full_db)
            imports.append(seconds)
            rss_big.append(rss)
        base = median(baseline)
        full = median(imports)
        base_text = "sqlite3 .import %.2f s" % base
        rows.append(("full import, %d tasks" % TASKS, base_text, "%.2f s" % full, full / base, 0.8))

        reimports = []
        for _ in range(RUNS):
            reimports.append(timed([BIN, "--db", full_db, "--as-of", AS_OF, "--quiet", "import", big])[0])
        again = median(reimports)
        rows.append(("re-import identical files", base_text, "%.2f s" % again, again / base, 0.2))
        # It must write nothing, and say which import it relied on.
        _, _, out = timed([BIN, "--db", full_db, "--as-of", AS_OF, "--quiet", "import", big, "--format", "json"])
        result = json.loads(out)
        written = sum(result[k] for k in ("inserted", "updated", "deleted"))
        entries = (result.get("categorized") or {}).get("entries", 0)
        rows.append(("re-import: rows written, entries", "-", "%d, %d" % (written, entries), None, 0, written + entries))
        proven = result.get("unchanged_since") is not None
        rows.append(("re-import: proven unchanged", "-", "yes" if proven else "no", None, 0, 0 if proven else 1))

        deltas, rss_delta = [], []
        for _ in range(RUNS):
            db = os.path.join(work, "delta.sqlite")
            shutil.copyfile(full_db, db)
            seconds, rss, _ = timed([BIN, "--db", db, "--as-of", AS_OF, "--quiet", "import", "--mode", "sync", "--max-delete", "100%",
                                     delta])
            deltas.append(seconds)
            rss_delta.append(rss)
        nightly = median(deltas)
        rows.append(("nightly delta (sync, 1 % changed, 0.5 % new, 0.5 % missing)", base_text, "%.2f s" % nightly, nightly / base,
                     0.5))

        _, rss_small, _ = fresh_import(small, os.path.join(work, "small.sqlite"))
        memories = [("peak memory of import, %d tasks" % (TASKS // 10), rss_small / 1024),
                    ("peak memory of import, %d tasks" % TASKS, max(rss_big) / 1024),
                    ("peak memory of the nightly delta, %d tasks" % TASKS, max(rss_delta) / 1024)]

        def report(args, db=full_db):
            return median([timed([BIN, "--db", db, "--as-of", AS_OF, *args])[0] for _ in range(RUNS)])

        grid = report(["report", "grid", "--format", "json"])
        rows.append(("report grid --format json, %d tasks" % TASKS, "-", "%.3f s" % grid, None, 0.2, grid))
        search = report(["report", "list", "--search", "Essay", "--limit", "50"])
        rows.append(("report list --search WORD --limit 50, %d tasks" % TASKS, "-", "%.3f s" % search, None, 0.3, search))
        one = report(["report", "list", "--course", "C7", "--limit", "50"])
        rows.append(("report list --course C --limit 50, %d tasks" % TASKS, "-", "%.3f s" % one, None, 0.05, one))

        audit_db = audit_database(work)
        audit = median([timed([BIN, "--db", audit_db, "audit", "--task", "T7"])[0] for _ in range(RUNS)])
        rows.append(("audit --task ID, %d entries" % AUDIT, "-", "%.3f s" % audit, None, 0.05, audit))

        if SCALE_10M:
            huge_tasks = TASKS * 10
            huge = generate(f"full-{huge_tasks}", huge_tasks, COURSES * 10)
            huge_db = os.path.join(work, "huge.sqlite")
            seconds, rss, _ = fresh_import(huge, huge_db)
            rows.append(("import of %d tasks" % huge_tasks, "%d-task import %.2f s" % (TASKS, full), "%.2f s" % seconds, seconds / full,
                         10.0))
            memories.append(("peak memory of import, %d tasks" % huge_tasks, rss / 1024))
            grid10 = median([timed([BIN, "--db", huge_db, "--as-of", AS_OF, "report", "grid"])[0] for _ in range(min(RUNS, 3))])
            rows.append(("report grid, %d tasks" % huge_tasks, "-", "%.3f s" % grid10, None, 3.0, grid10))
            one10 = median([timed([BIN, "--db", huge_db, "--as-of", AS_OF, "report", "list", "--course", "C7", "--limit", "50"])[0]
                            for _ in range(RUNS)])
            rows.append(("report list --course C --limit 50, %d tasks" % huge_tasks, "-", "%.3f s" % one10, None, 0.05, one10))

        for name, mib in memories:
            rows.append((name, "-", "%.1f MiB" % mib, None, 64.0, mib))
        spread = max(m for _, m in memories) - min(m for _, m in memories)
        rows.append(("peak memory of import: spread over the sizes", "-", "%.1f MiB" % spread, None, 16.0, spread))

        print(f"\ndashboard bench: {TASKS:,} tasks, {COURSES:,} courses, median of {RUNS} runs, {os.cpu_count()} cores"
              f"{', with the 10,000,000-task rows' if SCALE_10M else ''}\n")
        print(f"{'figure':62} {'baseline':26} {'value':12} {'ratio':>7} {'target':>10}  result")
        failed = 0
        for row in rows:
            name, base_text, value, ratio, target = row[:5]
            if ratio is not None:
                ok = ratio <= target
                ratio_text, target_text = "%.2f×" % ratio, "≤ %.2f×" % target
            else:
                measured = row[5]
                ok = measured <= target
                ratio_text = "-"
                if "memory" in name:
                    target_text = "≤ %g MiB" % target
                elif "written" in name or "proven" in name:
                    target_text = "= 0" if "written" in name else "yes"
                else:
                    target_text = "≤ %g s" % target
            failed += 0 if ok else 1
            print(f"{name:62} {base_text:26} {value:12} {ratio_text:>7} {target_text:>10}  {'pass' if ok else 'FAIL'}")
        print(f"\n{len(rows) - failed} passed, {failed} failed")
        return 1 if failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
