import Foundation
import Testing

/// Issue 29, items 2 and 3: a big course's pages (real OULAD data: its roll-up first, its
/// students one disclosure away, pages of at most 500 rows) and a teacher's index ("Courses of
/// …", what needs them today, the administrator's counts per teacher). The expectations come
/// from the CSV files and from the command line's JSON, never from the HTML renderer.
@Suite struct TeacherPagesTests {
    static let fixture = DashboardBinary.packageRoot.appendingPathComponent("Tests/Fixtures/OULAD")
    /// Inside AAA-2013J's term: three of its six assignments passed, two to come, an exam undated.
    static let asOf = "2014-03-01T08:00:00Z"

    /// The tasks of the fixture: task id, course id, assignment id, due, submission state.
    static func tasks() throws -> [(id: String, course: String, assignment: String, due: String, status: String, submittedAt: String)] {
        let text = try String(contentsOf: fixture.appendingPathComponent("tasks.csv"), encoding: .utf8)
        var lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = lines.removeFirst()
        let at = { (name: String) in header.firstIndex(of: name)! }
        return lines.map {
            ($0[at("task_id")], $0[at("course_id")], $0[at("assignment_id")], $0[at("due")], $0[at("status")], $0[at("submitted_at")])
        }
    }

    @Test func aBigCourseOpensOnItsAssignmentsInPagesOfBoundedSize() throws {
        let sandbox = try Sandbox()
        for name in ["courses.csv", "tasks.csv"] {
            _ = try sandbox.write("drop/" + name, bytes: try Data(contentsOf: Self.fixture.appendingPathComponent(name)))
        }
        let imported = try sandbox.run(["--db", "db.sqlite", "--as-of", Self.asOf, "import", "drop"])
        #expect(imported.exitCode == 0, "\(imported)")
        let written = try sandbox.run(["--db", "db.sqlite", "--as-of", Self.asOf, "report", "grid", "--format", "html", "--out", "out"])
        #expect(written.exitCode == 0, "\(written)")
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("out"))
        let all = try Self.tasks()
        for course in ["AAA-2013J", "EEE-2013J"] {
            // The pages list the course's tasks but the completed ones (SPEC §11: OULAD's graded
            // assessments; the converter's `--states` wrote them).
            let mine = all.filter { $0.course == course && $0.status != "completed" }
            let stem = "course-" + course.lowercased() + "-" + (try ByTeacherReportTests.hash(course))
            let pageCount = (mine.count + 499) / 500
            let names = [stem + ".html"] + (pageCount > 1 ? (2...pageCount).map { "\(stem)-p\($0).html" } : [])
            #expect(files.filter { $0.hasPrefix(stem) && $0.hasSuffix(".html") }.sorted() == names.sorted(), "\(course): \(files)")
            var seen: [String] = []
            var overdueAnchors = 0
            var pages: [String: String] = [:]
            for name in names {
                let page = String(decoding: try sandbox.read("out/" + name), as: UTF8.self)
                pages[name] = page
                let rows = page.matches(of: /<tr id="task-([^"]*)"/).map { String($0.output.1) }
                #expect(rows.count <= 500 && !rows.isEmpty, "\(name): \(rows.count) rows")
                seen += rows
                overdueAnchors += page.components(separatedBy: " id=\"overdue\"").count - 1
                #expect(page.contains("Page \(names.firstIndex(of: name)! + 1) of \(pageCount):"), "\(name) says which page it is")
                #expect(page.components(separatedBy: "<details").count > 1, "\(name): the students are one disclosure away")
            }
            // Every task of the course that is not completed on exactly one page.
            #expect(seen.count == mine.count && Set(seen) == Set(mine.map(\.id)), "\(course): \(seen.count) rows of \(mine.count)")
            #expect(overdueAnchors == 1, "\(course): one overdue anchor, on the first assignment with an overdue task")
            // The first page opens on the roll-up: one row per assignment of the CSV, each linking
            // to the page and section that holds it.
            let first = try #require(pages[stem + ".html"])
            let rollUp = try #require(first.range(of: "<h2 id=\"assignments\">Assignments (\(Set(mine.map(\.assignment)).count))</h2>"))
            #expect(first[..<rollUp.lowerBound].components(separatedBy: "<tr id=\"task-").count == 1, "no task row before the roll-up")
            let links = first.matches(of: /<th scope="row"><a href="([^"#]*)#(a-[^"]*)">/).map {
                (String($0.output.1), String($0.output.2))
            }
            #expect(links.count == Set(mine.map(\.assignment)).count)
            for (file, anchor) in links {
                #expect(pages[file]?.contains("<section id=\"\(anchor)\"") == true, "\(course): \(file)#\(anchor)")
            }
        }
        // AAA's first assignment is the oldest: the due long past says so in words.
        let aaa = String(
            decoding: try sandbox.read("out/course-aaa-2013j-\(try ByTeacherReportTests.hash("AAA-2013J")).html"), as: UTF8.self)
        #expect(aaa.contains("TMA 1752: assignments") == false)
        // Its open tasks in the CSV are overdue, its handed-in ones wait for grading (SPEC §11);
        // the roll-up counts all of them.
        let oldest = all.filter { $0.course == "AAA-2013J" && $0.assignment == "1752" }
        let open = oldest.filter { $0.status == "open" }.count
        let toGrade = oldest.filter { $0.status == "submitted" }.count
        // Its hand-ins (SPEC §11): submitted or graded; late when handed in on a later date
        // than the due (both are dates in the fixture: their text compares as dates).
        let handedIn = oldest.filter { $0.status == "submitted" || $0.status == "completed" }
        let late = handedIn.filter { !$0.submittedAt.isEmpty && $0.submittedAt > $0.due }.count
        #expect(open == 6 && toGrade == 1 && oldest.count == 365 && handedIn.count == 359 && late == 66)
        #expect(
            aaa.contains(
                "\(open) of \(oldest.count) overdue (132 days late), \(toGrade) to grade; "
                    + "\(handedIn.count) of \(oldest.count) handed in, \(late) late · due 2013-10-20 (4 months ago)")
                || aaa.contains(
                    "\(open) of \(oldest.count) overdue (132 days late, due 4 months ago), \(toGrade) to grade; "
                        + "\(handedIn.count) of \(oldest.count) handed in, \(late) late"),
            "\(aaa.prefix(6000))")
        let tidy = "/usr/bin/tidy"
        if FileManager.default.isExecutableFile(atPath: tidy) {
            for name in files where name.hasSuffix(".html") {
                let result = try sandbox.runTool("tidy", ["-q", "-e", "out/" + name])
                #expect(result.exitCode == 0 && result.stderr == "", "tidy on \(name):\n\(result)")
            }
        }
    }

    @Test func aTeachersIndexNamesThemAndListsWhatNeedsThemTodayMostOverdueFirst() throws {
        let sandbox = try ReportGoldenTests.imported()
        let asOf = ReportGoldenTests.asOf
        let result = try sandbox.run([
            "--db", "db.sqlite", "--as-of", asOf, "report", "grid", "--format", "html", "--out", "out", "--by-teacher",
        ])
        #expect(result.exitCode == 0, "\(result)")
        let grid = try JSON.object(try sandbox.run(["--db", "db.sqlite", "--as-of", asOf, "report", "grid", "--format", "json"]).stdout)
        let teachersIndex = String(decoding: try sandbox.read("out/teachers/index.html"), as: UTF8.self)
        for card in JSON.objects(grid["courses"]) {
            let teacher = try #require(card["teacher"] as? String)
            let counts = try #require(card["counts"] as? [String: Int])
            let link = try #require(
                teachersIndex.matches(of: #/<a href="([^"/]*)/index.html">([^<]*)</a>/#).first { $0.output.2 == HTMLText.escape(teacher) })
            let folder = String(link.output.1)
            // The administrator's index: each teacher's overdue and due-today counts (one course each).
            #expect(
                teachersIndex.contains(
                    "\(HTMLText.escape(teacher))</a></th><td>1</td><td>\(counts["overdue"] ?? -1)</td><td>\(counts["today"] ?? -1)</td></tr>"
                ),
                "\(teacher)")
            let page = String(decoding: try sandbox.read("out/teachers/\(folder)/index.html"), as: UTF8.self)
            #expect(page.contains("<title>Courses of \(HTMLText.escape(teacher)) as of "), "\(teacher)")
            // What needs them: their overdue and due-today tasks as the command line lists them,
            // one item per assignment (the sample's tasks have no assignment id: one per title),
            // the most overdue first, then the most due today, then the earliest due.
            let course = try #require(card["course_id"] as? String)
            let list = try JSON.object(
                try sandbox.run([
                    "--db", "db.sqlite", "--as-of", asOf, "report", "list", "--course", course, "--bucket", "overdue", "--bucket", "today",
                    "--format", "json",
                ]).stdout)
            var expected: [(title: String, overdue: Int, today: Int, due: String)] = []
            for section in JSON.objects(JSON.objects(list["courses"]).first?["sections"]) {
                for task in JSON.objects(section["tasks"]) {
                    let title = task["title"] as? String ?? ""
                    let bucket = section["bucket"] as? String
                    if let index = expected.firstIndex(where: { $0.title == title }) {
                        expected[index].overdue += bucket == "overdue" ? 1 : 0
                        expected[index].today += bucket == "today" ? 1 : 0
                    } else {
                        expected.append((title, bucket == "overdue" ? 1 : 0, bucket == "today" ? 1 : 0, task["due"] as? String ?? ""))
                    }
                }
            }
            let items = page.matches(of: #/<li><a href="([^"]*)">([^<]*)</a> — /#).map { (String($0.output.1), String($0.output.2)) }
            #expect(items.count == expected.count, "\(teacher): \(items)")
            // In the page's order, by the rule (dues compared by their day: a date-only due and a
            // time on the same day are ordered by the instant, which the JSON's texts do not give).
            let code = try #require(card["code"] as? String)
            let keys = try items.map { item in
                let entry = try #require(expected.first { HTMLText.escape(code + ": " + $0.title) == item.1 }, "\(item.1)")
                return (-entry.overdue, -entry.today, String(entry.due.prefix(10)))
            }
            #expect(Set(items.map(\.1)).count == items.count, "\(teacher): one item per assignment")
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 }, "\(teacher): most urgent first: \(items.map(\.1))")
            for (link, _) in items {
                #expect(link.hasPrefix("course-") && link.contains(".html#q=") && link.hasSuffix("&amp;b=overdue.today"), "\(link)")
            }
            // Its card's "Needs attention" words link straight to the course page's overdue tasks.
            #expect(page.contains(".html#overdue\">"), "\(teacher)")
        }
    }
}

