#!/usr/bin/env python3
"""Issue 29, item 1: the report pages' filters in a real browser (headless Chromium through
chromedriver, as Tests/Fixtures/Mail/digest_a11y.py drives it).

Makes its own data in a temporary folder from files of this repository only: the sample
`imports/` folder (it imports with exit 65 on purpose: a few bad rows), the OULAD fixture
(Tests/Fixtures/OULAD, 6,325 real tasks in two courses) and a small extra set with hostile
titles. Writes the pages with the built `dashboard`, then checks:

1. filters: for seeded random combinations of search words (accents and capitals included),
   bucket chips, due window, student and assignment, set through the page's own controls, the
   rows shown, the live region and every section's count equal what `report list --format
   json` gives for the same filters on the same data (the assignment filter, which has no
   option, from the CSV);
2. fragment: a filtered URL opened fresh shows the same view (one written by hand too); each
   change adds one history entry (typing one for the run of keys), Back and Forward step
   through the filter states; Escape clears them;
3. keyboard only: Tab to the controls, type, toggle chips with Space and Enter, choose a window
   and "needs attention only" with keys;
4. without script every row is there and shown (on a big course's page, one disclosure away) and
   no form; with script the form is there and nothing is hidden yet;
5. at 1280 and 390 px: a screenshot (into OUT_DIR) and axe-core (its default rules: WCAG 2
   A/AA and best practices) in each state: unfiltered, filtered, grid with "needs attention
   only", no script;
6. CSP: a hostile course or task title stays text; an injected inline handler and style
   attribute are refused (`securitypolicyviolation`, `window.pwned` undefined); no page load
   of the whole run reports a violation (listener and browser log);
7. speed: on a page of 6,325 task rows, the time from each of 20 keystrokes' `input` event to
   layout done, median and max; fails above 50 ms median (the same figures for a page of
   4,135 rows and one of 500, for information).

Prints one line per check (PASS or FAIL) and a summary; exits 1 on any failure.

Usage: pages_browser.py DASHBOARD_BINARY AXE_JS OUT_DIR
"""
import csv
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
import urllib.parse
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = 29
# In report order (the chips' order): SPEC §11's to_grade and excused where a page has them.
BUCKETS = ["overdue", "today", "to_grade", "upcoming", "undated", "completed", "excused"]

# The sample's as-of gives every open bucket in its five courses (a Friday in each zone).
SAMPLE_AS_OF = "2026-12-04T08:00:00Z"
# A Sunday in London, inside the 2013J presentations: EEE's TMA 30712 is due today, "this week"
# (3 to 9 March) and "next 7 days" (to 16 March: AAA's TMA 1755) differ, 365 tasks are undated.
OULAD_AS_OF = "2014-03-09T08:00:00Z"

# Hostile titles, and a grid where some cards need attention and some do not.
EXTRA_COURSES = """course_id,code,title,teacher,timezone
xss,XSS 1,<img src=x onerror=alert(1)>,Eve Example,Europe/Berlin
calm,CALM 2,Ruhiger Kurs,Eve Example,Europe/Berlin
empty,EMPTY 3,Kurs ohne Aufgaben,Eve Example,
busy,BUSY 4,"Busy ""quotes"" & <script>alert(2)</script>",Eve Example,UTC
"""
# SPEC §11's states (issue 31): work handed in (one late, one on time) waits in To grade, excused
# work in Excused; the list pages of this set get those chips.
EXTRA_TASKS = """task_id,course_id,title,student_id,due,completed,assignment_id,status,submitted_at
x1,xss,<img src=x onerror=alert(1)>,s1,2026-12-01,,A1,,
x2,xss,<svg onload=alert(3)>,s2,2026-12-04,,A1,,
x3,xss,Normal task,s1,2026-12-20,,A2,,
x4,xss,Lab write-up,s2,2026-12-01,,A2,submitted,2026-12-02T10:00:00Z
c1,calm,Reading,s1,2026-12-20,,R1,,
c2,calm,Done already,s2,2026-11-20,yes,R2,,
c3,calm,Field trip report,s3,2026-11-25,,R3,excused,
c4,calm,Essay draft,s1,2026-12-10,,R4,turned in,2026-12-03
b1,busy,<style>body{display:none}</style>,s3,2026-11-30,,B1,,
b2,busy,Essay <b>bold</b>,s4,,,B2,,
"""
HOSTILE_TEXTS = ["<img src=x onerror=alert(1)>", "<svg onload=alert(3)>", "<style>body{display:none}</style>"]

# Search words for the random combinations: titles, course codes and titles, with accents and
# capitals the fold must ignore (and accents the titles do not have).
SAMPLE_WORDS = ["lab", "REPORT", "Übungsblatt", "ÜBUNGSBLATT", "ubungsblatt", "naïve", "NAIVE", "Präsentation",
                "prasentation", "日本", "カタカナ", "bio", "Algebra", "FÜR", "quiz", "Reading quiz", "lab report",
                "HISTORY", "Vektorräume", "RÉSUMÉ", "essay", "Ｌａｂ", "chapter 4", "wolves", "zzz"]
OULAD_WORDS = ["TMA", "tma 30712", "EXAM", "Exam 30713", "ＴＭＡ", "ÉÉÉ", "Présentation", "30709", "2013J",
               "module", "MODULE eee", "aaa", "tma 3071", "307"]


# MARK: - Results

