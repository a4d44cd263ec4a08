#!/usr/bin/env python3
"""make bench, the PostgreSQL store's figures (issue 16; docs/performance.md), each against a
baseline measured in the same run on the same throwaway server:

- import of BENCH_TASKS tasks into an empty database against psql's \\copy of the same tasks.csv
  into a table with a primary key (the export's columns as declared types: the due, priority and
  completed values of a real export are messy text that only the dashboard's normalizer reads);
- report grid --format json and report list --course C --limit 50 on PostgreSQL against the same
  reports on an SQLite file holding the same import;
- 50 teachers' roles (one teacher each, row-level security) opening their dashboard while a
  nightly sync imports a delta (teacher i at i/50 of the import's time alone: report grid, then
  the first page of report list): every report succeeds and shows only its teacher's courses,
  and the import takes at most 25 % longer than alone.

The server: initdb into a temporary folder (as the postgres user when run as root), a Unix socket
there, no TCP, default settings (fsync on: both sides of every ratio pay it), stopped at the end.
Environment: BENCH_TASKS (1000000), BENCH_COURSES (2000), BENCH_RUNS (5), BENCH_READERS (50),
BENCH_DATA (generated data, shared with bench.py: .build/bench-data).
"""
import csv, json, os, shutil, statistics, subprocess, sys, tempfile, threading, time

from bench import generate  # the same generated data as the SQLite figures (Bench/bench.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".build", "release", "dashboard")
TASKS = int(os.environ.get("BENCH_TASKS", "1000000"))
COURSES = int(os.environ.get("BENCH_COURSES", "2000"))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
READERS = int(os.environ.get("BENCH_READERS", "50"))
AS_OF = "2026-11-29T08:00:00Z"


def pg_bin():
    try:
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True).stdout.strip()
        if os.path.exists(os.path.join(out, "initdb")):
            return out
    except (OSError, subprocess.CalledProcessError):
        pass
    return "/usr/lib/postgresql/15/bin"


