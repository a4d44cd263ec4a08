#!/bin/sh
# Makes the databases of Tests/Fixtures/Releases/schema-12 with the release that wrote schema
# version 12 (SQLite; 11 on PostgreSQL), before SPEC §11's states (issue 31): the shipped
# sample imported on night 1, one task pinned by hand, night 2's export (one task done, one
# gone, one new) synced. Kept as files so the tests upgrade what that release wrote, not a
# database this checkout makes and downgrades. Not run by the tests: run once, by hand, from
# the package root with that release's binary (made at commit 1d88b7f):
#   sh Tests/Fixtures/Releases/make-schema-12.sh .build/debug/dashboard [postgresql://…/db]
# With a PostgreSQL URL it fills that (empty) database too and dumps it to postgresql.sql.
set -eu
bin=$(realpath "$1")
out=Tests/Fixtures/Releases/schema-12
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp imports/courses.csv imports/tasks.csv "$work"/
# Night 2 (night2-tasks.csv, kept beside the databases): T1002 done, T1004 gone, T1099 new.
mkdir -p "$work/night2" && cp imports/courses.csv "$work/night2/courses.csv" && cp "$out/night2-tasks.csv" "$work/night2/tasks.csv"
fill() {
    db=$1
    "$bin" --db "$db" --as-of 2026-11-29T08:00:00Z import "$work/courses.csv" "$work/tasks.csv" >/dev/null 2>&1 || test $? = 65
    "$bin" --db "$db" --as-of 2026-11-29T09:00:00Z reclassify T1003 --to upcoming --reason "extension agreed" --actor fixture
    "$bin" --db "$db" --as-of 2026-11-30T02:00:00Z import --mode sync "$work/night2" >/dev/null 2>&1 || test $? = 65
}
mkdir -p "$out"
rm -f "$out/dashboard.sqlite"*
fill "$out/dashboard.sqlite"
rm -f "$out/dashboard.sqlite-wal" "$out/dashboard.sqlite-shm"
if [ $# -ge 2 ]; then
    fill "$2"
    # Without psql's \restrict guard (pg_dump 15.14 and later), which older psql cannot read.
    pg_dump --no-owner --no-privileges --dbname="$2" | sed -e '/^\\restrict /d' -e '/^\\unrestrict /d' > "$out/postgresql.sql"
fi
