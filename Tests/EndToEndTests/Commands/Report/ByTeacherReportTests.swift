import Foundation
import Testing

/// Issue 13, item 3: `report --out DIR --by-teacher` (and `nightly`) write one folder per
/// teacher holding exactly that teacher's courses, an index of teachers, and an empty-state
/// page for a teacher whose courses are all gone.
@Suite struct ByTeacherReportTests {
    /// Two teachers; a course id of Okafor's equals the code of Reyes's course (`--course`
    /// would match both: a teacher's set must not).
    static let courses = """
        course_id,title,code,teacher
        eng,English,ENG 1,Amaka Okafor
        lit,Literature,his,Amaka Okafor
        his,History,HIS 3,Tomás Reyes
        art,Art,ART 4,

        """
    static let tasks = """
        task_id,course_id,title,due
        e1,eng,Essay,2026-11-30
        e2,eng,Draft,2026-11-20
        l1,lit,Poem,2026-12-02
        h1,his,Map,2026-11-28
        a1,art,Sketch,

        """
    static let okafor = "teachers/amaka-okafor-8a68922c"
    static let reyes = "teachers/tom-s-reyes-f079ce9b"

    static func school() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Self.courses)
        try sandbox.write("tasks.csv", Self.tasks)
        let imported = try sandbox.run(["--db", "db.sqlite", "--as-of", "2026-11-29T08:00:00Z", "import", "courses.csv", "tasks.csv"])
        guard imported.exitCode == 0 else { throw HarnessError("import failed:\n\(imported)") }
        return sandbox
    }

    static func json(_ sandbox: Sandbox, _ name: String) throws -> [String: Any] {
        try JSON.object(String(decoding: sandbox.read(name), as: UTF8.self))
    }

    static func courseIDs(_ grid: [String: Any]) -> [String] {
        ((grid["courses"] as? [[String: Any]]) ?? []).compactMap { $0["course_id"] as? String }.sorted()
    }

    @Test func eachTeachersFolderHoldsExactlyTheirCourses() throws {
        let sandbox = try Self.school()
        let result = try sandbox.run([
            "--db", "db.sqlite", "--as-of", "2026-11-29T08:00:00Z", "report", "grid", "--format", "json", "--out", "out", "--by-teacher",
        ])
        #expect(result.exitCode == 0, "\(result)")
        let mine = try Self.json(sandbox, "out/\(Self.okafor)/index.json")
        #expect(Self.courseIDs(mine) == ["eng", "lit"])
        #expect(mine["total_tasks"] as? Int == 3, "Reyes's course (code his) is not counted")
        #expect(Self.courseIDs(try Self.json(sandbox, "out/\(Self.reyes)/index.json")) == ["his"])
        let okaforFiles = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("out/" + Self.okafor)).sorted()
        #expect(
            okaforFiles
                == [
                    "calendar.ics", "course-eng-\(try Self.hash("eng")).ics", "course-eng-\(try Self.hash("eng")).json",
                    "course-lit-\(try Self.hash("lit")).ics", "course-lit-\(try Self.hash("lit")).json", "index.json",
                ].sorted(),
            "\(okaforFiles)")
        let index = try Self.json(sandbox, "out/teachers/index.json")
        let teachers = (index["teachers"] as? [[String: Any]]) ?? []
        #expect(teachers.map { $0["teacher"] as? String ?? "" } == ["Amaka Okafor", "Tomás Reyes"])
        #expect(teachers.map { $0["folder"] as? String ?? "" } == ["amaka-okafor-8a68922c", "tom-s-reyes-f079ce9b"])
        #expect(teachers.map { $0["courses"] as? Int ?? -1 } == [2, 1])
        // The whole set is still there, with every course.
        #expect(Self.courseIDs(try Self.json(sandbox, "out/index.json")) == ["art", "eng", "his", "lit"])
    }

    @Test func aTeacherWhoseCoursesWereAllDeletedGetsAnEmptyStatePage() throws {
        let sandbox = try Self.school()
        try sandbox.write("courses.csv", Self.courses.replacingOccurrences(of: "his,History,HIS 3,Tomás Reyes\n", with: ""))
        try sandbox.write("tasks.csv", Self.tasks.replacingOccurrences(of: "h1,his,Map,2026-11-28\n", with: ""))
        let sync = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "--max-delete", "100%", "courses.csv", "tasks.csv"])
        #expect(sync.exitCode == 0, "\(sync)")
        let result = try sandbox.run([
            "--db", "db.sqlite", "--as-of", "2026-11-29T08:00:00Z", "report", "grid", "--format", "html", "--out", "out", "--by-teacher",
        ])
        #expect(result.exitCode == 0, "\(result)")
        let page = String(decoding: try sandbox.read("out/\(Self.reyes)/index.html"), as: UTF8.self)
        #expect(page.contains("<h2>No courses</h2><p>No course in the data names Tomás Reyes as its teacher.</p>"), "\(page)")
        // Its feed stays too, empty, so a subscribed calendar drops what it showed.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.path("out/" + Self.reyes)).sorted() == [
                "calendar.ics", "index.html",
            ])
        #expect(!String(decoding: try sandbox.read("out/\(Self.reyes)/calendar.ics"), as: UTF8.self).contains("BEGIN:VEVENT"))
        let index = String(decoding: try sandbox.read("out/teachers/index.html"), as: UTF8.self)
        #expect(index.contains("<a href=\"tom-s-reyes-f079ce9b/index.html\">Tomás Reyes</a></th><td>0</td>"), "\(index)")
    }

    @Test func byTeacherWithoutOutIsAUsageError() throws {
        let sandbox = try Self.school()
        let result = try sandbox.run(["--db", "db.sqlite", "report", "grid", "--by-teacher"])
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stderr.hasPrefix("dashboard: error: --by-teacher writes folders: give --out DIR too\n"), "\(result)")
    }

    static func hash(_ text: String) throws -> String {
        let sandbox = try Sandbox()
        try sandbox.write("h", text)
        let result = try sandbox.runTool("sha256sum", ["h"])
        return String(result.stdout.prefix(8))
    }
}