class Results:
    """Prints one line per check and counts the failures."""

    def __init__(self):
        self.passed = 0
        self.failed = []

    def check(self, name, ok, detail=""):
        print("%s  %s%s" % ("PASS" if ok else "FAIL", name, ": " + detail if detail else ""), flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed.append(name)
        return ok

    def info(self, text):
        print("      " + text, flush=True)


# MARK: - Data and the command line

def dashboard(binary, db, as_of, args, cwd, expect=(0,)):
    """Runs `dashboard --db DB --as-of AS_OF ARGS…`; stops the run on an unexpected exit code."""
    run = subprocess.run([binary, "--db", db, "--as-of", as_of] + args, cwd=cwd, capture_output=True, text=True)
    if run.returncode not in expect:
        sys.exit("dashboard %s exited %d:\n%s" % (" ".join(args), run.returncode, run.stderr))
    return run


class Page:
    """A page under test, and how to ask the command line for the same tasks.

    `base`: the `report list` options that made the page (the filters add to them); `paged`:
    a page of a bigger set (a course's page of the grid), whose rows are only a part of what the
    command line lists, so it is compared on the rows it holds; `assignments`: task id to
    assignment id, read from the CSV the data came from."""

    def __init__(self, name, path, db, as_of, base, folder, binary, paged=False, assignments=None):
        self.name, self.path, self.db, self.as_of, self.base = name, path, db, as_of, base
        self.folder, self.binary, self.paged = folder, binary, paged
        self.assignments = assignments or {}
        self.unfiltered = self.report([])

    @property
    def url(self):
        return "file://" + self.path

    def report(self, filters):
        """`report list` of the page's options and `filters` as JSON."""
        run = dashboard(self.binary, self.db, self.as_of, ["report", "list"] + self.base + filters + ["--format", "json"],
                        self.folder)
        return json.loads(run.stdout)


def read_assignments(path):
    """Task id → assignment id of a tasks CSV (ids trimmed, as the importer stores them)."""
    with open(path, newline="", encoding="utf-8") as f:
        return {row["task_id"].strip(): (row.get("assignment_id") or "").strip() for row in csv.DictReader(f)}


def make_data(binary, folder):
    """Imports the three data sets and writes the pages; returns the pages by name and the
    folders of the written sets."""
    sample_db, oulad_db, extra_db = (os.path.join(folder, n) for n in ("sample.sqlite", "oulad.sqlite", "extra.sqlite"))
    # The sample rejects a few rows on purpose (exit 65); the valid ones are imported.
    dashboard(binary, sample_db, SAMPLE_AS_OF, ["import", os.path.join(REPO, "imports")], folder, expect=(65,))
    oulad = os.path.join(REPO, "Tests", "Fixtures", "OULAD")
    dashboard(binary, oulad_db, OULAD_AS_OF,
              ["import", os.path.join(oulad, "courses.csv"), os.path.join(oulad, "tasks.csv")], folder)
    extra = os.path.join(folder, "extra")
    os.makedirs(extra)
    with open(os.path.join(extra, "courses.csv"), "w") as f:
        f.write(EXTRA_COURSES)
    with open(os.path.join(extra, "tasks.csv"), "w") as f:
        f.write(EXTRA_TASKS)
    dashboard(binary, extra_db, SAMPLE_AS_OF, ["import", extra], folder)

    def list_page(db, as_of, base, name):
        # `report list --format html` on stdout: one page of every course it lists.
        path = os.path.join(folder, name + ".html")
        with open(path, "w") as f:
            f.write(dashboard(binary, db, as_of, ["report", "list"] + base + ["--format", "html"], folder).stdout)
        return path

    sets = {}
    for name, db, as_of in (("sample", sample_db, SAMPLE_AS_OF), ("oulad", oulad_db, OULAD_AS_OF),
                            ("extra", extra_db, SAMPLE_AS_OF)):
        sets[name] = os.path.join(folder, name + "-grid")
        dashboard(binary, db, as_of, ["report", "grid", "--format", "html", "--out", sets[name], "--by-teacher"], folder)

    oulad_assignments = read_assignments(os.path.join(oulad, "tasks.csv"))
    extra_assignments = read_assignments(os.path.join(extra, "tasks.csv"))
    pages = {}

    def add(name, path, db, as_of, base, **kw):
        pages[name] = Page(name, path, db, as_of, base, folder, binary, **kw)

    add("sample-list", list_page(sample_db, SAMPLE_AS_OF, [], "sample-list"), sample_db, SAMPLE_AS_OF, [])
    add("sample-list-completed", list_page(sample_db, SAMPLE_AS_OF, ["--include-completed"], "sample-list-completed"),
        sample_db, SAMPLE_AS_OF, ["--include-completed"])
    add("oulad-eee", list_page(oulad_db, OULAD_AS_OF, ["--course", "EEE-2013J"], "oulad-eee"), oulad_db, OULAD_AS_OF,
        ["--course", "EEE-2013J"], assignments=oulad_assignments)
    # Both OULAD courses with their completed work: the 6,325 rows of the speed check (since SPEC
    # §11 the fixture's completed states are read, and a default list leaves them out).
    add("oulad-both", list_page(oulad_db, OULAD_AS_OF, ["--include-completed"], "oulad-both"), oulad_db, OULAD_AS_OF,
        ["--include-completed"],
        assignments=oulad_assignments)
    # A teacher's page of the sample (bucket sections) and the OULAD course's first page of the
    # grid's set (assignment roll-up, rows of a part of the course behind disclosures).
    teacher = sorted(d for d in os.listdir(os.path.join(sets["sample"], "teachers")) if d.startswith("dr-maria"))[0]
    teacher_dir = os.path.join(sets["sample"], "teachers", teacher)
    course = sorted(f for f in os.listdir(teacher_dir) if f.startswith("course-") and f.endswith(".html"))[0]
    add("sample-teacher-course", os.path.join(teacher_dir, course), sample_db, SAMPLE_AS_OF, ["--course", "bio-101-nyc"])
    eee = [f for f in os.listdir(sets["oulad"]) if f.startswith("course-eee") and f.endswith(".html")]
    first = [f for f in eee if not re.search(r"-p[0-9]+\.html$", f)][0]
    add("oulad-eee-grid-p1", os.path.join(sets["oulad"], first), oulad_db, OULAD_AS_OF, ["--course", "EEE-2013J"],
        paged=True, assignments=oulad_assignments)
    add("oulad-eee-grid-p2", os.path.join(sets["oulad"], first[:-5] + "-p2.html"), oulad_db, OULAD_AS_OF,
        ["--course", "EEE-2013J"], paged=True, assignments=oulad_assignments)
    add("extra-list", list_page(extra_db, SAMPLE_AS_OF, [], "extra-list"), extra_db, SAMPLE_AS_OF, [],
        assignments=extra_assignments)
    xss = sorted(f for f in os.listdir(sets["extra"]) if f.startswith("course-xss") and f.endswith(".html"))[0]
    add("extra-xss-course", os.path.join(sets["extra"], xss), extra_db, SAMPLE_AS_OF, ["--course", "xss"],
        assignments=extra_assignments)
    return pages, sets


# MARK: - What the command line expects

class State:
    """A filter state of a list page: search text, pressed chips, window, student, assignment."""

    def __init__(self, q="", b=(), w="", st="", a=""):
        self.q, self.b, self.w, self.st, self.a = q, list(b), w, st, a

    @property
    def active(self):
        return bool(self.q.split() or self.b or self.w or self.st or self.a)

    def fragment(self):
        """The fragment the page should write (URLSearchParams' encoding: spaces as +)."""
        pairs = []
        if self.q.strip():
            pairs.append(("q", self.q.strip()))
        if self.b:
            pairs.append(("b", ".".join(self.b)))
        for key in ("w", "st", "a"):
            if getattr(self, key):
                pairs.append((key, getattr(self, key)))
        return "#" + urllib.parse.urlencode(pairs, quote_via=urllib.parse.quote_plus) if pairs else ""

    def __str__(self):
        return self.fragment() or "(no filter)"


def iso_week_bounds(as_of, zone):
    """`--due-after` and `--due-before` of the as-of's ISO week in `zone`: the day before its
    Monday and the day after its Sunday."""
    local = datetime.fromisoformat(as_of.replace("Z", "+00:00")).astimezone(ZoneInfo(zone)).date()
    monday = local - timedelta(days=local.weekday())
    return (monday - timedelta(days=1)).isoformat(), (monday + timedelta(days=7)).isoformat()


def course_label(course):
    """How a page's course section names the course (`aria-label`): code and title."""
    return "%s %s" % (course["code"], course["title"])


class Expected:
    """The tasks the command line lists for a state: ids, and counts per (course, bucket)."""

    def __init__(self, assignments):
        self.assignments = assignments
        self.ids = set()
        self.sections = {}

    def add(self, report, assignment=""):
        """Adds a `report list` JSON's tasks, only those of `assignment` when given."""
        for course in report["courses"]:
            for section in course["sections"]:
                # No --limit is given: a section lists all of its count.
                if section["count"] != len(section["tasks"]):
                    raise RuntimeError("section %s of %s lists %d of %d" % (
                        section["bucket"], course["code"], len(section["tasks"]), section["count"]))
                kept = [t["task_id"] for t in section["tasks"]]
                if assignment:
                    kept = [i for i in kept if self.assignments.get(i) == assignment]
                self.ids.update(kept)
                if kept:
                    key = (course_label(course), section["bucket"])
                    self.sections[key] = self.sections.get(key, 0) + len(kept)


def expected(page, state):
    """What `report list` gives for `state` on `page`'s data (the CLI equivalents of the brief:
    search → --search, chips → --bucket, "7" → --due-within 7d, "week" → the as-of's ISO week in
    each course's zone, "overdue" → --bucket overdue intersected with the chips, student →
    --student; the assignment from the CSV)."""
    result = Expected(page.assignments)
    filters = []
    if state.q.strip():
        filters += ["--search", state.q]
    buckets = state.b
    if state.w == "overdue":
        if buckets and "overdue" not in buckets:
            return result  # chips without overdue and "overdue only": nothing can pass
        buckets = ["overdue"]
    for bucket in buckets:
        filters += ["--bucket", bucket]
    if state.st:
        filters += ["--student", state.st]
    if state.w == "7":
        filters += ["--due-within", "7d"]
    if state.w != "week":
        result.add(page.report(filters), state.a)
        return result
    # "This week" is each course's own week: one run per distinct week, for its courses.
    weeks = {}
    for course in page.unfiltered["courses"]:
        weeks.setdefault(iso_week_bounds(page.as_of, course["times_in"]), []).append(course["course_id"])
    for (after, before), ids in weeks.items():
        only = [] if len(weeks) == 1 else sum((["--course", i] for i in ids), [])
        result.add(page.report(filters + only + ["--due-after", after, "--due-before", before]), state.a)
    return result


# MARK: - The browser

def new_driver(script=True):
    """Headless Chromium; without script when `script` is False (the managed content setting
    that blocks JavaScript). Every new document first gets a listener that records CSP
    violations (DevTools' script, which the page's policy does not govern)."""
    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(argument)
    if not script:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(120)  # axe on a page of 500 rows takes a few seconds
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        window.__csp = [];
        document.addEventListener("securitypolicyviolation", (e) => {
          window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "") + " " + (e.sample || ""));
        });"""})
    return driver


# Every page load of the run, with what it reported about CSP (checked at the end).
LOADS = []


def load(driver, url, width=1280):
    """Opens `url` as a fresh document (about:blank first, so a new fragment is not a
    same-document navigation) and records any CSP violation of the load."""
    driver.set_window_size(width, 1000)
    driver.get_log("browser")  # what earlier steps logged (an injection test) is theirs
    driver.get("about:blank")
    driver.get(url)
    violations = driver.execute_script("return window.__csp || []")
    log = [e["message"] for e in driver.get_log("browser")
           if "Content Security Policy" in e["message"] or "Refused to" in e["message"]]
    LOADS.append((url, violations + log))


# What a list page shows: rows, their tables and sections, the live region and the controls.
STATE_JS = """
const rows = [...document.querySelectorAll("tr[data-b]")];
const id = (row) => row.querySelector("td code").textContent;
const hidden = (node) => node ? node.closest("[hidden]") !== null : null;
const tables = [...new Set(rows.map((row) => row.closest("table")))].map((table) => {
  const heading = table.parentElement.previousElementSibling;
  const count = heading ? heading.querySelector(".count") : null;
  const course = table.closest("section[data-c]");
  const details = table.closest("details");
  return { ids: [...table.querySelectorAll("tr[data-b]")].map(id), hidden: hidden(table), heading: heading ? heading.id : "",
           headingHidden: hidden(heading), count: count ? count.textContent : null,
           course: course ? course.getAttribute("aria-label") : "", open: details ? details.open : null };
});
const sections = [...new Set(rows.map((row) => row.closest("section")))].map((section) => (
  { ids: [...section.querySelectorAll("tr[data-b]")].map(id), hidden: hidden(section) }));
