#!/bin/sh
# Peak memory (max RSS) and wall time of the report commands on a generated database:
# the figures of docs/performance.md, "Memory of reports". Heavy: run by hand, never in CI.
#
#   Bench/memory-report.sh [TASKS] [COURSES] [BINARY]
#
# TASKS (default 1000000) and COURSES (default 2000) size the data, generated once with
# .build/release/dashboard-datagen and imported once into $DATA/report-TASKS.sqlite (DATA
# defaults to .build/bench-data). BINARY defaults to .build/release/dashboard; pass another
# build to compare. Prints one line per command: wall and CPU (user + system) seconds, max
# RSS in MiB, exit code.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TASKS=${1:-1000000}
COURSES=${2:-2000}
BIN=${3:-$ROOT/.build/release/dashboard}
GEN=$ROOT/.build/release/dashboard-datagen
DATA=${DATA:-$ROOT/.build/bench-data}
AS_OF=2026-11-29T08:00:00Z
SRC=$DATA/full-$TASKS-$COURSES
DB=$DATA/report-$TASKS-$COURSES.sqlite
OUT=$(mktemp -d "${TMPDIR:-/tmp}/dashboard-memory-XXXXXX")
trap 'rm -rf "$OUT"' EXIT INT TERM

mkdir -p "$DATA"
if [ ! -f "$SRC/.done" ]; then
    mkdir -p "$SRC"
    "$GEN" --tasks "$TASKS" --courses "$COURSES" --out "$SRC"
    touch "$SRC/.done"
fi
if [ ! -f "$DB.done" ]; then
    rm -f "$DB" "$DB-wal" "$DB-shm"
    "$BIN" --db "$DB" --as-of "$AS_OF" --quiet import "$SRC"
    touch "$DB.done"
fi

run() {
    name=$1
    shift
    start=$(date +%s.%N)
    set +e
    /usr/bin/time -f "%U %S %M" -o "$OUT/time" "$BIN" --db "$DB" --as-of "$AS_OF" --quiet "$@" >/dev/null 2>"$OUT/err"
    code=$?
    set -e
    end=$(date +%s.%N)
    set -- $(tail -n 1 "$OUT/time")
    printf '%-40s %7.1f s wall %7.1f s cpu %8.1f MiB  exit %s\n' "$name" "$(echo "$end - $start" | bc)" "$(echo "$1 + $2" | bc)" \
        "$(echo "scale=1; $3 / 1024" | bc)" "$code"
}

echo "# $TASKS tasks, $COURSES courses, $BIN"
run "report grid" report grid
run "report grid --format json" report grid --format json
run "report list --limit 10" report list --limit 10
run "report list --limit 10 --page 1000" report list --limit 10 --page 1000
run "report list --format json" report list --format json
rm -rf "$OUT/html"
run "report list --out DIR --format html" report list --out "$OUT/html" --format html
