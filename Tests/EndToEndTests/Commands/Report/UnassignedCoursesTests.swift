import Foundation
import Testing

/// Issue 27, item 12: courses without a teacher (an empty `teacher`, or no such column, as in
/// OULAD's export) get a folder of their own, `teachers/unassigned/`, which the teachers' index
/// lists apart (not as a person), and `nightly`, `report --by-teacher` and the metrics say how
/// many there are. A teacher named "Unassigned" keeps a folder of their own. Runs on both stores.
@Suite struct UnassignedCoursesTests {
    static let asOf = "2026-11-29T08:00:00Z"
    /// Okafor's ENG 1, ART 4 without a teacher, MUS 5 of a teacher named "Unassigned".
    static let courses = """
        course_id,title,code,teacher
        eng,English,ENG 1,Amaka Okafor
        art,Art,ART 4,
        mus,Music,MUS 5,Unassigned

        """
    static let tasks = """
        task_id,course_id,title,due
        e1,eng,Essay,2026-11-30
        a1,art,Sketch,2026-11-20
        m1,mus,Scales,

        """
    /// The folder of the teacher named "Unassigned": never the folder of courses without one.
    static let namedUnassigned = "unassigned-14d33bd0"

    static func school(courses: String = Self.courses, tasks: String = Self.tasks) throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", courses)
        try sandbox.write("tasks.csv", tasks)
        let imported = try sandbox.run(["--db", "db.sqlite", "--as-of", asOf, "import", "courses.csv", "tasks.csv"])
        guard imported.exitCode == 0 else { throw HarnessError("import failed:\n\(imported)") }
        return sandbox
    }

    static func byTeacher(_ sandbox: Sandbox, _ format: String) throws -> CommandResult {
        try sandbox.run([
            "--db", "db.sqlite", "--as-of", asOf, "report", "--format", format, "--out", "out", "--by-teacher", "--width", "100",
        ])
    }

    static func text(_ sandbox: Sandbox, _ name: String) throws -> String {
        String(decoding: try sandbox.read(name), as: UTF8.self)
    }

    static func names(_ sandbox: Sandbox, _ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: sandbox.path(folder)).sorted()
    }

    @Test func coursesWithoutATeacherHaveTheFolderUnassignedAndTheIndexListsItApart() throws {
        let sandbox = try Self.school()
        let result = try Self.byTeacher(sandbox, "text")
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.stderr
                == "dashboard: wrote 11 text files and 9 calendar feeds to out (open out/index.txt); 1 course has no teacher: its pages are in out/teachers/unassigned/\n"
        )
        #expect(try Self.names(sandbox, "out/teachers") == ["amaka-okafor-8a68922c", "index.txt", "unassigned", Self.namedUnassigned])
        #expect(
            try Self.text(sandbox, "out/teachers/index.txt") == """
                Teachers as of 2026-11-29 08:00 UTC

                Amaka Okafor  1 course  amaka-okafor-8a68922c/index.txt
                Unassigned    1 course  \(Self.namedUnassigned)/index.txt

                1 course has no teacher: unassigned/index.txt

                """)
        // The folder holds exactly the courses without a teacher, under a header that says so.
        let art = "course-art-" + (try ByTeacherReportTests.hash("art"))
        #expect(try Self.names(sandbox, "out/teachers/unassigned") == ["calendar.ics", art + ".ics", art + ".txt", "index.txt"])
        let grid = try Self.text(sandbox, "out/teachers/unassigned/index.txt")
        #expect(grid.hasPrefix("Courses without a teacher as of 2026-11-29 08:00 UTC\n1 course, 1 needs attention: 1 overdue"), "\(grid)")
        #expect(grid.contains("| ART 4 ") && !grid.contains("MUS 5") && !grid.contains("ENG 1"), "\(grid)")
        // The teacher called "Unassigned" is a person with a folder of their own.
        let named = try Self.text(sandbox, "out/teachers/\(Self.namedUnassigned)/index.txt")
        #expect(named.hasPrefix("Courses of Unassigned as of ") && named.contains("| MUS 5 ") && !named.contains("ART 4"), "\(named)")
    }

    @Test func everyFormatOfTheIndexTellsTheFolderFromATeacher() throws {
        let sandbox = try Self.school()
        #expect(try Self.byTeacher(sandbox, "json").exitCode == 0)
        let index = try JSON.object(try Self.text(sandbox, "out/teachers/index.json"))
        #expect(JSON.objects(index["teachers"]).map { $0["teacher"] as? String ?? "" } == ["Amaka Okafor", "Unassigned"])
        let unassigned = index["unassigned"] as? [String: Any]
        #expect(unassigned?["courses"] as? Int == 1 && unassigned?["folder"] as? String == "unassigned", "\(index)")
        let grid = try JSON.object(try Self.text(sandbox, "out/teachers/unassigned/index.json"))
        #expect(JSON.objects(grid["courses"]).map { $0["course_id"] as? String ?? "" } == ["art"])
        #expect(grid["total_tasks"] as? Int == 1, "no other course is read into its counts")

        try FileManager.default.removeItem(atPath: sandbox.path("out"))
        #expect(try Self.byTeacher(sandbox, "csv").exitCode == 0)
        #expect(
            try Self.text(sandbox, "out/teachers/index.csv")
                == "teacher,courses,folder,kind\r\nAmaka Okafor,1,amaka-okafor-8a68922c,teacher\r\n"
                + "Unassigned,1,\(Self.namedUnassigned),teacher\r\n,1,unassigned,unassigned\r\n")

        #expect(try Self.byTeacher(sandbox, "markdown").exitCode == 0)
        #expect(
            try Self.text(sandbox, "out/teachers/index.md").hasSuffix(
                "| Unassigned | 1 | [\(Self.namedUnassigned)](\(Self.namedUnassigned)/index.md) |\n\n"
                    + "## Courses without a teacher\n\n1 course has no teacher: [unassigned](unassigned/index.md)\n"))
        #expect(
            try Self.text(sandbox, "out/teachers/unassigned/index.md").hasPrefix("# Courses without a teacher as of 2026-11-29 08:00 UTC\n")
        )

        #expect(try Self.byTeacher(sandbox, "html").exitCode == 0)
        let html = try Self.text(sandbox, "out/teachers/index.html")
        #expect(
            html.contains(
                "</table>\n<section aria-labelledby=\"unassigned\">\n<h2 id=\"unassigned\">Courses without a teacher</h2>\n"
                    + "<p><a href=\"unassigned/index.html\">1 course has no teacher</a> (the folder unassigned, not a teacher's).</p>\n"
                    + "</section>\n</main>"), "\(html)")
        let page = try Self.text(sandbox, "out/teachers/unassigned/index.html")
        #expect(page.contains("<title>Courses without a teacher as of 2026-11-29 08:00 UTC</title>"), "\(page)")
        #expect(page.contains("<h1>Courses without a teacher</h1>"), "\(page)")
        let tidy = "/usr/bin/tidy"
        guard FileManager.default.isExecutableFile(atPath: tidy) else {
            Issue.record("tidy is not installed (\(tidy)): `make test` installs it (Debian package tidy)")
            return
        }
        let art = "teachers/unassigned/course-art-" + (try ByTeacherReportTests.hash("art")) + ".html"
        for name in ["teachers/index.html", "teachers/unassigned/index.html", art] {
            let checked = try sandbox.runTool("tidy", ["-q", "-e", "out/" + name])
            #expect(checked.exitCode == 0 && checked.stderr == "" && checked.stdout == "", "tidy on \(name):\n\(checked)")
        }
    }

    /// OULAD's export has no teacher column: every course goes under `unassigned`.
    static let ouladCourses = """
        course_id,code,title,term,timezone
        AAA-2013J,AAA,OU module AAA (2013J presentation),2013J,Europe/London
        DDD-2014J,DDD,OU module DDD (2014J presentation),2014J,Europe/London

        """
    static let ouladTasks = """
        task_id,course_id,title,due,completed
        t1,AAA-2013J,TMA 1,2026-11-20,
        t2,AAA-2013J,TMA 2,2026-12-20,
        t3,DDD-2014J,CMA 1,,yes

        """

    @Test func aNightWithoutAnyTeacherPutsTheWholeSetUnderUnassignedAndSaysSo() throws {
        let sandbox = try Sandbox()
        try sandbox.write("drop/courses.csv", Self.ouladCourses)
        try sandbox.write("drop/tasks.csv", Self.ouladTasks)
        try FileManager.default.createDirectory(atPath: sandbox.path("metrics"), withIntermediateDirectories: true)
        let night = [
            "--db", "db.sqlite", "--as-of", "2026-11-29T02:00:00Z", "nightly", "--imports", "drop", "--reports", "reports", "--metrics",
            "metrics/dashboard.prom",
        ]
        let result = try sandbox.run(night)
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.stderr
                == "dashboard: nightly 2026-11-29T02:00:00Z: import batch 1 committed (merge): 5 rows read, 5 inserted, 0 updated, "
                + "0 unchanged, 0 deleted, 0 rejected, 0 warnings; 0 bucket changes logged; reports: 40 files in reports/2026-11-29; "
                + "2 courses have no teacher: their pages are in teachers/unassigned/\n")
        // The school's set again, under unassigned: the same files, in every format.
        let school = try Self.names(sandbox, "reports/latest").filter { $0 != "teachers" }
        // (and the feed of all its courses, which only a teacher's or this folder has).
        #expect(try Self.names(sandbox, "reports/latest/teachers/unassigned").filter { $0 != "calendar.ics" } == school)
        #expect(school.count == 17)
        #expect(
            try Self.names(sandbox, "reports/latest/teachers") == [
                "index.csv", "index.html", "index.json", "index.md", "index.txt", "unassigned",
            ])
        #expect(
            try Self.text(sandbox, "reports/latest/teachers/index.txt") == """
                Teachers as of 2026-11-29 02:00 UTC

                No course names a teacher.

                2 courses have no teacher: unassigned/index.txt

                """)
        let metrics = try Self.text(sandbox, "metrics/dashboard.prom")
        #expect(metrics.hasSuffix("# TYPE dashboard_courses_without_teacher gauge\ndashboard_courses_without_teacher 2\n"), "\(metrics)")
        // A good night with --quiet says nothing: the count is in the index and the metrics.
        let quiet = try sandbox.run(night + ["--quiet"])
        #expect(quiet.exitCode == 0 && quiet.stderr == "" && quiet.stdout == "", "\(quiet)")
        let status = try JSON.object(try sandbox.run(["--db", "db.sqlite", "status", "--format", "json"]).stdout)
        #expect(status["courses_without_teacher"] as? Int == 2)
    }

    @Test func theFolderStaysWithAnEmptyStateWhenItsCoursesAreDeleted() throws {
        let sandbox = try Self.school()
        try sandbox.write("courses.csv", Self.courses.replacingOccurrences(of: "art,Art,ART 4,\n", with: ""))
        try sandbox.write("tasks.csv", Self.tasks.replacingOccurrences(of: "a1,art,Sketch,2026-11-20\n", with: ""))
        let sync = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "--max-delete", "100%", "courses.csv", "tasks.csv"])
        #expect(sync.exitCode == 0, "\(sync)")
        let result = try Self.byTeacher(sandbox, "text")
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.stderr == "dashboard: wrote 9 text files and 7 calendar feeds to out (open out/index.txt)\n",
            "no live course lacks a teacher")
        #expect(
            try Self.text(sandbox, "out/teachers/unassigned/index.txt") == """
                Courses without a teacher as of 2026-11-29 08:00 UTC

                Every live course in the data names a teacher.
                A course whose teacher is empty in the school's export appears here.

                """)
        #expect(try Self.text(sandbox, "out/teachers/index.txt").hasSuffix("\nNo live course is without a teacher: unassigned/index.txt\n"))
        #expect(try Self.byTeacher(sandbox, "json").exitCode == 0)
        let empty = try JSON.object(try Self.text(sandbox, "out/teachers/unassigned/index.json"))
        #expect(empty["state"] as? String == "no_courses" && empty["unassigned"] as? Bool == true, "\(empty)")
        #expect(
            (try JSON.object(try Self.text(sandbox, "out/teachers/index.json"))["unassigned"] as? [String: Any])?["courses"] as? Int == 0)
    }

    @Test func aSchoolWhoseEveryCourseHasATeacherHasNoSuchFolder() throws {
        let sandbox = try Self.school(
            courses: Self.courses.replacingOccurrences(of: "art,Art,ART 4,\n", with: "art,Art,ART 4,Amaka Okafor\n"))
        let result = try Self.byTeacher(sandbox, "json")
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr == "dashboard: wrote 10 json files and 8 calendar feeds to out (open out/index.json)\n")
        #expect(try Self.names(sandbox, "out/teachers") == ["amaka-okafor-8a68922c", "index.json", Self.namedUnassigned])
        #expect(try JSON.object(try Self.text(sandbox, "out/teachers/index.json"))["unassigned"] is NSNull)
    }
}
