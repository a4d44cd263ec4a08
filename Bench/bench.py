#!/usr/bin/env python3
"""make bench: the performance figures of docs/performance.md, each against a baseline
measured in the same run (this machine is shared and noisy), the median of BENCH_RUNS runs.

Environment: BENCH_TASKS (default 1000000), BENCH_COURSES (2000), BENCH_RUNS (5),
BENCH_DATA (where generated data is cached, default .build/bench-data).
"""
import json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".build", "release", "dashboard")
GEN = os.path.join(ROOT, ".build", "release", "dashboard-datagen")
TASKS = int(os.environ.get("BENCH_TASKS", "1000000"))
COURSES = int(os.environ.get("BENCH_COURSES", "2000"))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
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
    """Wall seconds and peak RSS (KiB) of one command, via /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        start = time.monotonic()
        proc = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name, *cmd], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, **kw)
        elapsed = time.monotonic() - start
        rss = int(t.read().strip().splitlines()[-1] or 0)
    if proc.returncode not in (0, 65):
        sys.exit(f"bench: {' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-500:]}")
    return elapsed, rss


def median(values):
    return statistics.median(values)


def main():
    work = tempfile.mkdtemp(prefix="dashboard-bench-")
    try:
        big = generate(f"full-{TASKS}", TASKS, COURSES)
        small = generate(f"full-{TASKS // 10}", TASKS // 10, max(1, COURSES // 10))
        delta = generate(f"delta-{TASKS}", TASKS, COURSES, ["--delta-from", big, "--changed", "1", "--new", "0.5", "--missing", "0.5"])
        tasks_csv = os.path.join(big, "tasks.csv")
        rows = []

        def run_sqlite():
            db = os.path.join(work, "baseline.sqlite")
            if os.path.exists(db):
                os.remove(db)
            schema = ("CREATE TABLE t(task_id TEXT PRIMARY KEY, course_id TEXT NOT NULL, title TEXT NOT NULL, student_id TEXT, "
                      "due TEXT, priority TEXT, completed TEXT);")
            return timed(["sqlite3", db, schema, f".import --csv --skip 1 {tasks_csv} t"])[0]

        def fresh_import(folder, db):
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(db + suffix):
                    os.remove(db + suffix)
            return timed([BIN, "--db", db, "--as-of", AS_OF, "--quiet", "import", folder])

        baseline, imports, rss_big = [], [], []
        for _ in range(RUNS):
            baseline.append(run_sqlite())
            seconds, rss = fresh_import(big, os.path.join(work, "full.sqlite"))
            imports.append(seconds)
            rss_big.append(rss)
        base = median(baseline)
        full = median(imports)
        rows.append(("full import, %d tasks" % TASKS, "sqlite3 .import %.2f s" % base, "%.2f s" % full, full / base, 1.0))

        _, rss_small = fresh_import(small, os.path.join(work, "small.sqlite"))
        peak = max(rss_big) / 1024
        rows.append(("peak memory, %d tasks" % TASKS, "-", "%.1f MiB" % peak, None, 64.0, peak))
        rows.append(("peak memory, %d tasks" % (TASKS // 10), "-", "%.1f MiB" % (rss_small / 1024), None, 64.0, rss_small / 1024))

        reimports = []
        for _ in range(RUNS):
            reimports.append(timed([BIN, "--db", os.path.join(work, "full.sqlite"), "--as-of", AS_OF, "--quiet", "import", big])[0])
        again = median(reimports)
        rows.append(("re-import identical files", "full import %.2f s" % full, "%.2f s" % again, again / full, 0.35))
        # The re-import must write nothing: no row inserted, updated or deleted, no audit entry.
        check = subprocess.run([BIN, "--db", os.path.join(work, "full.sqlite"), "--as-of", AS_OF, "--quiet", "import", big,
                                "--format", "json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        result = json.loads(check.stdout)
        written = sum(result[k] for k in ("inserted", "updated", "deleted"))
        entries = (result.get("categorized") or {}).get("entries", 0)
        rows.append(("re-import: rows written, entries", "-", "%d, %d" % (written, entries), None, 0, written + entries))

        deltas = []
        for _ in range(RUNS):
            db = os.path.join(work, "delta.sqlite")
            shutil.copyfile(os.path.join(work, "full.sqlite"), db)
            deltas.append(timed([BIN, "--db", db, "--as-of", AS_OF, "--quiet", "import", "--mode", "sync", "--max-delete", "100%", delta])[0])
        nightly = median(deltas)
        rows.append(("nightly delta (sync, 2 % churn)", "full import %.2f s" % full, "%.2f s" % nightly, nightly / full, 0.5))

        grids = [timed([BIN, "--db", os.path.join(work, "full.sqlite"), "--as-of", AS_OF, "report", "grid", "--format", "json"])[0]
                 for _ in range(RUNS)]
        grid = median(grids)
        rows.append(("report grid --format json", "-", "%.3f s" % grid, None, 1.5, grid))
        lists = [timed([BIN, "--db", os.path.join(work, "full.sqlite"), "--as-of", AS_OF, "report", "list", "--course", "C7",
                        "--format", "json"])[0] for _ in range(RUNS)]
        one = median(lists)
        rows.append(("report list, one course", "-", "%.3f s" % one, None, 0.05, one))

        print(f"\ndashboard bench: {TASKS:,} tasks, {COURSES:,} courses, median of {RUNS} runs, {os.cpu_count()} cores\n")
        print(f"{'figure':34} {'baseline':26} {'value':12} {'ratio':>7} {'target':>9}  result")
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
                elif "written" in name:
                    target_text = "= 0"
                else:
                    target_text = "≤ %g s" % target
            failed += 0 if ok else 1
            print(f"{name:34} {base_text:26} {value:12} {ratio_text:>7} {target_text:>9}  {'pass' if ok else 'FAIL'}")
        print(f"\n{len(rows) - failed} passed, {failed} failed")
        return 1 if failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