const live = document.querySelector("p.shown[role=status][aria-live=polite]");
const value = (selector) => { const node = document.querySelector(selector); return node ? node.value : null; };
return { shown: rows.filter((row) => !hidden(row)).map(id), total: rows.length, live: live ? live.textContent : null,
         tables, sections, hash: location.hash, q: value("#f-q"), w: value("#f-w"), st: value("#f-st"), a: value("#f-a"),
         pressed: [...document.querySelectorAll("button.chip[data-bucket]")].filter((c) => c.getAttribute("aria-pressed") === "true")
           .map((c) => c.dataset.bucket) };
"""


def settled(driver, seconds=5):
    """Waits until the page has shown or hidden every row of its last filter: the counts are
    right at once, the rows follow a slice a frame (`aria-busy` on <main> until the last)."""
    deadline = time.time() + seconds
    while time.time() < deadline and driver.execute_script("return document.querySelector('main[aria-busy]') !== null"):
        time.sleep(0.02)


def page_state(driver):
    settled(driver)
    return driver.execute_script(STATE_JS)


def options_of(driver, select_id):
    """The non-empty option values of a select, or [] when the page has none."""
    return driver.execute_script(
        "const s = document.getElementById(arguments[0]); return s ? [...s.options].map((o) => o.value).filter(Boolean) : [];",
        select_id)


def set_filters(driver, state):
    """Sets `state` through the page's own controls: Clear, then typing, chip clicks and the
    selects (each as a user would: one input event a key, one click or change each)."""
    clear = driver.find_element("id", "f-clear")
    if clear.is_enabled():
        clear.click()
    if state.q:
        driver.find_element("id", "f-q").send_keys(state.q)
    for bucket in state.b:
        driver.find_element("css selector", "button.chip[data-bucket=%s]" % bucket).click()
    for key, select_id in (("w", "f-w"), ("st", "f-st"), ("a", "f-a")):
        if getattr(state, key):
            Select(driver.find_element("id", select_id)).select_by_value(getattr(state, key))


def live_words(page, state, shown, total):
    """The live region's words for `shown` of `total` rows (English, as PageScript says)."""
    if page.paged:
        return ("Showing %d of the %d tasks on this page" % (shown, total) if state.active
                else "Showing the 1 task on this page" if total == 1 else "Showing all %d tasks on this page" % total)
    return ("Showing %d of %d tasks" % (shown, total) if state.active
            else "Showing the 1 task" if total == 1 else "Showing all %d tasks" % total)


