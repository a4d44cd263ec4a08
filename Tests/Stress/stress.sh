#!/usr/bin/env bash
# The heavy reliability tier of dashboard (`make stress`; minutes, not seconds).
#
# Runs the release binary against a deterministic 300,000-task school and checks that nothing
# is ever lost or torn:
#   1. kills    — 100 `kill -9` of a sync import at seeded random moments (most spread over the
#                 whole import, one in five aimed at its end: the commit and the checkpoint);
#                 after each: integrity_check and foreign_key_check pass, courses and tasks equal
#                 the state before or after the import (whole dumps), no batch is `running`, and
#                 the next import finishes the job.
#   2. readers  — 200 `report grid --format json` runs, 4 at a time, while sync imports flip the
#                 data between two states: every report parses, its course totals add up, and its
#                 total_tasks is one of the two states' counts.
#   3. nightly  — 20 `nightly` runs at once (one imports, the others exit 75 with the message),
#                 then 20 at once with --wait (all succeed): the data is consistent and every
#                 report file is whole (HTML ends with </html> and passes tidy, JSON parses).
#   4. disk     — a tmpfs filled to several levels, then a large import: exit 74 saying the disk
#                 is full with the data unchanged, or exit 0 with the data complete; after freeing
#                 space the same import succeeds. Needs root (mount); refused mount = violation.
#   5. replaced — files changed under a sync import at seeded random moments: a backup moved over
#                 the database, its -wal cut short, its -wal deleted, a backup copied over it in
#                 place (cat backup > db: the same inode). Exit 65 (the import ended
#                 first) or 74 with the words of what happened; the file at the path is the backup
#                 whole (no -wal of the old file beside it), the old file holds the batch whole or
#                 not at all, as the words say; a cut -wal leaves the data before or after, or a
#                 run that said the data is not safely stored and a file every reader refuses;
#                 the next import finishes the job.
#   6. upgrade  — `kill -9` of the first write to a schema-12 file (the release before SPEC §11,
#                 made from the baseline as that release left it) at seeded random moments:
#                 each migration is one transaction, so the file is schema 12 with none of 13's
#                 columns and triggers, schema 13 with all of them and every state the one its
#                 `completed` meant, or schema 14 with that and overrides that may name
#                 `excused`, never a mix; the courses and tasks are unchanged either way, and the
#                 next run upgrades it.
# It prints a summary table and exits 1 on any violation (2 when it cannot run at all).
#
# Knobs (environment): DASHBOARD_BIN (default .build/release/dashboard), STRESS_TASKS (300000),
# STRESS_COURSES (50), STRESS_KILLS (100), STRESS_READS (200), STRESS_NIGHTLIES (20),
# STRESS_NIGHTLY_TASKS (30000), STRESS_REPLACES (60), STRESS_UPGRADES (40), STRESS_SEED (20261129), STRESS_KEEP=1 keeps
# the work folder.
set -uo pipefail

BIN=${DASHBOARD_BIN:-.build/release/dashboard}
TASKS=${STRESS_TASKS:-300000}
COURSES=${STRESS_COURSES:-50}
KILLS=${STRESS_KILLS:-100}
READS=${STRESS_READS:-200}
NIGHTLIES=${STRESS_NIGHTLIES:-20}
NIGHTLY_TASKS=${STRESS_NIGHTLY_TASKS:-30000}
REPLACES=${STRESS_REPLACES:-60}
UPGRADES=${STRESS_UPGRADES:-40}
SEED=${STRESS_SEED:-20261129}

die() { echo "stress: error: $*" >&2; exit 2; }
[[ -x $BIN ]] || die "no dashboard binary at $BIN: run \`swift build -c release\` first, or set DASHBOARD_BIN"
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
for tool in sqlite3 tidy awk sha256sum mount umount; do
    command -v "$tool" >/dev/null || die "$tool is not installed (make deps installs sqlite3 and tidy)"
done

