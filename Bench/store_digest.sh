#!/usr/bin/env bash
# The store digest: one fixed sequence of commands (imports, a sync that skips unchanged rows,
# categorize, pins, a bulk pin, reverts, every report format) run on a fresh database, then
# everything the database holds dumped in a fixed order, and every report file, hashed.
# A refactor of the store must leave both digests as they were (issue 32; docs/architecture.md):
#
#   bash Bench/store_digest.sh BIN sqlite            # prints "db <sha256>" and "reports <sha256>"
#   bash Bench/store_digest.sh BIN postgresql        # the same on a throwaway PostgreSQL 15 server
#
# BIN is a built `dashboard`. Run it as root: the PostgreSQL run starts its own server as the
# `postgres` user (Debian's postgresql package), on a socket in a scratch folder, and stops it.
# Times in the database (recorded_at, started_at, ...) are the wall clock's: the dump replaces
# every ISO-8601 instant of today, and the scratch folder's path, with a placeholder.
set -euo pipefail
bin=$(realpath "$1"); store=$2
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/store-digest.XXXXXX); chmod 755 "$work"
trap 'if [ -n "${pgdata:-}" ]; then runuser -u postgres -- "$pg/pg_ctl" -D "$pgdata" -m immediate stop >/dev/null 2>&1 || true; fi; rm -rf "$work"' EXIT
pg=/usr/lib/postgresql/15/bin
if [ "$store" = postgresql ]; then
  pgdata=$work/pgdata; mkdir -p "$pgdata" "$work/sock"; chown postgres "$pgdata" "$work/sock"
  runuser -u postgres -- "$pg/initdb" -D "$pgdata" -A trust -U postgres --locale=C.UTF-8 >/dev/null
  runuser -u postgres -- "$pg/pg_ctl" -D "$pgdata" -o "-k $work/sock -c listen_addresses=''" -l "$work/sock/pg.log" -w start >/dev/null
  runuser -u postgres -- "$pg/psql" -h "$work/sock" -U postgres -qc "CREATE DATABASE digest" postgres
  db="postgresql:///digest?host=$work/sock&user=postgres"
else
  db=$work/dashboard.sqlite
fi
# One command of the sequence: 0, or 65 (the sample's rejected rows), else the script stops
# naming the command and what it printed.
d() {
  local rc=0
  DASHBOARD_TZ=Europe/London "$bin" --db "$db" --quiet --no-color "$@" >/dev/null 2>"$work/stderr" || rc=$?
  [ "$rc" -eq 0 ] || [ "$rc" -eq 65 ] || { echo "store_digest: dashboard $* exited $rc:" >&2; cat "$work/stderr" >&2; exit 1; }
}
oulad=$here/Tests/Fixtures/OULAD
d import "$here/imports/courses.csv" "$here/imports/tasks.csv" --as-of 2026-11-20T08:00:00Z
d import "$oulad/courses.csv" "$oulad/tasks.csv" --as-of 2013-11-01T08:00:00Z
d categorize --as-of 2013-12-01T08:00:00Z
first=$(sed -n 2p "$oulad/tasks.csv" | cut -d, -f1)
d reclassify "$first" --to excused --reason "doctor's note" --as-of 2013-12-01T09:00:00Z
d reclassify --search "TMA 1753" --to upcoming --reason "extension" --until 2013-12-20 --yes --as-of 2013-12-01T10:00:00Z
# A sync: most rows unchanged, some changed, some gone, one new.
awk -F, 'NR == 1 || NR % 50 != 0' "$oulad/tasks.csv" | sed 's/,2013-10-20,normal,/,2013-10-27,high,/' > "$work/tasks.csv"
echo "1752-99999,AAA-2013J,99999,TMA 1752,2013-12-24,normal,1752,open," >> "$work/tasks.csv"
d import "$oulad/courses.csv" "$work/tasks.csv" --as-of 2013-12-02T08:00:00Z
d categorize --as-of 2013-12-03T08:00:00Z
d revert 1
d revert --batch 3
for f in text markdown html json csv; do
  d report grid --format $f --out "$work/reports/grid-$f" --as-of 2013-12-03T08:00:00Z
  d report list --format $f --include-completed --out "$work/reports/list-$f" --as-of 2013-12-03T08:00:00Z
done
d verify
today=$(date -u +%Y-%m-%d)
if [ "$store" = postgresql ]; then
  q() { runuser -u postgres -- "$pg/psql" -h "$work/sock" -U postgres -d digest -XAtq "$@"; }
  for t in $(q -c "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"); do
    echo "-- $t"
    q -c "SELECT t::text FROM \"$t\" t ORDER BY 1" | LC_ALL=C sort
  done > "$work/dump"
  runuser -u postgres -- "$pg/pg_dump" -h "$work/sock" -U postgres --schema-only digest | grep -v -e '^--' -e '^\\restrict' -e '^\\unrestrict' >> "$work/dump"
else
  sqlite3 "$db" .dump > "$work/dump"
fi
sed -E -e "s/${today}T[0-9:.]+Z/<now>/g" -e "s#$work#<work>#g" "$work/dump" > "$work/dump.fixed"
echo "db $(sha256sum < "$work/dump.fixed" | cut -c1-16) ($(wc -l < "$work/dump.fixed") lines)"
echo "reports $(cd "$work/reports" && find . -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16) ($(find "$work/reports" -type f | wc -l) files)"
[ -z "${KEEP_DUMP:-}" ] || cp "$work/dump.fixed" "$KEEP_DUMP"