def compare(page, state, seen, want):
    """Problems between what the page shows (`seen`, STATE_JS) and what the command line
    lists (`want`, Expected) for `state`; [] when they agree."""
    problems = []
    on_page = set(r for t in seen["tables"] for r in t["ids"])
    # A paged page holds a part of the course: it should show the listed tasks it holds.
    want_ids = want.ids & on_page if page.paged else want.ids
    shown = set(seen["shown"])
    if shown != want_ids:
        extra, missing = sorted(shown - want_ids), sorted(want_ids - shown)
        problems.append("rows shown %d, CLI %d (shown but not listed: %s; listed but hidden: %s)" % (
            len(shown), len(want_ids), extra[:5], missing[:5]))
    total = seen["total"] if page.paged else page.unfiltered["matching_tasks"]
    if not page.paged and seen["total"] != total:
        problems.append("page has %d rows, CLI lists %d unfiltered" % (seen["total"], total))
    words = live_words(page, state, len(want_ids), total)
    if seen["live"] != words:
        problems.append("live region %r, expected %r" % (seen["live"], words))
    for table in seen["tables"]:
        n, t = len(want_ids & set(table["ids"])), len(table["ids"])
        count = "(%d of %d)" % (n, t) if state.active else "(%d)" % t
        where = table["heading"] or table["course"]
        if table["count"] != count:
            problems.append("count of %s is %r, expected %r" % (where, table["count"], count))
        hide = state.active and n == 0
        if table["hidden"] != hide or table["headingHidden"] != hide:
            problems.append("%s: table hidden %s, heading hidden %s, expected %s" % (
                where, table["hidden"], table["headingHidden"], hide))
        if table["open"] is not None and state.active and n > 0 and not table["open"]:
            problems.append("%s: rows shown inside a closed disclosure" % where)
        # Bucket sections: the heading's count is the CLI's section count for that course.
        bucket = table["heading"].rsplit("-", 1)[-1]
        if bucket in BUCKETS and not page.paged:
            cli = want.sections.get((table["course"], bucket), 0)
            if cli != n:
                problems.append("%s of %s: CLI section count %d, page %d" % (bucket, table["course"], cli, n))
    listed_sections = set(want.sections)
    page_sections = set((t["course"], t["heading"].rsplit("-", 1)[-1]) for t in seen["tables"])
    if not page.paged and not listed_sections <= page_sections:
        problems.append("CLI sections missing from the page: %s" % sorted(listed_sections - page_sections))
    for section in seen["sections"]:
        hide = state.active and not (want_ids & set(section["ids"]))
        if section["hidden"] != hide:
            problems.append("a section of %d rows: hidden %s, expected %s" % (len(section["ids"]), section["hidden"], hide))
    if seen["hash"] != state.fragment():
        problems.append("fragment %r, expected %r" % (seen["hash"], state.fragment()))
    return problems


def random_state(rng, driver, words):
    """A random filter state among the controls the page has."""
    chips = driver.execute_script(
        "return [...document.querySelectorAll('button.chip[data-bucket]')].map((c) => c.dataset.bucket)")
    students, assignments = options_of(driver, "f-st"), options_of(driver, "f-a")
    return State(
        q=rng.choice(words) if rng.random() < 0.7 else "",
        b=[b for b in chips if rng.random() < 0.3],
        w=rng.choice(["", "", "week", "7", "overdue"]),
        st=rng.choice(students) if students and rng.random() < 0.3 else "",
        a=rng.choice(assignments) if assignments and rng.random() < 0.35 else "")


# MARK: - Checks

def check_filters(results, driver, page, words, combos, rng):
    """Check 1 on one page: `combos` random states set through the controls, each compared with
    the command line. Returns the states and what the page showed, for the fragment check."""
    load(driver, page.url)
    seen = page_state(driver)
    problems = compare(page, State(), seen, expected(page, State()))
    results.check("filters %s: unfiltered, %d rows, %r" % (page.name, seen["total"], seen["live"]), not problems,
                  "; ".join(problems))
    done = []
    for number in range(1, combos + 1):
        state = random_state(rng, driver, words)
        started = time.time()
        set_filters(driver, state)
        seen = page_state(driver)
        want = expected(page, state)
        problems = compare(page, state, seen, want)
        on_page = set(r for t in seen["tables"] for r in t["ids"])
        results.check("filters %s #%d %s: %r, CLI %d (%.1f s)" % (
            page.name, number, state, seen["live"], len(want.ids & on_page if page.paged else want.ids),
            time.time() - started), not problems, "; ".join(problems))
        done.append((state, seen))
    return done


def check_fold_edges(results, driver, page):
    """Check 1, the fold: words whose fold is more than NFKD and lower case (ß, ẞ) against
    `--search`, one by one."""
    load(driver, page.url)
    for word in ("größen", "GRÖSSEN", "grossen", "GRÖẞEN"):
        state = State(q=word)
        set_filters(driver, state)
        seen = page_state(driver)
        want = expected(page, state)
        problems = compare(page, state, seen, want)
        results.check("fold %s: search %r shows %d, CLI %d" % (page.name, word, len(seen["shown"]), len(want.ids)),
                      not problems, "; ".join(problems))


def settle(driver, fragment, seconds=2):
    """Waits (a while at most) for Back or Forward to reach `fragment`; the page restores its
    state in the same task as the `popstate` event."""
    deadline = time.time() + seconds
    while time.time() < deadline and driver.execute_script("return location.hash") != fragment:
        time.sleep(0.05)
    time.sleep(0.05)