WORK=$(mktemp -d /tmp/dashboard-stress.XXXXXX)
MOUNTED=""
cleanup() {
    if [[ -n $MOUNTED ]]; then mount -o remount,rw "$MOUNTED" 2>/dev/null; umount "$MOUNTED" 2>/dev/null || umount -l "$MOUNTED"; fi
    if [[ ${STRESS_KEEP:-0} == 1 ]]; then echo "stress: work folder kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
cd "$WORK" || die "cannot enter $WORK"

export LANG=C.UTF-8 USER=stress DASHBOARD_AS_OF=2026-11-29T08:00:00Z
unset DASHBOARD_DB DASHBOARD_TZ NO_COLOR

VIOLATIONS=0
violation() {
    VIOLATIONS=$((VIOLATIONS + 1))
    echo "VIOLATION: $*" | tee -a "$WORK/violations.txt" >&2
}
SUMMARY=()
row() { SUMMARY+=("$(printf '%-22s %-9s %s' "$1" "$2" "$3")"); echo "stress: $1: $2 — $3"; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }
STARTED=$(now)

# MARK: - Workload

# generate KIND TASKS COURSES REJECTS DIR: writes DIR/courses.csv and DIR/tasks.csv, the baseline
# export (KIND=base) or the changed one (KIND=change: the last course dropped, every 7th renamed,
# ~4 % of tasks omitted, ~30 % changed, TASKS/13 added, REJECTS rows with an impossible date).
generate() {
    mkdir -p "$5"
    awk -v kind="$1" -v n="$2" -v nc="$3" -v rejects="$4" -v seed="$SEED" -v dir="$5" '
    function pm(x) { return (x * 16807) % 2147483647 }
    function r(i, k,   x) { x = (i * 7919 + k * 1000003 + seed) % 2147483646 + 1; return pm(pm(pm(x))) }
    function csv(s) { if (s ~ /[,"]/) { gsub(/"/, "\"\"", s); return "\"" s "\"" } return s }
    function base(i,   m, y, d, date, k) {
        course = i % nc
        k = r(i, 1) % 5
        title = k == 0 ? "Worksheet " i : k == 1 ? "Essay, part " (i % 12) : k == 2 ? "Lab \"" (i % 40) "\" report" : k == 3 ? "Übung " i " – Lösung" : "Quiz " i
        m = months[r(i, 2) % 4 + 1]; y = m == 1 ? 2027 : 2026; d = 1 + r(i, 3) % 28
        date = sprintf("%d-%02d-%02d", y, m, d)
        k = r(i, 4) % 8
        due = k == 0 ? "" : k == 1 ? date "T" sprintf("%02d", r(i, 10) % 24) ":30" : k == 2 ? date "T09:15:00Z" : k == 3 ? date " 17:45" : date
        priority = prios[r(i, 5) % 8 + 1]; completed = dones[r(i, 6) % 8 + 1]
        student = sprintf("s%04d", r(i, 7) % 997)
    }
    function emit(i) {
        printf "T%07d,c%03d,%s,%s,%s,%s,%s\n", i, course, csv(title), student, due, priority, completed > tasks
    }
    BEGIN {
        split("10|11|12|1", months, "|"); split("low|normal|high|hi|urgent|med||lo", prios, "|")
        split("no|yes||x|0|1|done|open", dones, "|"); split("America/New_York|Europe/Berlin|Asia/Tokyo|Australia/Sydney|", tz, "|")
        courses = dir "/courses.csv"; tasks = dir "/tasks.csv"
        print "course_id,title,code,term,teacher,timezone" > courses
        for (c = 0; c < nc; c++) {
            if (kind == "change" && c == nc - 1) continue
            t = (kind == "change" && c % 7 == 3) ? "Course " c ", revised" : "Course " c
            printf "c%03d,%s,C %03d,2026/27,Teacher %d,%s\n", c, csv(t), c, c % 9, tz[c % 5 + 1] > courses
        }
        print "task_id,course_id,title,student_id,due,priority,completed" > tasks
        rejected = 0
        for (i = 0; i < n; i++) {
            base(i)
            if (kind == "base") { emit(i); continue }
            if (course == nc - 1) continue
            if (rejected < rejects && i % 101 == 50) { due = "2026-02-30"; rejected++; emit(i); continue }
            roll = r(i, 8) % 100; k = r(i, 9) % 5
            if (roll < 4) continue
            if (roll < 35) {
                if (k == 0) title = title " (v2)"
                else if (k == 1) due = due == "" ? "2026-12-24" : ""
                else if (k == 2) priority = priority == "high" ? "low" : "high"
                else if (k == 3) student = sprintf("s%04d", (i * 7) % 997)
                else completed = completed == "yes" ? "no" : "yes"
            }
            emit(i)
        }
        if (kind == "change") for (j = 0; j < int(n / 13); j++) { base(n + j); course = j % (nc - 1); emit(n + j) }
    }'
}

# MARK: - Looking at a database

# The courses and tasks, whole (every column, NULL told from ''), as one SHA-256.
dump_hash() { sqlite3 -readonly -cmd '.mode quote' "$1" 'SELECT * FROM courses ORDER BY 1; SELECT * FROM tasks ORDER BY 1;' | sha256sum | cut -c1-64; }
# The same without batch numbers, for imports retried after failed attempts.
data_hash() {
    sqlite3 -readonly -cmd '.mode quote' "$1" \
        "SELECT course_id, code, title, term, teacher, timezone, deleted_batch IS NULL FROM courses ORDER BY 1;
         SELECT task_id, course_id, title, student_id, due, priority, completed, deleted_batch IS NULL, bucket FROM tasks ORDER BY 1;" |
        sha256sum | cut -c1-64
}
integrity() { sqlite3 -readonly "$1" 'PRAGMA integrity_check; PRAGMA foreign_key_check;' 2>&1; }
batches() { sqlite3 -readonly "$1" 'SELECT batch_id, status FROM batches ORDER BY 1' | tr '\n' ' '; }
running() { sqlite3 -readonly "$1" "SELECT count(*) FROM batches WHERE status = 'running'"; }
restore() { rm -f "$2" "$2-wal" "$2-shm"; cp "$1" "$2"; }
grid_total() {
    "$BIN" --db "$1" report grid --format json >grid.json || return 1
    sqlite3 :memory: "SELECT json_extract(readfile('grid.json'), '\$.total_tasks')"
}

# MARK: - 1. Kills

echo "stress: generating $TASKS tasks in $COURSES courses (seed $SEED)"
generate base "$TASKS" "$COURSES" 3 base
generate change "$TASKS" "$COURSES" 3 change
t=$(now)
"$BIN" --db baseline.sqlite import base/ 2>baseline.err || die "the baseline import failed: $(cat baseline.err)"
BASELINE_TIME=$(elapsed "$t")
sqlite3 baseline.sqlite 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
BEFORE=$(dump_hash baseline.sqlite)
restore baseline.sqlite after.sqlite
t=$(now)
"$BIN" --db after.sqlite import --mode sync change/ >/dev/null 2>reference.err
rc=$?
SYNC_SECONDS=$(awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
[[ $rc == 65 ]] || die "the reference sync import exited $rc (expected 65: 3 rejected rows): $(tail -1 reference.err)"
AFTER=$(dump_hash after.sqlite)
[[ $BEFORE != "$AFTER" ]] || die "the changed export changed nothing"
echo "stress: baseline import $BASELINE_TIME; sync import ${SYNC_SECONDS} s: $(tail -1 reference.err)"

killed_before=0 killed_after=0 exited=0 survived=0
kills_started=$(now)
for ((k = 1; k <= KILLS; k++)); do
    # One kill in five is aimed at the last 15 % of the import (the commit, the checkpoint).
    delay=$(awk -v s="$SEED" -v k="$k" -v d="$SYNC_SECONDS" 'BEGIN { srand(s + k); u = rand();
        if (k % 5 == 0) printf "%.3f", d * (0.85 + 0.2 * u); else printf "%.3f", 0.005 + u * (d - 0.005) }')
    restore baseline.sqlite db.sqlite
    "$BIN" --db db.sqlite import --mode sync change/ >/dev/null 2>kill.err &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2>/dev/null
    { wait "$pid"; } 2>/dev/null
    rc=$?
    what="kill $k at ${delay} s (exit $rc)"
    [[ $rc == 137 || $rc == 65 ]] || violation "$what: the import ended with exit $rc: $(tail -2 kill.err)"
    check=$(integrity db.sqlite)
    [[ $check == ok ]] || violation "$what: integrity/foreign keys: $check"
    [[ $(running db.sqlite) == 0 ]] || violation "$what: a batch was left running"
    hash=$(dump_hash db.sqlite)
    b=$(batches db.sqlite)
    if [[ $hash == "$BEFORE" ]]; then
        killed_before=$((killed_before + 1))
        [[ $rc == 137 ]] || violation "$what: the import exited by itself yet left the data as before"
        [[ $b == "1|committed " ]] || violation "$what: data as before but batches: $b"
    elif [[ $hash == "$AFTER" ]]; then
        if [[ $rc == 137 ]]; then killed_after=$((killed_after + 1)); else exited=$((exited + 1)); fi
        [[ $b == "1|committed 2|committed " ]] || violation "$what: data as after but batches: $b"
    else
        violation "$what: the courses and tasks are neither as before nor as after the import"
        continue
    fi
    "$BIN" --db db.sqlite import --mode sync change/ >/dev/null 2>next.err
    rc=$?
    [[ $rc == 65 ]] || violation "$what: the next import exited $rc: $(tail -2 next.err)"
    [[ $(dump_hash db.sqlite) == "$AFTER" ]] || violation "$what: the next import did not give the after state"
    [[ $(sqlite3 -readonly db.sqlite 'PRAGMA quick_check') == ok ]] || violation "$what: quick_check after the next import"
    survived=$((survived + 1))
    ((k % 10 == 0)) && echo "stress: $k of $KILLS kills: $killed_before before commit, $killed_after after commit, $exited after exit, $VIOLATIONS violations ($(elapsed "$kills_started"))"
done
row "kills survived" "$survived/$KILLS" "$killed_before before commit, $killed_after after commit (before exit), $exited after exit; import ${SYNC_SECONDS} s; $(elapsed "$kills_started")"
[[ $survived == "$KILLS" ]] || violation "only $survived of $KILLS kills were survived"

# MARK: - 5. Files changed under a writer (runs here: it needs the baseline and the after state)

replace_started=$(now)
declare -A outcomes=()
wal_bytes() { stat -c %s "$1-wal" 2>/dev/null || echo 0; }
for ((k = 1; k <= REPLACES; k++)); do
    kind=$(( (k - 1) % 4 ))
    delay=$(awk -v s="$SEED" -v k="$k" -v d="$SYNC_SECONDS" 'BEGIN { srand(s + 7919 * k); printf "%.3f", 0.005 + rand() * d }')
    restore baseline.sqlite db.sqlite
    rm -f old.sqlite backup.sqlite
    ln db.sqlite old.sqlite
    "$BIN" --db db.sqlite import --mode sync change/ >/dev/null 2>replace.err &
    pid=$!
    sleep "$delay"
    case $kind in
        0) what="backup moved over the database"; cp baseline.sqlite backup.sqlite; mv backup.sqlite db.sqlite ;;
        1) size=$(wal_bytes db.sqlite); cut=$(awk -v s="$SEED" -v k="$k" -v n="$size" 'BEGIN { srand(s + k); printf "%d", n * rand() * rand() }')
           what="-wal cut from $size to $cut bytes"; truncate -s "$cut" db.sqlite-wal 2>/dev/null ;;
        2) what="-wal deleted"; rm -f db.sqlite-wal ;;
        3) what="backup copied over the database in place"; cat baseline.sqlite > db.sqlite ;;
    esac
    wait "$pid"
    rc=$?
    what="change $k ($what at ${delay} s, exit $rc)"
    first=$(head -1 replace.err)
    outcome="exit $rc"
    if [[ $rc == 74 ]]; then
        case $first in
            *"rolled back") outcome="74 rolled back" ;;
            *"while this command opened it; nothing was read or written") outcome="74 at open" ;;
            *"went into the file that was at db.sqlite before"*) outcome="74 into the old file" ;;
            *"not safely stored") outcome="74 not safely stored" ;;
            *"was copied into db.sqlite from the -wal it used") outcome="74 copied from the -wal" ;;
            *"overwritten in place by another file's bytes while this command wrote to it; everything the command wrote was rolled back")
                outcome="74 overwritten, rolled back" ;;
            *) violation "$what: exit 74 with other words: $first" ;;
        esac
    elif [[ $rc != 65 ]]; then
        violation "$what: $(head -2 replace.err | tr '\n' ' ')"
    fi
    outcomes["$outcome"]=$((${outcomes["$outcome"]:-0} + 1))
    if [[ $kind == 3 && $rc == 74 ]]; then
        # Nothing of the -wal went into the copied bytes; as the hint says, the side files are
        # moved away, and the file at the path is then the backup, whole.
        cmp -s baseline.sqlite db.sqlite || violation "$what: the bytes at the path are no longer the backup's"
        # (`cat` empties the file before it writes: a check in between finds it cut short, damage.)
        grep -q -e "move db.sqlite-wal and db.sqlite-shm away" -e "restore the last backup" replace.err ||
            violation "$what: no hint to move the side files away or to restore: $(tail -1 replace.err)"
        rm -f db.sqlite-wal db.sqlite-shm
        [[ $(integrity db.sqlite) == ok ]] || violation "$what: the backup at the path: integrity: $(integrity db.sqlite | head -2)"
        [[ $(dump_hash db.sqlite) == "$BEFORE" ]] || violation "$what: the backup at the path is not the backup"
    elif [[ $kind == 0 ]]; then
        # The backup is at the path, whole and alone; the old file holds the batch whole or not at all.
        [[ $(wal_bytes db.sqlite) == 0 ]] || violation "$what: a -wal of $(wal_bytes db.sqlite) bytes is left beside the backup"
        [[ $(integrity db.sqlite) == ok ]] || violation "$what: the file at the path: integrity: $(integrity db.sqlite | head -2)"
        at_path=$(dump_hash db.sqlite)
        old=$(dump_hash old.sqlite)
        case $outcome in
            "74 rolled back" | "74 at open")
                [[ $at_path == "$BEFORE" ]] || violation "$what: the backup at the path is not the backup"
                [[ $old == "$BEFORE" ]] || violation "$what: $outcome, but the old file changed" ;;
            "74 into the old file")
                [[ $at_path == "$BEFORE" ]] || violation "$what: the backup at the path is not the backup"
                [[ $old == "$AFTER" ]] || violation "$what: the old file does not hold the whole batch" ;;
            "exit 65")
                # Moved after the import ended (the old file has the batch), or before it opened
                # the path (the import ran on the backup, whole).
                [[ ( $at_path == "$BEFORE" && $old == "$AFTER" ) || ( $at_path == "$AFTER" && $old == "$BEFORE" ) ]] ||
                    violation "$what: the import ended by itself, but neither file holds the batch whole while the other holds none" ;;
        esac
    else
        state=$(dump_hash db.sqlite 2>/dev/null)
        if [[ $(integrity db.sqlite) == ok && ( $state == "$BEFORE" || $state == "$AFTER" ) ]]; then
            [[ $rc == 74 && $outcome == "74 rolled back" && $state != "$BEFORE" ]] && violation "$what: rolled back, but the data is as after"
            [[ $rc == 65 && $state != "$AFTER" ]] && violation "$what: the import ended by itself, but the data is as before"
        elif [[ $outcome == "74 not safely stored" ]]; then
            # The run said the file is damaged (a -wal cut while it was copied into the file):
            # status refuses it, or verify finds the damage.
            "$BIN" --db db.sqlite status >/dev/null 2>&1
            status_rc=$?
            "$BIN" --db db.sqlite verify >/dev/null 2>&1
            verify_rc=$?
            [[ $status_rc == 74 || $verify_rc == 65 ]] ||
                violation "$what: the data is neither before nor after, yet status exits $status_rc and verify $verify_rc"
            outcomes["  of which damaged"]=$((${outcomes["  of which damaged"]:-0} + 1))
            restore baseline.sqlite db.sqlite
        else
            violation "$what: the data is neither as before nor as after (integrity: $(integrity db.sqlite | head -1))"
            continue
        fi
    fi
    "$BIN" --db db.sqlite import --mode sync change/ >/dev/null 2>next.err
    rc=$?
    [[ $rc == 65 ]] || violation "$what: the next import exited $rc: $(tail -2 next.err)"
    [[ $(dump_hash db.sqlite) == "$AFTER" ]] || violation "$what: the next import did not give the after state: $(tail -2 next.err | tr '\n' ' ')"
