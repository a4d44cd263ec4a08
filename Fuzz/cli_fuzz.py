#!/usr/bin/env python3
"""Command-line fuzzer for `dashboard` (issue 11, class 3): random argv over every command
and option, hostile values, against a small database; the only allowed outcomes are the
documented exit codes 0, 64, 65, 66, 74 and 75.

Commands and options are discovered from `dashboard --help`, `dashboard COMMAND --help` and
`dashboard COMMAND VERB --help` for the verbs a command lists,
so a new command or option is fuzzed without touching this file; the `[lo to hi]` range that
--help shows for a numeric option adds its bounds and their neighbours to the values tried.

Every run works in a fresh copy of a template folder (a database with two imports, an
override and a held sync batch, plus the CSV files it came from; one run in four, a copy
whose database a hand edit filled with out-of-range numbers) inside one temporary
directory, with HOME, TMPDIR and the working directory inside it, and only relative paths
(never `..`) or paths inside it as values: nothing is written outside it. The temporary
directory is removed at the end.

A run fails when the program exits 70 (an internal error), with any other undocumented code,
dies of a signal, or runs longer than --timeout seconds; each failure prints the argv (shell
quoted, with the environment it ran with) to reproduce it, and the script exits 1.

Usage:
  python3 Fuzz/cli_fuzz.py [--bin .build/debug/dashboard] [--seconds 60] [--runs N] [--seed S]
  make fuzz-cli FUZZ_SECONDS=300        # release build, random seed
  make test                             # includes a fixed-seed run of 150 argvs

Python 3 standard library only.
"""

import argparse
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ALLOWED = {0, 64, 65, 66, 74, 75}
AS_OF = "2026-11-29T08:00:00Z"

COURSES = """course_id,title,code,timezone
bio,Biology,BIO 101,America/New_York
his,History,HIS 200,
"""

TASKS = """task_id,course_id,title,student_id,due,priority,completed
t1,bio,Lab report,s1,2026-12-01,high,no
t2,bio,"Reading quiz, chapter 4",s2,,low,yes
t3,his,Essay draft,s1,2026-11-29T17:00,,
t4,his,=1+1 formula,s3,2026-11-20,normal,no
t5,bio,Poster,s2,2026-12-24T09:00Z,high,
"""

# Hostile values for any option or positional. No NUL: argv cannot carry one.
HOSTILE = [
    "", " ", "0", "1", "2", "-1", "-0", "+5", " 5", "5 ", "0x10", "010", "1.5", ".5", "5.", "1e3", "1e300", "1e309",
    "-1e309", "inf", "-inf", "Infinity", "nan", "NaN", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "18446744073709551616", "99999999999999999999999999999", "4294967296", "2147483648",
    "9007199254740991", "9007199254740992", "10%", "0%", "100%", "100.5%", "101%", "-5%", "nan%", "inf%", "%", "1e2%",
    "\x1b[2J", "\x1b]0;title\x07", "\a", "\r", "a\nb", "\t", "ü", "\u202e", "\u200b", "x" * 5000, "-", "--", "=",
    "--help", "-h", "db.sqlite", "db.sqlite-wal", "db.sqlite-shm", "db.sqlite-journal", "imports", "imports/",
    "imports/tasks.csv", "imports/courses.csv", "imports/missing.csv", ".", "out", "out/x", "reports", "rejects.csv",
    "t1", "t9", "bio", "BIO 101", "s1", "today", "overdue", "upcoming", "undated", "completed", "sync", "merge",
    "json", "text", "csv", "html", "markdown", "utf-8", "latin1", "windows-1252", "utf-32", ";", "tab", "|", "mdy",
    "dmy", "due", "priority", "title", "student", "high", "low", "2026-11-29", "2026-11-29T08:00:00Z",
    "2026-11-30T23:59", "2026-02-30", "99999-01-01", "0000-01-01", "2026-11-29T99:99", "Europe/Berlin", "Mars/Base",
    "UTC", "list", "show", "approve", "discard", "grid", "time", "import", "override", "revert",
]

UNKNOWN_OPTIONS = ["--bogus", "--lim", "-x", "--=x", "---limit", "--limit=", "--quiet=1", "-5", "--1"]