def history_walk(results, driver, page, actions):
    """Does `actions` (words, action) one by one on a fresh page, each expected to add one
    history entry; then Back through every state, then Forward once. In a new tab, whose
    history is short (Chromium keeps 50 entries a tab: `history.length` stops there)."""
    home = driver.current_window_handle
    driver.switch_to.new_window("tab")
    load(driver, page.url)
    steps = [page_state(driver)]
    names = " → ".join(words for words, _ in actions)
    for words, action in actions:
        before = driver.execute_script("return history.length")
        action()
        steps.append(page_state(driver))
        added = driver.execute_script("return history.length") - before
        results.check("history %s [%s]: %s adds %d entry, now %r" % (page.name, names, words, added, steps[-1]["hash"]),
                      added == 1)
    keys = ("hash", "shown", "live", "q", "w", "pressed")
    for back in range(len(steps) - 2, -1, -1):
        driver.back()
        settle(driver, steps[back]["hash"])
        now = page_state(driver)
        same = all(now[k] == steps[back][k] for k in keys)
        results.check("history %s [%s]: Back to %r shows %r" % (
            page.name, names, steps[back]["hash"] or "(no fragment)", now["live"]), same,
            "" if same else "now %r" % {k: now[k] for k in keys if k != "shown"})
    driver.forward()
    settle(driver, steps[1]["hash"])
    now = page_state(driver)
    same = all(now[k] == steps[1][k] for k in keys)
    results.check("history %s [%s]: Forward to %r shows %r" % (page.name, names, steps[1]["hash"], now["live"]), same,
                  "" if same else "now %r" % {k: now[k] for k in keys if k != "shown"})
    driver.close()
    driver.switch_to.window(home)


def check_fragment(results, driver, page, done):
    """Check 2: filtered URLs opened fresh; Back and Forward; Escape."""
    # The states of check 1 that show something, each opened fresh from its fragment.
    tried = 0
    for state, seen in done:
        if not seen["shown"] or not state.active or tried >= 6:
            continue
        tried += 1
        load(driver, page.url + state.fragment())
        fresh = page_state(driver)
        same = (fresh["shown"] == seen["shown"] and fresh["live"] == seen["live"] and fresh["q"] == state.q.strip()
                and fresh["pressed"] == [b for b in BUCKETS if b in state.b] and (fresh["w"] or "") == state.w
                and (fresh["st"] or "") == state.st and (fresh["a"] or "") == state.a)
        results.check("fragment %s: %s opened fresh shows %r" % (page.name, state.fragment(), fresh["live"]), same,
                      "" if same else "fresh %r vs typed %r" % (fresh, seen["live"]))

    # A fragment written by hand with every key (the student and assignment of a task due
    # today), against the command line.
    today = [t for c in page.unfiltered["courses"] for s in c["sections"] if s["bucket"] == "today" for t in s["tasks"]]
    if page.assignments and today:
        task = today[-1]
        state = State(q="Tma", b=["overdue", "today"], w="7", st=task["student_id"], a=page.assignments[task["task_id"]])
        load(driver, page.url + "#q=Tma&b=overdue.today&w=7&st=%s&a=%s" % (state.st, state.a))
        seen = page_state(driver)
        want = expected(page, state)
        problems = compare(page, state, seen, want)
        results.check("fragment %s: hand-written #q=Tma&b=overdue.today&w=7&st=%s&a=%s shows %r, CLI %d" % (
            page.name, state.st, state.a, seen["live"], len(want.ids)), not problems and want.ids, "; ".join(problems))
    # Words with accents and a space, percent-encoded as a colleague's browser would send them.
    if not page.assignments:
        state = State(q="Übungsblatt 1")
        load(driver, page.url + "#q=%C3%9Cbungsblatt%201")
        seen = page_state(driver)
        want = expected(page, state)
        problems = [p for p in compare(page, state, seen, want) if not p.startswith("fragment")]
        results.check("fragment %s: #q=%%C3%%9Cbungsblatt%%201 shows %r, CLI %d, search box %r" % (
            page.name, seen["live"], len(want.ids), seen["q"]), not problems and seen["q"] == state.q, "; ".join(problems))

    # Back and Forward: typing is one entry, every other change one more. Once with typing
    # first, once with a second word typed after other changes (it starts with a space).
    def type_lab():
        driver.find_element("id", "f-q").send_keys("lab")

    def type_second_word():
        driver.find_element("id", "f-q").send_keys(" re")

    def chip():
        driver.find_element("css selector", "button.chip[data-bucket=overdue]").click()

    def window():
        Select(driver.find_element("id", "f-w")).select_by_value("7")

    history_walk(results, driver, page, [("typing \"lab\"", type_lab), ("the overdue chip", chip), ("the window \"7\"", window)])
    history_walk(results, driver, page, [("the overdue chip", chip), ("typing \"lab\"", type_lab), ("the window \"7\"", window),
                                         ("typing \" re\" after it", type_second_word)])

    # Escape anywhere in the form clears every filter (and the fragment).
    load(driver, page.url + "#q=lab&b=overdue&w=7")
    driver.find_element("css selector", "button.chip[data-bucket=overdue]").send_keys(Keys.ESCAPE)
    now = page_state(driver)
    cleared = (now["hash"] == "" and now["q"] == "" and now["w"] == "" and now["pressed"] == []
               and len(now["shown"]) == now["total"])
    results.check("fragment %s: Escape on a chip clears everything: %r" % (page.name, now["live"]), cleared,
                  "" if cleared else repr({k: now[k] for k in ("hash", "q", "w", "pressed", "live")}))


def focused(driver):
    """The focused element's id, or its chip's bucket, or its tag."""
    return driver.execute_script(
        "const e = document.activeElement; return e.id || (e.dataset && e.dataset.bucket ? 'chip:' + e.dataset.bucket : e.tagName)")


def press(driver, *keys):
    ActionChains(driver).send_keys(*keys).perform()


def tab_to(driver, target, limit=40):
    """Presses Tab until `target` (as `focused` names it) has focus; returns what was passed."""
    passed = []
    for _ in range(limit):
        press(driver, Keys.TAB)
        now = focused(driver)
        if now == target:
            return passed
        passed.append(now)
    return None