extension TeacherPagesTests {
    /// The sample's courses with a language each (and one without): its column of courses.csv.
    static func sampleWithLanguages(_ sandbox: Sandbox, default language: String? = nil) throws {
        let source = URL(fileURLWithPath: SampleImportsTests.folder)
        var lines = try String(contentsOf: source.appendingPathComponent("courses.csv"), encoding: .utf8).components(separatedBy: "\n")
        let tags = ["BIO 101": "es-419", "MAT 210": "de-DE", "JPN 150": "ja-JP", "HIST 220": "fr"]
        for index in lines.indices where !lines[index].isEmpty {
            let code = lines[index].split(separator: ",", omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? ""
            lines[index] += index == 0 ? ",Language" : "," + (tags[code.trimmingCharacters(in: .whitespaces)] ?? "")
        }
        try sandbox.write("in/courses.csv", lines.joined(separator: "\n"))
        _ = try sandbox.write("in/tasks.csv", bytes: try Data(contentsOf: source.appendingPathComponent("tasks.csv")))
        let imported = try sandbox.run(["--db", "db.sqlite", "--as-of", ReportGoldenTests.asOf, "import", "in"])
        #expect(imported.exitCode == 65, "\(imported)")
        if let language {
            #expect(try sandbox.run(["--db", "db.sqlite", "settings", "language", language]).exitCode == 0)
        }
    }

    @Test func eachCoursesPageSpeaksItsLanguageAndMachinesNeverChange() throws {
        let sandbox = try Sandbox()
        try Self.sampleWithLanguages(sandbox)
        let asOf = ReportGoldenTests.asOf
        let result = try sandbox.run([
            "--db", "db.sqlite", "--as-of", asOf, "report", "grid", "--format", "html", "--out", "out", "--by-teacher",
        ])
        #expect(result.exitCode == 0, "\(result)")
        let expectations: [(file: String, lang: String, words: [String])] = [
            (
                "course-mat-210-ber-5b60330d.html", "de-DE",
                ["<h2 id=\"overdue\">Überfällig", "Aufgaben", "Stand: ", "Lehrkraft: ", "Tage verspätet"]
            ),
            ("course-jpn-150-tyo-e37531c5.html", "ja-JP", ["<h2 id=\"overdue\">期限切れ", "時点", "担当：", "日遅れ", "年"]),
            ("course-hst-220-syd-3f36fc23.html", "fr", ["<h2 id=\"overdue\">En retard", "Au ", "Enseignant·e : "]),
            ("course-bio-101-nyc-f3c249c4.html", "es-419", ["<h2 id=\"overdue\">Vencidas", "A fecha de ", "Docente: "]),
            ("course-eng-105-53a60a75.html", "en", ["<h2 id=\"overdue\">Overdue", "As of ", "Teacher: "]),
        ]
        for (file, lang, words) in expectations {
            let page = String(decoding: try sandbox.read("out/" + file), as: UTF8.self)
            #expect(page.contains("<html lang=\"\(lang)\">"), "\(file)")
            for word in words { #expect(page.contains(word), "\(file) says \(word)") }
        }
        // A teacher's index speaks the language of their (one) course; the school's index, whose
        // courses speak five, the database's default: English.
        let index = String(decoding: try sandbox.read("out/index.html"), as: UTF8.self)
        #expect(index.contains("<html lang=\"en\">") && index.contains("<h1>Courses</h1>"))
        let tanaka = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("out/teachers")).first { $0.hasPrefix("tanaka") }
        let teacher = String(decoding: try sandbox.read("out/teachers/\(try #require(tanaka))/index.html"), as: UTF8.self)
        #expect(teacher.contains("<html lang=\"ja-JP\">") && teacher.contains("のコース</h1>") && teacher.contains("今日の対応"), "\(teacher)")
        // --language for one run: every page; JSON and CSV the same bytes in every language.
        let german = try sandbox.run(["--db", "db.sqlite", "--as-of", asOf, "report", "list", "--format", "html", "--language", "de-AT"])
        #expect(german.stdout.contains("<html lang=\"de-AT\">") && german.stdout.contains("Ohne Frist"))
        for format in ["json", "csv"] {
            let plain = try sandbox.run(["--db", "db.sqlite", "--as-of", asOf, "report", "grid", "--format", format])
            for language in ["de", "ja", "fr", "es"] {
                let spoken = try sandbox.run([
                    "--db", "db.sqlite", "--as-of", asOf, "report", "grid", "--format", format, "--language", language,
                ])
                #expect(spoken.exitCode == 0 && spoken.stdout == plain.stdout, "\(format) in \(language)")
            }
        }
        // A tag of another language, or no tag at all: a usage error that names the languages.
        for bad in ["zh", "german", "de--AT"] {
            let refused = try sandbox.run(["--db", "db.sqlite", "report", "grid", "--language", bad])
            #expect(refused.exitCode == 64 && refused.stderr.contains("en, de, fr, es, ja"), "\(bad): \(refused)")
        }
    }

    @Test func theDatabasesDefaultLanguageSpeaksForCoursesWithoutOne() throws {
        let sandbox = try Sandbox()
        try Self.sampleWithLanguages(sandbox, default: "fr-CA")
        let result = try sandbox.run([
            "--db", "db.sqlite", "--as-of", ReportGoldenTests.asOf, "report", "grid", "--format", "html", "--out", "out",
        ])
        #expect(result.exitCode == 0, "\(result)")
        let eng = String(decoding: try sandbox.read("out/course-eng-105-53a60a75.html"), as: UTF8.self)
        #expect(eng.contains("<html lang=\"fr-CA\">") && eng.contains("En retard"), "ENG 105 names no language: the default's")
        let index = String(decoding: try sandbox.read("out/index.html"), as: UTF8.self)
        #expect(index.contains("<html lang=\"fr-CA\">") && index.contains("<h1>Cours</h1>"))
    }
}

/// HTML escaping as the pages write text (the five characters), for expectations.
enum HTMLText {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
            of: ">", with: "&gt;"
        ).replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }
}