class Server:
    """A throwaway PostgreSQL server on a Unix socket in a temporary folder."""

    def __init__(self):
        self.bin = pg_bin()
        self.folder = tempfile.mkdtemp(prefix="dashboard-bench-pg-")
        self.root = os.getuid() == 0
        if self.root:
            shutil.chown(self.folder, "postgres", "postgres")
            os.chmod(self.folder, 0o755)
        self.data = os.path.join(self.folder, "data")
        self.port = 54000 + os.getpid() % 1000
        self.as_server(["initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"])
        options = f"-k {self.folder} -p {self.port} -c listen_addresses='' -c max_connections=200"
        self.as_server(["pg_ctl", "-D", self.data, "-o", options, "-l", os.path.join(self.folder, "log"), "-w", "start"])

    def as_server(self, command):
        command = [os.path.join(self.bin, command[0])] + command[1:]
        if self.root:
            command = ["runuser", "-u", "postgres", "--"] + command
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)

    def uri(self, database, user="postgres"):
        return f"postgresql://{user}@/{database}?host={self.folder}&port={self.port}"

    def psql(self, database, sql, user="postgres"):
        return subprocess.run([os.path.join(self.bin, "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                               f"host={self.folder} port={self.port} dbname={database} user={user}", "-c", sql],
                              check=True, capture_output=True, text=True).stdout

    def create(self, database, template=None):
        self.psql("postgres", f"DROP DATABASE IF EXISTS {database}")
        self.psql("postgres", f"CREATE DATABASE {database}" + (f" TEMPLATE {template}" if template else ""))

    def stop(self):
        try:
            self.as_server(["pg_ctl", "-D", self.data, "-m", "fast", "stop"])
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def timed(cmd, ok=(0, 65)):
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if proc.returncode not in ok:
        sys.exit(f"bench: {' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-800:]}")
    return elapsed, proc.stdout


def main():
    server = Server()
    work = tempfile.mkdtemp(prefix="dashboard-bench-")
    rows = []
    try:
        big = generate(f"full-{TASKS}", TASKS, COURSES)
        delta = generate(f"delta-{TASKS}", TASKS, COURSES, ["--delta-from", big, "--changed", "1", "--new", "0.5", "--missing", "0.5"])
        tasks_csv = os.path.join(big, "tasks.csv")

        # 1. The import against \copy into a table with a primary key.
        copies, imports = [], []
        for run in range(RUNS):
            server.create("baseline")
            server.psql("baseline", "CREATE TABLE t (task_id text PRIMARY KEY, course_id text NOT NULL, title text NOT NULL, "
                                    "student_id text, due text, priority text, completed text)")
            copies.append(timed([os.path.join(server.bin, "psql"), "-X", "-q", f"host={server.folder} port={server.port} "
                                 "dbname=baseline user=postgres", "-c", f"\\copy t FROM '{tasks_csv}' WITH (FORMAT csv, HEADER true)"])[0])
            server.create("imported")
            imports.append(timed([BIN, "--db", server.uri("imported"), "--as-of", AS_OF, "--quiet", "import", big])[0])
        base, full = statistics.median(copies), statistics.median(imports)
        rows.append(("import of %d tasks into PostgreSQL" % TASKS, "psql \\copy %.2f s" % base, "%.2f s" % full, full / base, 1.5))

        # 2. Reports against the same reports on an SQLite file of the same import.
        sqlite_db = os.path.join(work, "same.sqlite")
        timed([BIN, "--db", sqlite_db, "--as-of", AS_OF, "--quiet", "import", big])

        def report(db, args):
            return statistics.median([timed([BIN, "--db", db, "--as-of", AS_OF, *args], ok=(0,))[0] for _ in range(RUNS)])

        for args, label in [(["report", "grid", "--format", "json"], "report grid --format json"),
                            (["report", "list", "--course", "C7", "--limit", "50"], "report list --course C --limit 50")]:
            on_sqlite = report(sqlite_db, args)
            on_pg = report(server.uri("imported"), args)
            rows.append(("%s, %d tasks, PostgreSQL" % (label, TASKS), "SQLite %.3f s" % on_sqlite, "%.3f s" % on_pg,
                         on_pg / on_sqlite, 2.0))

        # 3. 50 teachers' roles reading while a nightly sync imports a delta.
        teachers = {}
        with open(os.path.join(big, "courses.csv"), newline="") as f:
            for row in csv.DictReader(f):
                teachers.setdefault(row["teacher"], set()).add(row["course_id"])
        names = sorted(teachers, key=lambda t: int(t.split()[-1]) if t.split()[-1].isdigit() else 0)[:READERS]
        for i, teacher in enumerate(names):
            server.psql("postgres", f"DO $$ BEGIN CREATE ROLE reader_{i} LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
            timed([BIN, "--db", server.uri("imported"), "access", "grant-teacher", f"reader_{i}", "--teacher", teacher], ok=(0,))

        def sync_import(database):
            return timed([BIN, "--db", server.uri(database), "--as-of", AS_OF, "--quiet", "import", "--mode", "sync",
                          "--max-delete", "100%", delta])[0]

        alone, together, reports, wrong, failed = [], [], [], [], []
        for run in range(RUNS):
            server.create("nightly", template="imported")
            alone.append(sync_import("nightly"))
            server.create("nightly", template="imported")
            lock = threading.Lock()
            window = statistics.median(alone)

            def reader(i):
                # Teacher i opens the dashboard at its moment of the import: the grid, then the
                # first page of the list.
                time.sleep(window * i / len(names))
                for args in (["report", "grid", "--format", "json"], ["report", "list", "--format", "json", "--limit", "50"]):
                    proc = subprocess.run([BIN, "--db", server.uri("nightly", f"reader_{i}"), "--as-of", AS_OF, *args],
                                          capture_output=True, text=True)
                    with lock:
                        reports.append(i)
                        if proc.returncode != 0:
                            failed.append((i, proc.returncode, proc.stderr[-300:]))
                            continue
                        seen = {c["course_id"] for c in json.loads(proc.stdout)["courses"]}
                        if not seen or not seen <= teachers[names[i]]:
                            wrong.append((i, sorted(seen - teachers[names[i]])[:5]))

            threads = [threading.Thread(target=reader, args=(i,)) for i in range(len(names))]
            start = time.monotonic()
            importer = subprocess.Popen([BIN, "--db", server.uri("nightly"), "--as-of", AS_OF, "--quiet", "import", "--mode", "sync",
                                         "--max-delete", "100%", delta], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for thread in threads:
                thread.start()
            _, errors = importer.communicate()
            together.append(time.monotonic() - start)
            if importer.returncode not in (0, 65):
                sys.exit(f"bench: the import under readers failed ({importer.returncode}): {errors[-800:]}")
            for thread in threads:
                thread.join()
        rows.append(("nightly sync alone (1 % changed, 0.5 % new, 0.5 % missing)", "its full import %.2f s" % full,
                     "%.2f s" % statistics.median(alone), statistics.median(alone) / full, 0.5))
        slow = statistics.median(together) / statistics.median(alone)
        rows.append(("nightly sync while %d teachers' roles read (grid, list page)" % len(names),
                     "alone %.2f s" % statistics.median(alone), "%.2f s" % statistics.median(together), slow, 1.25))
        rows.append(("  readers' reports: all succeed (%d reports)" % len(reports), "-", "%d failed" % len(failed), None, 0,
                     len(failed)))
        rows.append(("  readers' reports: only their teacher's courses", "-", "%d wrong" % len(wrong), None, 0, len(wrong)))

        print(f"\ndashboard bench, PostgreSQL store: {TASKS:,} tasks, {COURSES:,} courses, median of {RUNS} runs, "
              f"{os.cpu_count()} cores\n")
        print(f"{'figure':62} {'baseline':26} {'value':12} {'ratio':>7} {'target':>10}  result")
        bad = 0
        for row in rows:
            name, base_text, value, ratio, target = row[:5]
            if ratio is not None:
                ok, ratio_text, target_text = ratio <= target, "%.2f×" % ratio, "≤ %.2f×" % target
            else:
                ok, ratio_text, target_text = row[5] <= target, "-", "= 0"
            bad += 0 if ok else 1
            print(f"{name:62} {base_text:26} {value:12} {ratio_text:>7} {target_text:>10}  {'pass' if ok else 'FAIL'}")
        for i, code, stderr in failed[:3]:
            print(f"  reader_{i} exited {code}: {stderr.strip()}")
        for i, extra in wrong[:3]:
            print(f"  reader_{i} saw courses of another teacher: {extra}")
        print(f"\n{len(rows) - bad} passed, {bad} failed")
        return 1 if bad else 0
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