def check_keyboard(results, driver, page, grid_url):
    """Check 3: keys only. Tab to the search, type, toggle chips with Space and Enter, choose a
    window with the arrow keys, then Escape; on the grid, "needs attention only" with Space."""
    load(driver, page.url)
    passed = tab_to(driver, "f-q")
    results.check("keyboard %s: Tab reaches the search (after %s)" % (page.name, passed), passed is not None)
    press(driver, "Report")
    outline = driver.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
    results.check("keyboard %s: the focused search shows a focus outline (%s)" % (page.name, outline), outline == "solid")
    press(driver, Keys.TAB)
    first = focused(driver)
    press(driver, Keys.SPACE)
    press(driver, Keys.TAB)
    second = focused(driver)
    press(driver, Keys.ENTER)
    seen = page_state(driver)
    results.check("keyboard %s: Tab to %s, Space; Tab to %s, Enter: pressed %s" % (page.name, first, second, seen["pressed"]),
                  first.startswith("chip:") and second.startswith("chip:")
                  and seen["pressed"] == [first[5:], second[5:]])
    passed = tab_to(driver, "f-w")
    press(driver, Keys.ARROW_DOWN)
    seen = page_state(driver)
    state = State(q="Report", b=seen["pressed"], w="week")
    problems = compare(page, state, seen, expected(page, state)) if passed is not None else ["Tab never reached the window"]
    results.check("keyboard %s: Tab to the window, ArrowDown chooses %r: %r" % (page.name, seen["w"], seen["live"]),
                  not problems, "; ".join(problems))
    press(driver, Keys.ESCAPE)
    seen = page_state(driver)
    results.check("keyboard %s: Escape clears: %r, focus on %s" % (page.name, seen["live"], focused(driver)),
                  seen["hash"] == "" and len(seen["shown"]) == seen["total"] and not seen["pressed"] and seen["q"] == "")
    # The grid: the box of "needs attention only" takes Space.
    load(driver, grid_url)
    passed = tab_to(driver, "f-need")
    press(driver, Keys.SPACE)
    cards = driver.execute_script("return [...document.querySelectorAll('li.card')].filter((c) => !c.hidden).length")
    want = driver.execute_script("return document.querySelectorAll('li.card.attention').length")
    results.check("keyboard grid: Tab to \"needs attention only\", Space: %d cards shown, %d need attention" % (cards, want),
                  passed is not None and cards == want and driver.execute_script("return location.hash") == "#need=1")


def python_fold(text):
    """The command line's fold for the plain words the grid check types: compatibility
    decomposition, marks removed, full case folding."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def check_grid(results, driver, binary, folder, sets, db_of):
    """Check 1, the grid: the search by code or title and "needs attention only" against the
    command line's cards."""
    for name, words in (("sample", ["bio", "ALGEBRA", "für", "日本語", "history", "zzz"]),
                        ("extra", ["<img", "kurs", "\"quotes\" &", "EMPTY"])):
        db, as_of = db_of[name]
        cards = json.loads(dashboard(binary, db, as_of, ["report", "grid", "--format", "json"], folder).stdout)["courses"]
        load(driver, "file://" + os.path.join(sets[name], "index.html"))
        for word in words:
            driver.find_element("id", "f-q").send_keys(Keys.ESCAPE)
            driver.find_element("id", "f-q").send_keys(word)
            shown = driver.execute_script(
                "return [...document.querySelectorAll('li.card')].filter((c) => !c.hidden).map((c) => c.querySelector('h2').textContent)")
            want = [c for c in cards if all(w in python_fold(c["code"] + " " + c["title"]) for w in python_fold(word).split())]
            live = driver.execute_script("return document.querySelector('p.shown').textContent")
            words_ok = live == "Showing %d of %d courses" % (len(want), len(cards))
            results.check("grid %s: search %r shows %d cards, CLI courses %d, %r" % (name, word, len(shown), len(want), live),
                          len(shown) == len(want) and words_ok
                          and all(any(s.startswith(c["code"]) for s in shown) for c in want))
        driver.find_element("id", "f-q").send_keys(Keys.ESCAPE)
        driver.find_element("id", "f-need").click()
        shown = driver.execute_script("return [...document.querySelectorAll('li.card')].filter((c) => !c.hidden).length")
        want = sum(1 for c in cards if c["needs_attention"])
        live = driver.execute_script("return document.querySelector('p.shown').textContent")
        results.check("grid %s: needs attention only shows %d cards, CLI %d need attention, %r" % (name, shown, want, live),
                      shown == want and driver.execute_script("return location.hash") == "#need=1")


def check_no_script(results, pages, sets):
    """Check 4: without script every row is there and shown, and no form; the grid's cards too."""
    driver = new_driver(script=False)
    try:
        for page in pages:
            load(driver, page.url)
            # A row is shown when it has a box and no closed disclosure holds it; on a page of the
            # grid's set (a big course), rows are one disclosure away by design.
            seen = driver.execute_script("""
                const rows = [...document.querySelectorAll("tr[data-b]")];
                const closed = (r) => r.closest("details:not([open])") !== null;
                return { total: rows.length, form: document.querySelector("form.filters") !== null,
                         hidden: rows.filter((r) => r.closest("[hidden]")).length,
                         shown: rows.filter((r) => !closed(r) && r.getClientRects().length > 0).length,
                         closed: rows.filter(closed).length };""")
            want = seen["total"] if page.paged else page.unfiltered["matching_tasks"]
            results.check("no script %s: %d rows (CLI %d), %d shown, %d one disclosure away, none hidden, no form" % (
                page.name, seen["total"], want, seen["shown"], seen["closed"]),
                seen["total"] == want and seen["hidden"] == 0 and seen["shown"] + seen["closed"] == want
                and (page.paged or seen["closed"] == 0) and not seen["form"])
        for name in sorted(sets):
            load(driver, "file://" + os.path.join(sets[name], "index.html"))
            seen = driver.execute_script("""
                const cards = [...document.querySelectorAll("li.card")];
                return { total: cards.length, drawn: cards.filter((c) => c.getClientRects().length > 0).length,
                         form: document.querySelector("form.filters") !== null };""")
            results.check("no script grid %s: %d cards, %d drawn, no form" % (name, seen["total"], seen["drawn"]),
                          seen["total"] == seen["drawn"] > 0 and not seen["form"])
    finally:
        driver.quit()


def check_with_script(results, driver, pages, sets):
    """Check 4, the other half: with script the form is there, and nothing is hidden yet."""
    for page in pages:
        load(driver, page.url)
        seen = driver.execute_script("""
            const rows = [...document.querySelectorAll("tr[data-b]")];
            return { form: document.querySelector("form.filters[role=search]") !== null,
                     hidden: rows.filter((r) => r.closest("[hidden]")).length,
                     display: getComputedStyle(document.querySelector("form.filters") || document.body).display };""")
        results.check("script %s: the form is there (display %s, so the style ran too), no row hidden" % (
            page.name, seen["display"]), seen["form"] and seen["hidden"] == 0 and seen["display"] == "flex")
    for name in sorted(sets):
        load(driver, "file://" + os.path.join(sets[name], "index.html"))
        cards = driver.execute_script("return document.querySelectorAll('li.card').length")
        form = driver.execute_script("return document.querySelector('form.filters #f-need') !== null")
        # A grid of fewer than 2 cards has nothing to filter.
        results.check("script grid %s: %d cards, form %s" % (name, cards, form), form == (cards >= 2))


