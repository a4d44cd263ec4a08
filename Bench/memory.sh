#!/bin/sh
# Bench/memory.sh: peak memory (max resident set size, from /usr/bin/time -v) of the commands
# whose memory used to grow with the data (issue 11, class 9; docs/performance.md, "Memory of
# every command"). Not part of `make test` or `make bench`: it builds large files and takes
# minutes. Every case must stay at or under 64 MiB.
#
#   Bench/memory.sh [BIN]      BIN defaults to .build/release/dashboard
#
# Environment: MEM_REJECTS (rejected rows, default 1000000), MEM_AUDIT (audit entries, default
# 3000000), MEM_FIELD_MB (the size of the field in an ignored column, default 60), MEM_COLUMNS
# (columns of the wide header, default 1000000), MEM_DATA (work folder, default a temp folder).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$ROOT/.build/release/dashboard}
REJECTS=${MEM_REJECTS:-1000000}
AUDIT=${MEM_AUDIT:-3000000}
FIELD_MB=${MEM_FIELD_MB:-60}
COLUMNS=${MEM_COLUMNS:-1000000}
DATA=${MEM_DATA:-$(mktemp -d)}
LIMIT_KIB=$((64 * 1024))
AS_OF=2026-11-29T08:00:00Z
mkdir -p "$DATA"
status=0

# peak LABEL CMD...: runs CMD (stdout to /dev/null), prints its peak RSS and wall time.
peak() {
    label=$1; shift
    /usr/bin/time -v -o "$DATA/time.txt" "$@" >/dev/null 2>"$DATA/stderr.txt" || true
    kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$DATA/time.txt")
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$DATA/time.txt")
    code=$(sed -n 's/.*Exit status: //p' "$DATA/time.txt")
    verdict=ok
    [ "$kib" -le "$LIMIT_KIB" ] || { verdict="OVER 64 MiB"; status=1; }
    printf '%-58s %8.1f MiB  %9s  exit %-3s %s\n' "$label" "$(echo "$kib / 1024" | bc -l)" "$wall" "$code" "$verdict"
}

echo "Generating cases in $DATA ..."
# 1. A tasks file whose rows are all rejected (their course is in no file and no database).
python3 - "$DATA/rejects" "$REJECTS" <<'PY'
import os, sys
out, n = sys.argv[1], int(sys.argv[2])
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "tasks.csv"), "w") as f:
    f.write("task_id,course_id,title\n")
    for i in range(n):
        f.write(f"T{i},NOPE,Title {i}\n")
PY
# 2. A 60 MB field in a column the product ignores, and a header of a million columns.
python3 - "$DATA" "$FIELD_MB" "$COLUMNS" <<'PY'
import os, sys
out, mb, cols = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for name in ("field", "wide"):
    os.makedirs(os.path.join(out, name), exist_ok=True)
    with open(os.path.join(out, name, "courses.csv"), "w") as f:
        f.write("course_id,name\nC1,Maths\n")
with open(os.path.join(out, "field", "tasks.csv"), "w") as f:
    f.write("task_id,course_id,title,notes\n")
    f.write('T1,C1,Essay,"')
    chunk = "x" * (1024 * 1024)
    for _ in range(mb):
        f.write(chunk)
    f.write('"\nT2,C1,Quiz,short\n')
with open(os.path.join(out, "wide", "tasks.csv"), "w") as f:
    f.write("task_id,course_id,title")
    for i in range(3, cols):
        f.write(f",c{i}")
    f.write("\nT1,C1,Essay" + "," * (cols - 3) + "\n")
PY

echo "Peak memory (limit 64 MiB):"
peak "check, $REJECTS rejected rows (text)" "$BIN" --db "$DATA/none.sqlite" --as-of $AS_OF check "$DATA/rejects/tasks.csv"
peak "check, $REJECTS rejected rows --format json" "$BIN" --db "$DATA/none.sqlite" --as-of $AS_OF check --format json "$DATA/rejects/tasks.csv"
rm -f "$DATA/rejects.sqlite"*
peak "import, $REJECTS rejected rows --rejects FILE" "$BIN" --db "$DATA/rejects.sqlite" --as-of $AS_OF import --rejects "$DATA/rejects.out.csv" "$DATA/rejects/tasks.csv"
peak "batches show (that batch) --format json" "$BIN" --db "$DATA/rejects.sqlite" batches show 1 --format json
peak "batches show (that batch), text" "$BIN" --db "$DATA/rejects.sqlite" batches show 1
rm -f "$DATA/field.sqlite"*
peak "import, a ${FIELD_MB} MB field in an ignored column" "$BIN" --db "$DATA/field.sqlite" --as-of $AS_OF import "$DATA/field"
rm -f "$DATA/wide.sqlite"*
peak "import, a header of $COLUMNS columns" "$BIN" --db "$DATA/wide.sqlite" --as-of $AS_OF import "$DATA/wide"

# 3. An audit log of AUDIT entries, written by the sqlite3 shell (a recursive CTE) into a
#    database the dashboard created; every tenth entry reverts the one before it.
rm -f "$DATA/audit.sqlite"*
printf 'course_id,name\nC1,Maths\n' >"$DATA/audit-courses.csv"
"$BIN" --db "$DATA/audit.sqlite" --as-of $AS_OF import "$DATA/audit-courses.csv" >/dev/null 2>&1
base=$(sqlite3 "$DATA/audit.sqlite" "SELECT coalesce(max(entry_id), 0) FROM audit")
sqlite3 "$DATA/audit.sqlite" <<SQL
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $AUDIT)
INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, reason, reverts_entry)
SELECT '2026-11-29T08:00:00Z', '2026-11-29T08:00:00Z', 'T' || (i % 50000), 'C1', 'later', 'this_week',
       CASE WHEN i % 10 = 0 THEN 'revert' ELSE 'time' END, 'bench', 'generated',
       CASE WHEN i % 10 = 0 THEN $base + i - 1 END
FROM n;
SQL
peak "audit, $AUDIT entries --format json" "$BIN" --db "$DATA/audit.sqlite" audit --format json
peak "audit, $AUDIT entries --format csv" "$BIN" --db "$DATA/audit.sqlite" audit --format csv
peak "audit, $AUDIT entries (text)" "$BIN" --db "$DATA/audit.sqlite" audit
[ -n "${MEM_DATA:-}" ] || rm -rf "$DATA"
exit $status