done
details=""
for key in "${!outcomes[@]}"; do details+="$key: ${outcomes[$key]}; "; done
row "files changed" "$REPLACES runs" "${details}$(elapsed "$replace_started")"

# MARK: - 6. Kill -9 during the schema upgrade (12 → 13 → 14: SPEC §11's states, excused pins)

# The file as the release before §11 left it: the overrides' rule without `excused` (14), the
# columns, the trigger and the print trigger of schema 13 taken away
# (Tests/Fixtures/Releases/schema-12 holds a file that release wrote).
downgrade_to_12() {
    sqlite3 "$1" "PRAGMA writable_schema = ON;
        UPDATE sqlite_schema SET sql = replace(sql, ' OR bucket = ''excused''', '') WHERE type = 'table' AND name = 'overrides';
        PRAGMA writable_schema = RESET;" >/dev/null
    sqlite3 "$1" "
        DROP TRIGGER tasks_status_written; DROP TRIGGER tasks_print_stale;
        ALTER TABLE tasks DROP COLUMN status; ALTER TABLE tasks DROP COLUMN submitted_at;
        ALTER TABLE task_history DROP COLUMN status; ALTER TABLE task_history DROP COLUMN submitted_at;
        ALTER TABLE held_tasks DROP COLUMN status; ALTER TABLE held_tasks DROP COLUMN submitted_at;
        CREATE TRIGGER tasks_print_stale AFTER UPDATE OF task_id, course_id, title, student_id, due, priority,
            completed, assignment_id, deleted_batch ON tasks WHEN OLD.print IS NOT NULL OR NEW.print IS NOT NULL
        BEGIN UPDATE tasks SET print = NULL WHERE task_id = NEW.task_id; END;
        PRAGMA user_version = 12; VACUUM;" >/dev/null
}
# The data every schema holds, buckets aside (the write after the upgrade categorizes).
upgrade_hash() {
    sqlite3 -readonly -cmd '.mode quote' "$1" \
        "SELECT * FROM courses ORDER BY 1;
         SELECT task_id, course_id, title, student_id, due, priority, completed, assignment_id, deleted_batch FROM tasks ORDER BY 1;" |
        sha256sum | cut -c1-64
}
# "VERSION COLUMNS TRIGGER PRINTS_COVER_STATUS EXCUSED_PINS": how much of schemas 13 and 14 the
# file holds.
schema_shape() {
    sqlite3 -readonly -separator ' ' "$1" "SELECT (SELECT user_version FROM pragma_user_version),
        (SELECT count(*) FROM pragma_table_info('tasks') WHERE name IN ('status', 'submitted_at'))
          + (SELECT count(*) FROM pragma_table_info('task_history') WHERE name IN ('status', 'submitted_at'))
          + (SELECT count(*) FROM pragma_table_info('held_tasks') WHERE name IN ('status', 'submitted_at')),
        (SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name = 'tasks_status_written'),
        (SELECT instr(sql, 'status') > 0 FROM sqlite_schema WHERE type = 'trigger' AND name = 'tasks_print_stale'),
        (SELECT instr(sql, '''excused''') > 0 FROM sqlite_schema WHERE type = 'table' AND name = 'overrides')"
}