def run_axe(driver, axe, script=True):
    """axe-core's violations on the loaded page. Without script Chromium runs no timer of the
    page's world (DevTools' scripts run, promises settle), so axe's timers become microtasks."""
    if not script:
        driver.execute_script("window.setTimeout = (fn, ms, ...args) => { Promise.resolve().then(() => fn(...args)); return 0; };"
                              "window.clearTimeout = () => {};")
    driver.execute_script(axe)
    return driver.execute_async_script(
        "const done = arguments[0]; axe.run(document, {resultTypes: ['violations']}).then(done);")


def check_axe(results, axe, out, pages, sets):
    """Check 5: at 1280 and 390 px, a screenshot and axe-core in each state."""
    list_filter = State(q="lab", b=["overdue"])
    states = [
        ("sample-list", pages["sample-list"].url, None),
        ("sample-list-filtered", pages["sample-list"].url + list_filter.fragment(), None),
        ("sample-list-week", pages["sample-list"].url + "#w=week", None),
        ("sample-list-nothing", pages["sample-list"].url + "#q=zzz", None),
        ("sample-list-completed-filtered", pages["sample-list-completed"].url + "#b=completed.today", None),
        ("sample-teacher-course", pages["sample-teacher-course"].url, None),
        ("sample-teacher-course-filtered", pages["sample-teacher-course"].url + "#q=Lab&w=overdue", None),
        ("sample-teacher-grid", "file://" + os.path.join(os.path.dirname(pages["sample-teacher-course"].path), "index.html"),
         None),
        ("sample-grid", "file://" + os.path.join(sets["sample"], "index.html"), None),
        ("sample-grid-search", "file://" + os.path.join(sets["sample"], "index.html") + "#q=bio", None),
        ("extra-grid", "file://" + os.path.join(sets["extra"], "index.html"), None),
        ("extra-grid-need", "file://" + os.path.join(sets["extra"], "index.html") + "#need=1", None),
        ("extra-list", pages["extra-list"].url, None),
        ("oulad-eee-grid-p1", pages["oulad-eee-grid-p1"].url, None),
        ("oulad-eee-grid-p1-filtered", pages["oulad-eee-grid-p1"].url + "#st=%s" % first_student(pages["oulad-eee-grid-p1"]),
         None),
        ("sample-list-noscript", pages["sample-list"].url, "noscript"),
        ("sample-grid-noscript", "file://" + os.path.join(sets["sample"], "index.html"), "noscript"),
        ("oulad-eee-grid-p2", pages["oulad-eee-grid-p2"].url, None),
        ("oulad-eee-grid-p1-noscript", pages["oulad-eee-grid-p1"].url, "noscript"),
        ("oulad-eee-grid-p2-noscript", pages["oulad-eee-grid-p2"].url, "noscript"),
    ]
    drivers = {None: new_driver(), "noscript": new_driver(script=False)}
    try:
        for name, url, kind in states:
            driver = drivers[kind]
            for width in (1280, 390):
                load(driver, url, width)
                shot = os.path.join(out, "%s-%d.png" % (name, width))
                driver.save_screenshot(shot)
                result = run_axe(driver, axe, kind != "noscript")
                found = result["violations"]
                live = driver.execute_script("const p = document.querySelector('p.shown'); return p ? p.textContent : ''")
                results.check("axe %s at %d px (%s): axe %s, %d violations%s" % (
                    name, width, live or "no live region", result["testEngine"]["version"], len(found),
                    "".join("\n        %s: %s (%d nodes: %s)" % (v["id"], v["help"], len(v["nodes"]),
                                                             ", ".join(n["target"][0] for n in v["nodes"][:3]))
                            for v in found)), not found)
    finally:
        for driver in drivers.values():
            driver.quit()


def first_student(page):
    """The student of the page's first row."""
    with open(page.path, encoding="utf-8") as f:
        return re.search(r'data-st="([^"]+)"', f.read()).group(1)


def check_csp(results, driver, pages, sets):
    """Check 6: hostile titles stay text; injected markup's handler and style attribute are
    refused; the page's own script and style run."""
    grid = "file://" + os.path.join(sets["extra"], "index.html")
    for name, url in (("extra-list", pages["extra-list"].url), ("extra-grid", grid),
                      ("extra-xss-course", pages["extra-xss-course"].url)):
        load(driver, url)
        try:
            alert = driver.switch_to.alert.text
        except NoAlertPresentException:
            alert = None
        seen = driver.execute_script("""
            const texts = arguments[0];
            return { img: document.querySelectorAll("img, svg").length, scripts: document.scripts.length,
                     styles: document.querySelectorAll("style").length,
                     found: texts.filter((t) => document.body.textContent.includes(t)),
                     shown: document.body.offsetHeight > 0, form: document.querySelector("form.filters") !== null };""",
            HOSTILE_TEXTS)
        results.check("csp %s: hostile titles stay text (%d of them on the page), no img/svg, one script, one style, no alert" % (
            name, len(seen["found"])),
            seen["img"] == 0 and seen["scripts"] == 1 and seen["styles"] == 1 and seen["found"] and seen["shown"]
            and seen["form"] and alert is None, repr(seen))
        # Typing the hostile text into the search finds it as text.
        driver.find_element("id", "f-q").send_keys("<img src=x")
        live = driver.execute_script("return document.querySelector('p.shown').textContent")
        if name in pages:
            want = expected(pages[name], State(q="<img src=x"))
            ok = live == "Showing %d of %d tasks" % (len(want.ids), pages[name].unfiltered["matching_tasks"])
        else:
            ok = live == "Showing 1 of 4 courses"  # only the card of course "<img src=x onerror=alert(1)>"
        results.check("csp %s: searching \"<img src=x\" finds it as text: %r" % (name, live), ok)

    for page in (pages["sample-list"], pages["oulad-eee-grid-p1"]):
        load(driver, page.url)
        seen = driver.execute_async_script("""
            const done = arguments[0];
            window.__csp = [];
            document.body.insertAdjacentHTML("beforeend", '<img src=x onerror="window.pwned=1">');
            document.body.insertAdjacentHTML("beforeend", '<p id="styled" style="color: rgb(255, 0, 0)">styled</p>');
            document.body.insertAdjacentHTML("beforeend", '<a id="jsurl" href="javascript:window.pwned=2">x</a>');
            document.getElementById("jsurl").click();
            setTimeout(() => done({ pwned: typeof window.pwned, violations: window.__csp,
                                    color: getComputedStyle(document.getElementById("styled")).color }), 500);""")
        directives = sorted(set(v.split(" ")[0] for v in seen["violations"]))
        results.check("csp %s: injected onerror, style attribute and javascript: URL refused (pwned %s, color %s, "
                      "violations %s)" % (page.name, seen["pwned"], seen["color"], directives),
                      seen["pwned"] == "undefined" and seen["color"] != "rgb(255, 0, 0)"
                      and any(d.startswith("script-src") for d in directives)
                      and any(d.startswith("style-src") for d in directives))


