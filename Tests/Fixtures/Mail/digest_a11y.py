#!/usr/bin/env python3
"""`make a11y`: the morning digest's HTML part in a real browser. Makes a school (three
teachers, one in another script, one night with data and one without an export), runs
`dashboard nightly --digest`, takes each HTML part out of the digest.eml files with Python's
`email` package, and for each, at 1280 and 390 px wide, saves a screenshot (to look at) and runs
axe-core (its WCAG 2.x A/AA rules and best practices) in headless Chromium through
chromedriver. Exits 1 when axe finds any violation.

Usage: digest_a11y.py DASHBOARD_BINARY AXE_JS OUT_DIR
"""
import email
import email.policy
import glob
import os
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

COURSES = """course_id,title,code,teacher,timezone,teacher_email
bio,Biology,BIO 1,Amaka Okafor,Europe/Berlin,amaka.okafor@school.example
his,History,HIS 2,Amaka Okafor,America/New_York,amaka.okafor@school.example
art,"Art, 美術 \\ design",ART 3,Tomás Reyes,,tomas.reyes@school.example
jpn,日本語 I,JPN 1,田中 美咲,Asia/Tokyo,misaki.tanaka@school.example
"""
TASKS = """task_id,course_id,title,student_id,due,completed,assignment_id
b1,bio,Essay,s1,2026-12-02T09:00,,A1
b2,bio,Essay,s2,2026-12-02T09:00,,A1
b3,bio,Essay,s3,2026-12-02T09:00,yes,A1
b4,bio,Lab report,s1,2026-12-04,,A2
h1,his,Source analysis: a long title that a phone has to wrap onto a second line,s1,2026-12-03,,A4
a1,art,"Sketch; 写生, part 1 \\ 🎨",s1,2026-12-01,,A7
j1,jpn,漢字テスト,s1,2026-12-10,,K1
"""


def night(binary, folder, as_of, extra):
    run = subprocess.run(
        [binary, "--db", "db.sqlite", "--as-of", as_of, "nightly", "--imports", "drop", "--reports", "reports"] + extra,
        cwd=folder, capture_output=True, text=True)
    print(run.stderr.strip())
    return run.returncode


def main():
    binary, axe_path, out = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    axe = open(axe_path).read()
    pages = []
    with tempfile.TemporaryDirectory() as folder:
        os.makedirs(os.path.join(folder, "drop"))
        with open(os.path.join(folder, "drop", "courses.csv"), "w") as f:
            f.write(COURSES)
        with open(os.path.join(folder, "drop", "tasks.csv"), "w") as f:
            f.write(TASKS)
        night(binary, folder, "2026-12-03T02:00:00Z", [])
        for setting in (["mail-from", "dashboard@school.example"], ["base-url", "https://reports.school.example/"]):
            subprocess.run([binary, "--db", "db.sqlite", "settings"] + setting, cwd=folder, check=True, capture_output=True)
        for name, as_of in (("tonight", "2026-12-04T02:00:00Z"), ("no-export", "2026-12-05T02:00:00Z")):
            if name == "no-export":
                for csv in glob.glob(os.path.join(folder, "drop", "*.csv")):
                    os.remove(csv)
            night(binary, folder, as_of, ["--digest"])
            for eml in sorted(glob.glob(os.path.join(folder, "reports", "latest", "teachers", "*", "digest.eml"))):
                message = email.message_from_binary_file(open(eml, "rb"), policy=email.policy.default)
                html = next(p.get_content() for p in message.walk() if p.get_content_type() == "text/html")
                path = os.path.join(out, "%s-%s.html" % (name, os.path.basename(os.path.dirname(eml))))
                with open(path, "w") as f:
                    f.write(html)
                pages.append(path)
    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    violations = 0
    try:
        for path in pages:
            for width in (1280, 390):
                driver.set_window_size(width, 1000)
                driver.get("file://" + os.path.abspath(path))
                driver.save_screenshot(path[:-5] + "-%d.png" % width)
                driver.execute_script(axe)
                result = driver.execute_async_script(
                    "const done = arguments[0]; axe.run(document, {resultTypes: ['violations']}).then(done);")
                found = result["violations"]
                violations += len(found)
                print("%s at %d px: axe %s, %d violations%s" % (
                    os.path.basename(path), width, result["testEngine"]["version"], len(found),
                    "".join("\n  %s: %s (%d nodes)" % (v["id"], v["help"], len(v["nodes"])) for v in found)))
    finally:
        driver.quit()
    print("screenshots and pages in %s" % out)
    sys.exit(1 if violations or not pages else 0)


if __name__ == "__main__":
    main()