upgrade_started=$(now)
restore after.sqlite release12.sqlite
downgrade_to_12 release12.sqlite
[[ $(schema_shape release12.sqlite) == "12 0 0 0 0" ]] || die "the schema-12 file is not schema 12: $(schema_shape release12.sqlite)"
OLD12=$(upgrade_hash release12.sqlite)
restore release12.sqlite upgraded.sqlite
t=$(now)
"$BIN" --db upgraded.sqlite categorize >/dev/null 2>upgrade.err || die "the reference upgrade failed: $(tail -2 upgrade.err)"
UPGRADE_SECONDS=$(awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
[[ $(schema_shape upgraded.sqlite) == "14 6 1 1 1" ]] || die "the reference upgrade left $(schema_shape upgraded.sqlite)"
echo "stress: upgrade of $TASKS tasks from schema 12 and a categorize: ${UPGRADE_SECONDS} s"
old_schema=0 mid_schema=0 new_schema=0 upgrade_ok=0
for ((k = 1; k <= UPGRADES; k++)); do
    delay=$(awk -v s="$SEED" -v k="$k" -v d="$UPGRADE_SECONDS" 'BEGIN { srand(s + 104729 * k); printf "%.3f", 0.002 + rand() * d }')
    restore release12.sqlite db.sqlite
    "$BIN" --db db.sqlite categorize >/dev/null 2>upgrade.err &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2>/dev/null
    { wait "$pid"; } 2>/dev/null
    rc=$?
    what="upgrade kill $k at ${delay} s (exit $rc)"
    [[ $rc == 137 || $rc == 0 ]] || violation "$what: categorize ended with exit $rc: $(tail -2 upgrade.err)"
    check=$(integrity db.sqlite)
    [[ $check == ok ]] || { violation "$what: integrity/foreign keys: $check"; continue; }
    shape=$(schema_shape db.sqlite)
    case $shape in
        "12 0 0 0 0") old_schema=$((old_schema + 1)) ;;
        "13 6 1 1 0" | "14 6 1 1 1")
            if [[ $shape == 13* ]]; then mid_schema=$((mid_schema + 1)); else new_schema=$((new_schema + 1)); fi
            mismatched=$(sqlite3 -readonly db.sqlite "SELECT count(*) FROM tasks WHERE status <> CASE completed WHEN 1 THEN 'completed' ELSE 'open' END OR submitted_at <> ''")
            [[ $mismatched == 0 ]] || violation "$what: $mismatched tasks with a state their completed does not mean" ;;
        *) violation "$what: a mix of schemas 12, 13 and 14 (version, columns, trigger, print trigger, excused pins: $shape)" ;;
    esac
    [[ $(upgrade_hash db.sqlite) == "$OLD12" ]] || violation "$what: the courses or tasks changed"
    "$BIN" --db db.sqlite categorize >/dev/null 2>upgrade.err || violation "$what: the next run exited $?: $(tail -2 upgrade.err)"
    [[ $(schema_shape db.sqlite) == "14 6 1 1 1" ]] || violation "$what: the next run left $(schema_shape db.sqlite)"
    "$BIN" --db db.sqlite verify >verify.err 2>&1 || violation "$what: verify after the next run: $(tail -3 verify.err)"
    upgrade_ok=$((upgrade_ok + 1))