def check_speed(results, driver, page, judged=True):
    """Check 7: 20 keystrokes on a page of at least 5,000 rows, each timed from its input
    event to layout done (the handler runs synchronously in the event; reading offsetHeight
    forces style and layout), a frame let through between keystrokes."""
    load(driver, page.url)
    rows = driver.execute_script("return document.querySelectorAll('tr[data-b]').length")
    keys = list("tma 3071") + ["Backspace"] * 4 + list("1752") + ["Backspace"] * 4
    seen = driver.execute_async_script("""
        const keys = arguments[0], done = arguments[arguments.length - 1];
        const query = document.getElementById("f-q");
        const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
        (async () => {
          const layout = [], framed = [], whole = [], shown = [];
          query.focus();
          for (const key of keys) {
            await frame();
            const start = performance.now();
            query.value = key === "Backspace" ? query.value.slice(0, -1) : query.value + key;
            query.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: key === "Backspace" ? "deleteContentBackward" : "insertText", data: key }));
            void document.body.offsetHeight;
            layout.push(performance.now() - start);
            await frame();
            framed.push(performance.now() - start);
            while (document.querySelector("main[aria-busy]")) await frame();
            whole.push(performance.now() - start);
            shown.push(document.querySelector("p.shown").textContent);
          }
          done({ layout, framed, whole, shown, value: query.value, hash: location.hash });
        })();""", keys)
    median, worst = statistics.median(seen["layout"]), max(seen["layout"])
    results.info("keystrokes: %s" % " ".join("%.1f" % t for t in seen["layout"]))
    results.info("to the next frame (information): median %.1f ms, max %.1f ms" % (
        statistics.median(seen["framed"]), max(seen["framed"])))
    results.info("to every row shown or hidden (information): median %.1f ms, max %.1f ms" % (
        statistics.median(seen["whole"]), max(seen["whole"])))
    results.info("shown after each: %s" % ", ".join(s.replace("Showing ", "").replace(" tasks", "") for s in seen["shown"]))
    words = "speed %s (%d rows): 20 keystrokes, input to layout median %.1f ms, max %.1f ms" % (page.name, rows, median, worst)
    if not judged:
        results.info(words + " (information)")
        return
    results.check(words + " (limit: median 50 ms)", rows >= 5000 and len(seen["layout"]) == 20 and median <= 50)
    # A chip on the whole page, for the record (not a keystroke).
    timing = driver.execute_script("""
        const chip = document.querySelector("button.chip[data-bucket=overdue]");
        const start = performance.now(); chip.click(); void document.body.offsetHeight;
        const on = performance.now() - start;
        const again = performance.now(); chip.click(); void document.body.offsetHeight;
        return [on, performance.now() - again];""")
    results.info("overdue chip on and off over the page: %.1f ms, %.1f ms (information)" % tuple(timing))


def check_loads(results):
    """Check 6, the normal loads: no page load of the run reported a CSP violation."""
    bad = [(url, v) for url, v in LOADS if v]
    results.check("csp: %d page loads, none reported a violation (listener and browser log)" % len(LOADS), not bad,
                  "; ".join("%s: %s" % (os.path.basename(u), v[:3]) for u, v in bad[:5]))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    binary, axe_path, out = os.path.abspath(sys.argv[1]), sys.argv[2], os.path.abspath(sys.argv[3])
    os.makedirs(out, exist_ok=True)
    with open(axe_path) as f:
        axe = f.read()
    results = Results()
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory() as folder:
        # One binary for the whole run: a copy, so a rebuild meanwhile changes nothing here.
        shutil.copy2(binary, os.path.join(folder, "dashboard"))
        binary = os.path.join(folder, "dashboard")
        print("making the data and pages in %s" % folder, flush=True)
        pages, sets = make_data(binary, folder)
        db_of = {"sample": (os.path.join(folder, "sample.sqlite"), SAMPLE_AS_OF),
                 "extra": (os.path.join(folder, "extra.sqlite"), SAMPLE_AS_OF)}
        driver = new_driver()
        try:
            print("\n1. filters against report list", flush=True)
            sample = check_filters(results, driver, pages["sample-list"], SAMPLE_WORDS, 24, rng)
            check_filters(results, driver, pages["sample-list-completed"], SAMPLE_WORDS, 12, rng)
            check_filters(results, driver, pages["sample-teacher-course"], SAMPLE_WORDS, 6, rng)
            check_filters(results, driver, pages["oulad-eee"], OULAD_WORDS, 24, rng)
            check_filters(results, driver, pages["oulad-eee-grid-p1"], OULAD_WORDS, 8, rng)
            check_filters(results, driver, pages["oulad-eee-grid-p2"], OULAD_WORDS, 8, rng)
            check_filters(results, driver, pages["extra-list"], ["<img", "ESSAY", "<b>", "normal", "lab", "TRIP"], 10, rng)
            check_fold_edges(results, driver, pages["sample-list"])
            check_grid(results, driver, binary, folder, sets, db_of)
            print("\n2. fragment, Back, Escape", flush=True)
            check_fragment(results, driver, pages["sample-list"], sample)
            check_fragment(results, driver, pages["oulad-eee"], [])
            print("\n3. keyboard only", flush=True)
            check_keyboard(results, driver, pages["sample-list"], "file://" + os.path.join(sets["extra"], "index.html"))
            print("\n4. with and without script", flush=True)
            listed = [pages[n] for n in ("sample-list", "sample-teacher-course", "oulad-eee", "oulad-eee-grid-p1",
                                         "oulad-eee-grid-p2", "extra-list")]
            check_with_script(results, driver, listed, sets)
            check_no_script(results, listed, sets)
            print("\n6. content security policy", flush=True)
            check_csp(results, driver, pages, sets)
            print("\n7. speed", flush=True)
            check_speed(results, driver, pages["oulad-both"])
            check_speed(results, driver, pages["oulad-eee"], judged=False)
            check_speed(results, driver, pages["oulad-eee-grid-p1"], judged=False)
        finally:
            driver.quit()
        print("\n5. screenshots and axe-core", flush=True)
        check_axe(results, axe, out, pages, sets)
        check_loads(results)
    print("\n%d checks passed, %d failed%s" % (results.passed, len(results.failed),
                                               "".join("\n  FAILED " + name.splitlines()[0] for name in results.failed)))
    print("screenshots in %s" % out)
    sys.exit(1 if results.failed else 0)


if __name__ == "__main__":
    main()