def discover(binary):
    """The commands, their options and their usage words, read from --help."""
    overview = run_help(binary, ["--help"])
    commands = section_names(overview, "Commands:")
    globals_ = option_lines(section(overview, "Global options"))
    spec = {}
    for command in commands:
        text = run_help(binary, [command, "--help"])
        usage = next((line for line in text.splitlines() if line.startswith("Usage: ")), "")
        bare = re.sub(r"\[[^\]]*\]", " ", usage[len("Usage: "):]).replace("|", " ").split()
        words = sorted({w for w in bare if re.fullmatch(r"[a-z][a-z-]*", w) and w not in ("dashboard", command)})
        takes_positionals = bool(words) or re.search(r"\b[A-Z]{2,}\b", " ".join(bare)) is not None
        # A command with verbs (batches, report) lists them under "Verbs"; each verb owns its options.
        verbs = section_names(text, "Verbs")
        verb_options = {verb: option_lines(section(run_help(binary, [command, verb, "--help"]), "Options:")) for verb in verbs}
        spec[command] = {
            "options": option_lines(section(text, "Options:")), "words": words, "positionals": takes_positionals,
            "verb_options": verb_options,
        }
    return commands, globals_, spec


def run_help(binary, args):
    result = subprocess.run([binary] + args, capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        raise SystemExit(f"cli_fuzz: `{' '.join(args)}` exited {result.returncode}: {result.stderr}")
    return result.stdout


def section(text, title):
    lines = text.splitlines()
    out, inside = [], False
    for line in lines:
        if line.startswith(title):
            inside = True
            continue
        if inside:
            if not line.strip():
                break
            out.append(line)
    return out


def section_names(text, title):
    return [line.split()[0] for line in section(text, title) if line.startswith("  ") and line.split()]


def option_lines(lines):
    """{name: (takes_value, extra values from its [lo to hi] range)}."""
    options = {}
    for line in lines:
        match = re.match(r"^  --([a-z][a-z-]*)(?: (\S+))?(?:\s{2,}|$)", line)
        if not match:
            continue
        # Plausible values: the bounds of a [lo to hi] range and their neighbours, a few
        # values inside it, the choices of a `a|b` placeholder and the words of the help
        # (`text, markdown, html`), and paths for a PATH, FILE or DIR.
        extra = []
        for lo, hi in re.findall(r"\[(\d+)%? to (\d+)", line):
            lo, hi = int(lo), int(hi)
            extra += [str(n) for n in (lo - 1, lo, hi, hi + 1, lo + 1, min(hi, lo + 5), (lo + hi) // 2)]
            if "%" in line:
                extra += ["0%", "5%", "50%", "100%", "2.5%"]
        placeholder = match.group(2) or ""
        if "|" in placeholder:
            extra += placeholder.split("|")
        help_text = line[match.end():]
        if placeholder not in ("PATH", "FILE", "DIR", "TIME", "DATE", "NAME", "TEXT", "ID", "N", "K", "SECONDS", "COLUMNS"):
            extra += [w for w in re.findall(r"[a-z][a-z0-9-]+", help_text) if len(w) > 2][:12]
        if placeholder == "NAME":
            extra += ["Europe/Berlin", "UTC", "America/New_York", "adams", "Asia/Kolkata"]
        if placeholder == "TEXT":
            extra += ["essay", "lab report", "extension granted", "t1"]
        if placeholder in ("PATH", "FILE", "DIR"):
            extra += ["out", "rejects.csv", "imports", "imports/tasks.csv", "db.sqlite", "new.sqlite", "reports"]
        if placeholder in ("TIME", "DATE"):
            extra += ["2026-11-29", "2026-12-01T10:00", "2026-11-30T08:00:00Z", "2026-11-29T08:00:00+01:00"]
        if placeholder == "ID":
            extra += ["1", "2", "3", "bio", "his", "s1", "t1"]
        options[match.group(1)] = (match.group(2) is not None, extra)
    return options


def make_template(binary, root):
    template = os.path.join(root, "template")
    os.makedirs(os.path.join(template, "imports"))
    os.makedirs(os.path.join(template, "tmp"))
    write(os.path.join(template, "imports", "courses.csv"), COURSES)
    write(os.path.join(template, "imports", "tasks.csv"), TASKS)
    write(os.path.join(template, "fewer.csv"), TASKS.splitlines()[0] + "\n" + TASKS.splitlines()[1] + "\n")
    steps = [
        (["import", "imports"], {0}),
        (["reclassify", "t1", "--to", "today", "--reason", "fuzz template"], {0}),
        (["import", "--mode", "sync", "--max-delete", "0", "fewer.csv"], {65}),  # held: batch 2
    ]
    for args, expected in steps:
        result = subprocess.run(
            [binary, "--db", "db.sqlite", "--as-of", AS_OF] + args, cwd=template, env=environment(template, {}),
            capture_output=True, text=True, timeout=60)
        if result.returncode not in expected:
            raise SystemExit(f"cli_fuzz: template step {args} exited {result.returncode}: {result.stderr}")
    return template


# Hand edits of the kind a careless administrator or a damaged disk makes: numbers at the ends
# of the 64-bit range, texts that hold numbers out of every range. The program reads them
# back (batches, status, reports, approve) and must never trap on them.
HOSTILE_EDITS = [
    "UPDATE batch_counts SET read = 9223372036854775807, inserted = 9223372036854775807, deleted = -9223372036854775808",
    "UPDATE batch_counts SET read = -9223372036854775808 WHERE batch_id = 2",
    "UPDATE batch_files SET size = 9223372036854775807, rows = -1",
    "UPDATE batch_problems SET line = 9223372036854775807, row = -9223372036854775808",
    "UPDATE batches SET max_delete = '1e309%' WHERE status = 'held'",
    "UPDATE batches SET as_of = '99999-12-31T00:00:00Z', started_at = '-1', finished_at = '1e309' WHERE batch_id = 1",
    "UPDATE tasks SET due = '999999999999999999999999999999-01-01' WHERE task_id = 't4'",
    "UPDATE tasks SET due = '2026-11-30T99999999999999999999:00' WHERE task_id = 't5'",
]


def make_hostile_template(template, root):
    """A copy of the template whose database holds HOSTILE_EDITS."""
    import sqlite3

    hostile = os.path.join(root, "template-hostile")
    shutil.copytree(template, hostile, symlinks=True)
    connection = sqlite3.connect(os.path.join(hostile, "db.sqlite"))
    try:
        for statement in HOSTILE_EDITS:
            connection.execute(statement)
        connection.commit()
    finally:
        connection.close()
    return hostile


def write(path, text):
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def environment(work, extra):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "USER": "fuzz", "HOME": work,
        "TMPDIR": os.path.join(work, "tmp"), "DASHBOARD_DB": "db.sqlite", "DASHBOARD_AS_OF": AS_OF,
    }
    env.update(extra)
    return env


def value_for(rng, extra, work, hostility=0.5):
    """A plausible value of the option with probability 1 - hostility, else a hostile one."""
    roll = rng.random()
    if extra and roll >= hostility:
        return rng.choice(extra)
    if roll < 0.05:
        return os.path.join(work, rng.choice(["db.sqlite", "imports", "out", "imports/tasks.csv"]))
    return rng.choice(HOSTILE)


def build_argv(rng, commands, globals_, spec, work):
    argv = []
    if rng.random() < 0.03:
        return [rng.choice(HOSTILE + UNKNOWN_OPTIONS + ["help", "frobnicate"])]
    command = rng.choice(commands)
    # Most argvs are mostly plausible, so that runs get past parsing into the command.
    hostility = rng.choice([0.0, 0.1, 0.1, 0.3, 0.6, 1.0])
    options = dict(spec[command]["options"])
    parts = []
    words = spec[command]["words"]
    positionals = [rng.choice(words)] if words and rng.random() < 0.9 else []
    # Mostly the options of the chosen verb; sometimes those of the whole command (a sibling
    # verb's option is a usage error, 64).
    if positionals and positionals[0] in spec[command]["verb_options"] and rng.random() < 0.8:
        options = dict(spec[command]["verb_options"][positionals[0]])
    all_options = list(options.items()) + list(globals_.items())
    plausible = ["imports", "imports/tasks.csv", "imports/courses.csv", "t1", "t3", "1", "2", "3", "-"]
    count = rng.choice([0, 1, 1, 1, 2]) if spec[command]["positionals"] or rng.random() < hostility else 0
    for _ in range(count):
        positionals.append(value_for(rng, plausible, work, hostility))
    parts.append(positionals)
    for _ in range(rng.randint(0, 4)):
        name, (takes_value, extra) = rng.choice(all_options)
        if not takes_value:
            parts.append([f"--{name}"] if rng.random() >= 0.1 * hostility else [f"--{name}={rng.choice(HOSTILE)}"])
        elif rng.random() < 0.2:
            parts.append([f"--{name}={value_for(rng, extra, work, hostility)}"])
        elif rng.random() < 0.05:
            parts.append([f"--{name}"])  # the value is missing, or taken from the next word
        else:
            parts.append([f"--{name}", value_for(rng, extra, work, hostility)])
        if rng.random() < 0.1:
            parts.append(list(parts[-1]))  # repeated, same value
    if rng.random() < 0.1 * hostility:
        parts.append([rng.choice(UNKNOWN_OPTIONS)])
    rng.shuffle(parts)
    if rng.random() < 0.2:
        parts.insert(0, [command])
        argv = [word for part in parts for word in part]
    else:
        argv = [command] + [word for part in parts for word in part]
    if rng.random() < 0.05:
        argv += ["--", value_for(rng, [], work)]
    return argv


def hostile_environment(rng):
    extra = {}
    if rng.random() < 0.1:
        extra[rng.choice(["DASHBOARD_AS_OF", "DASHBOARD_TZ", "DASHBOARD_DB", "COLUMNS"])] = rng.choice(HOSTILE)
    if rng.random() < 0.1:
        extra["NO_COLOR"] = "1"
    return extra


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=".build/debug/dashboard")
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("FUZZ_SECONDS", "60")))
    parser.add_argument("--runs", type=int, default=0, help="stop after this many argvs (0: only the time limit)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--verbose", action="store_true", help="print every argv, its exit code and first error line")
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        raise SystemExit(f"cli_fuzz: no executable at {binary}; build it first")
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    rng = random.Random(seed)
    commands, globals_, spec = discover(binary)
    root = tempfile.mkdtemp(prefix="dashboard-cli-fuzz-")
    failures, outcomes, runs = [], {}, 0
    try:
        template = make_template(binary, root)
        hostile_template = make_hostile_template(template, root)
        deadline = time.monotonic() + args.seconds
        while time.monotonic() < deadline and (args.runs == 0 or runs < args.runs):
            work = os.path.join(root, "run")
            shutil.rmtree(work, ignore_errors=True)
            hostile_database = rng.random() < 0.25
            shutil.copytree(hostile_template if hostile_database else template, work, symlinks=True)
            argv = build_argv(rng, commands, globals_, spec, work)
            extra = hostile_environment(rng)
            # Standard input (read by `-`): nothing, a valid export, or bytes no CSV holds.
            stdin = rng.choice([b"", b"", TASKS.encode(), COURSES.encode(), b"\x00\xff\xfe" * 100, b"a,b\n" + b"x" * 70_000])
            runs += 1
            try:
                result = subprocess.run(
                    [binary] + argv, cwd=work, env=environment(work, extra), input=stdin, capture_output=True,
                    timeout=args.timeout)
                code = result.returncode
                stderr = result.stderr.decode("utf-8", "replace")
            except subprocess.TimeoutExpired:
                code, stderr = "timeout", ""
            outcomes[code] = outcomes.get(code, 0) + 1
            if args.verbose:
                first = next((line for line in stderr.splitlines() if "error:" in line), "")
                print(f"{code}\t{shlex.join(argv)[:160]}\t{first[:160]}")
            if code not in ALLOWED:
                what = f"signal {-code}" if isinstance(code, int) and code < 0 else f"exit {code}"
                env_text = " ".join(f"{k}={shlex.quote(v)}" for k, v in extra.items())
                failures.append(what)
                where = "the hostile-database template" if hostile_database else "the template"
                print(f"cli_fuzz: FAIL ({what}) run {runs}, seed {seed}, {len(stdin)} bytes on stdin, in a copy of {where}:",
                      file=sys.stderr)
                print(f"  {env_text + ' ' if env_text else ''}dashboard {shlex.join(argv)}", file=sys.stderr)
                print(f"  repeat: python3 Fuzz/cli_fuzz.py --bin {shlex.quote(args.bin)} --seed {seed} --runs {runs} --verbose",
                      file=sys.stderr)
                print("  " + "\n  ".join(stderr.strip().splitlines()[-6:]), file=sys.stderr)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items(), key=lambda kv: str(kv[0])))
    print(f"cli_fuzz: {runs} argvs over {len(commands)} commands, seed {seed}; exit codes {summary}; {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