done
row "upgrade kills" "$upgrade_ok/$UPGRADES" "$old_schema left schema 12 whole, $mid_schema schema 13 whole, $new_schema schema 14 whole, 0 mixed allowed; upgrade + categorize ${UPGRADE_SECONDS} s; $(elapsed "$upgrade_started")"
[[ $upgrade_ok == "$UPGRADES" ]] || violation "only $upgrade_ok of $UPGRADES upgrade kills were survived"

# MARK: - 2. Readers during imports

restore baseline.sqlite reads.sqlite
COUNT_BEFORE=$(grid_total baseline.sqlite)
COUNT_AFTER=$(grid_total after.sqlite)
rm -f stop-imports
reads_started=$(now)
(
    n=0
    while [[ ! -e stop-imports ]]; do
        "$BIN" --db reads.sqlite import --mode sync change/ >/dev/null 2>>imports.err; echo "change $?" >>imports.rc
        "$BIN" --db reads.sqlite import --mode sync base/ >/dev/null 2>>imports.err; echo "base $?" >>imports.rc
    done
) &
importer=$!
mkdir -p reads
export BIN
seq 1 "$READS" | xargs -P 4 -I{} sh -c '"$BIN" --db reads.sqlite report grid --format json >reads/{}.json 2>reads/{}.err; echo $? >reads/{}.rc'
touch stop-imports
wait "$importer"
reads_time=$(elapsed "$reads_started")
bad_rc=$(cat reads/*.rc | grep -vcx 0)
[[ $bad_rc == 0 ]] || violation "readers: $bad_rc reports did not exit 0"
sqlite3 :memory: "
    SELECT name, json_valid(readfile(name)), json_extract(readfile(name), '\$.total_tasks'),
           (SELECT sum(json_extract(value, '\$.total')) FROM json_each(readfile(name), '\$.courses'))
    FROM fsdir('reads') WHERE name LIKE '%.json' ORDER BY name;" >reads.txt
seen_before=0 seen_after=0
while IFS='|' read -r name valid total sum; do
    if [[ $valid != 1 ]]; then violation "readers: $name does not parse"; continue; fi
    [[ $total == "$sum" ]] || violation "readers: $name: courses add up to $sum, total_tasks is $total"
    if [[ $total == "$COUNT_BEFORE" ]]; then seen_before=$((seen_before + 1))
    elif [[ $total == "$COUNT_AFTER" ]]; then seen_after=$((seen_after + 1))
    else violation "readers: $name shows $total tasks, neither $COUNT_BEFORE nor $COUNT_AFTER"; fi
done <reads.txt
imports_done=$(wc -l <imports.rc)
bad_imports=$(grep -cvE '^(change 65|base 0)$' imports.rc)
[[ $bad_imports == 0 ]] || violation "readers: $bad_imports imports during the reads failed: $(grep -vE '^(change 65|base 0)$' imports.rc | head -3 | tr '\n' ' ')"
[[ $(integrity reads.sqlite) == ok ]] || violation "readers: integrity after the imports"
row "concurrent reads" "$((seen_before + seen_after))/$READS" "$seen_before saw $COUNT_BEFORE tasks, $seen_after saw $COUNT_AFTER, during $imports_done imports; $reads_time"

# MARK: - 3. Nightly runs at once

generate base "$NIGHTLY_TASKS" 25 0 nbase
generate change "$NIGHTLY_TASKS" 25 0 drop
"$BIN" --db nbaseline.sqlite import nbase/ 2>/dev/null || die "the nightly baseline import failed"
NIGHTLY=(nightly --imports drop --mode sync)
restore nbaseline.sqlite nref.sqlite
t=$(now)
"$BIN" --db nref.sqlite "${NIGHTLY[@]}" --reports nref-reports 2>nref.err || die "the reference nightly failed: $(cat nref.err)"
NIGHTLY_TIME=$(elapsed "$t")
NIGHTLY_AFTER=$(data_hash nref.sqlite)
NIGHTLY_FILES=$(ls -A nref-reports/2026-11-29 | sort | tr '\n' ' ')

# check_reports DIR WHAT: the folder holds what a nightly alone writes, every file whole.
check_reports() {
    local dir=$1/2026-11-29 what=$2 f
    [[ $(ls -A "$dir" | sort | tr '\n' ' ') == "$NIGHTLY_FILES" ]] || violation "$what: the report folder holds other files than a nightly alone writes"
    for f in "$dir"/*.html; do
        [[ $(tail -c 8 "$f") == "</html>" ]] || violation "$what: $(basename "$f") is cut short"
        tidy -q -e "$f" >/dev/null 2>&1
        (($? < 2)) || violation "$what: tidy finds errors in $(basename "$f")"
    done
    local invalid
    invalid=$(sqlite3 :memory: "SELECT name FROM fsdir('$dir') WHERE name LIKE '%.json' AND NOT json_valid(readfile(name))")
    [[ -z $invalid ]] || violation "$what: JSON that does not parse: $invalid"
}

nightly_started=$(now)
for wait_flag in "" "--wait 3600"; do
    what="$NIGHTLIES nightly runs at once${wait_flag:+ with $wait_flag}"
    restore nbaseline.sqlite nightly.sqlite
    rm -rf nreports
    pids=()
    for ((j = 1; j <= NIGHTLIES; j++)); do
        # shellcheck disable=SC2086
        "$BIN" --db nightly.sqlite "${NIGHTLY[@]}" --reports nreports $wait_flag >/dev/null 2>"nightly-$j.err" &
        pids+=($!)
    done
    codes=()
    for pid in "${pids[@]}"; do wait "$pid"; codes+=($?); done
    ok=0 busy=0
    for ((j = 1; j <= NIGHTLIES; j++)); do
        rc=${codes[$((j - 1))]}
        if [[ $rc == 0 ]]; then ok=$((ok + 1))
        elif [[ $rc == 75 ]]; then
            busy=$((busy + 1))
            grep -q "^dashboard: error: another dashboard process is writing to nightly.sqlite" "nightly-$j.err" ||
                violation "$what: run $j exited 75 without saying why: $(head -1 "nightly-$j.err")"
        else violation "$what: run $j exited $rc: $(head -2 "nightly-$j.err" | tr '\n' ' ')"; fi
    done
    if [[ -z $wait_flag ]]; then
        ((ok >= 1)) || violation "$what: none succeeded"
    else
        [[ $ok == "$NIGHTLIES" ]] || violation "$what: only $ok succeeded"
    fi
    [[ $(integrity nightly.sqlite) == ok ]] || violation "$what: integrity"
    [[ $(running nightly.sqlite) == 0 ]] || violation "$what: a batch was left running"
    [[ $(data_hash nightly.sqlite) == "$NIGHTLY_AFTER" ]] || violation "$what: the data differs from one nightly alone"
    check_reports nreports "$what"
    row "nightly${wait_flag:+ $wait_flag}" "$ok ok" "$busy exited 75; $NIGHTLY_TASKS tasks, one nightly alone $NIGHTLY_TIME; $(batches nightly.sqlite | wc -w) batches recorded"
done
nightly_time=$(elapsed "$nightly_started")

# MARK: - 4. A full disk at several levels

disk_started=$(now)
generate base 2000 "$COURSES" 0 small
"$BIN" --db small.sqlite import small/ 2>/dev/null || die "the small baseline import failed"
SMALL=$(dump_hash small.sqlite)
restore small.sqlite full-ref.sqlite
"$BIN" --db full-ref.sqlite import base/ 2>full-ref.err || die "the reference import for the disk test failed: $(tail -2 full-ref.err)"
FULL_REF=$(data_hash full-ref.sqlite)
mkdir -p disk
DISK_MB=$(($(stat -c %s after.sqlite) * 3 / 1048576 + 32))
if ! mount -t tmpfs -o "size=${DISK_MB}m" tmpfs disk 2>mount.err; then
    violation "disk: cannot mount a tmpfs (uid $(id -u)): $(cat mount.err) — run make stress as root"
else
    MOUNTED=$WORK/disk
    full=0 fitted=0 levels=""
    for free_kib in $(printf '%s\n' 0 16 64 256 1024 4096 16384 65536 $((DISK_MB * 1024 / 3)) $((DISK_MB * 1024 * 2 / 3)) | sort -nu); do
        rm -f disk/filler disk/db.sqlite disk/db.sqlite-wal disk/db.sqlite-shm
        cp small.sqlite disk/db.sqlite
        avail=$(($(stat -f -c '%a * %S' disk)))
        fill=$((avail - free_kib * 1024))
        ((fill > 0)) && head -c "$fill" /dev/zero >disk/filler 2>/dev/null
        what="disk with $free_kib KiB free"
        t=$(now)
        "$BIN" --db disk/db.sqlite import base/ >/dev/null 2>disk.err
        rc=$?
        took=$(elapsed "$t")
        # Look after freeing the space: a reader of a WAL database needs room for its -shm file.
        rm -f disk/filler
        check=$(integrity disk/db.sqlite)
        [[ $check == ok ]] || violation "$what: integrity: $check"
        [[ $(running disk/db.sqlite) == 0 ]] || violation "$what: a batch was left running"
        if [[ $rc == 74 ]]; then
            full=$((full + 1))
            grep -q "^dashboard: error: the disk (or database) is full" disk.err || violation "$what: exit 74 without saying the disk is full: $(head -1 disk.err)"
            [[ $(dump_hash disk/db.sqlite) == "$SMALL" ]] || violation "$what: exit 74 but the data changed"
        elif [[ $rc == 0 ]]; then
            fitted=$((fitted + 1))
            [[ $(data_hash disk/db.sqlite) == "$FULL_REF" ]] || violation "$what: exit 0 but the data is not complete"
        else
            violation "$what: exit $rc: $(head -2 disk.err | tr '\n' ' ')"
        fi
        levels+="${free_kib}K→$rc "
        echo "stress: $what: exit $rc in $took"
        "$BIN" --db disk/db.sqlite import base/ >/dev/null 2>disk.err
        rc=$?
        [[ $rc == 0 ]] || violation "$what: after freeing space the import exited $rc: $(head -1 disk.err)"
        [[ $(data_hash disk/db.sqlite) == "$FULL_REF" ]] || violation "$what: after freeing space the data is not complete"
    done
    umount disk && MOUNTED=""
    row "disk full" "$((full + fitted)) levels" "$full exited 74 (data unchanged), $fitted fitted (data complete) on a ${DISK_MB} MiB tmpfs: $levels; $(elapsed "$disk_started")"
fi

# MARK: - Summary

echo
echo "== dashboard stress: $TASKS tasks, seed $SEED, $BIN, $(elapsed "$STARTED") in all =="
printf '%-22s %-9s %s\n' "check" "result" "details"
for line in "${SUMMARY[@]}"; do echo "$line"; done
echo "violations: $VIOLATIONS"
((VIOLATIONS == 0)) || { echo "see the VIOLATION lines above"; exit 1; }
