import Foundation
import Testing

@testable import DashboardCore

/// Issue 27, item 4: the names a report set writes, read as one rule (`ReportSetLayout`) by the
/// check a run makes before its first write. (`HardeningOutputPreflightTests` holds every file
/// a real run writes to it.)
@Suite(.storeIndependent) struct ReportSetLayoutTests {
    static let okafor = TeacherIndex.folderName("Amaka Okafor")
    static let bio = ReportFileNames.course("bio", ext: "html")

    static func scratch() throws -> String {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("report-layout-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base + "/out/teachers/" + okafor, withIntermediateDirectories: true)
        return base
    }

    @Test("the names a set may write, with and without teachers' folders")
    func mayWrite() {
        let html = ReportSetLayout(formats: [.html], byTeacher: false)
        let teachers = ReportSetLayout(formats: [.html, .markdown], byTeacher: true)
        let cases: [(String, Bool, Bool)] = [
            ("index.html", true, true), (Self.bio, true, true), ("index.md", false, true), ("notes.txt", false, false),
            ("course-bio.html", false, false), ("teachers", false, true), ("teachers/index.html", false, true),
            ("teachers/" + Self.okafor, false, true), ("teachers/\(Self.okafor)/index.md", false, true),
            ("teachers/\(Self.okafor)/" + Self.bio, false, true), ("teachers/Okafor/index.html", false, false),
            ("teachers/\(Self.okafor)/teachers", false, false), ("a/b/c/d", false, false),
            // Issue 27: the folder of the courses without a teacher, and its pages.
            ("teachers/unassigned", false, true), ("teachers/unassigned/index.html", false, true),
            ("teachers/unassigned/" + Self.bio, false, true), ("teachers/unassigned/notes.txt", false, false),
            ("teachers/Unassigned", false, false), ("unassigned", false, false),
        ]
        for (name, single, both) in cases {
            #expect(html.mayWrite(name) == single, "\(name)")
            #expect(teachers.mayWrite(name) == both, "\(name)")
        }
        #expect(ReportFileNames.couldWrite(ReportFileNames.course("../../CON", ext: "csv"), ext: "csv"))
        #expect(TeacherIndex.couldBeFolder(TeacherIndex.folderName("Tomás Reyes")))
    }

    @Test("a big course's further pages are the set's files, and nothing that only looks like one")
    func furtherPagesOfABigCourse() {
        let stem = "course-aaa-2013j-" + ReportFileNames.shortHash("AAA-2013J")
        #expect(ReportFileNames.coursePage("AAA-2013J", page: 1, ext: "html") == stem + ".html")
        #expect(ReportFileNames.coursePage("AAA-2013J", page: 12, ext: "html") == stem + "-p12.html")
        let cases: [(String, Bool)] = [
            (stem + ".html", true), (stem + "-p2.html", true), (stem + "-p99999.html", true), (stem + "-p1.html", false),
            (stem + "-p0.html", false), (stem + "-p02.html", false), (stem + "-p100000.html", false), (stem + "-p.html", false),
            (stem + "-px.html", false), (stem + "-p2-p3.html", false), (stem + "-q2.html", false), ("course-p2.html", false),
        ]
        let layout = ReportSetLayout(formats: [.html], byTeacher: true)
        for (name, writes) in cases {
            #expect(ReportFileNames.couldWrite(name, ext: "html") == writes, "\(name)")
            #expect(layout.mayWrite("teachers/\(Self.okafor)/" + name) == writes, "\(name)")
        }
    }

    @Test("no teacher's folder is the folder of the courses without one, whatever the teacher's name")
    func unassignedIsNoTeachersFolder() {
        for name in ["Unassigned", "unassigned", "UNASSIGNED", " unassigned ", "un-assigned", "Unassigned-1", "x"] {
            let folder = TeacherIndex.folderName(name)
            #expect(folder != TeacherIndex.unassignedFolder, "\(name)")
            #expect(folder.hasPrefix(ReportFileNames.slug(name) + "-") && folder.count == ReportFileNames.slug(name).count + 9, "\(name)")
        }
        #expect(TeacherIndex.folderName("Unassigned") == "unassigned-" + ReportFileNames.shortHash("Unassigned"))
        #expect(TeacherIndex.couldBeFolder(TeacherIndex.unassignedFolder))
    }

    @Test("a folder or FIFO at a name the set writes is found, the index first; other names are left alone")
    func obstaclesInTheSetFolder() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let layout = ReportSetLayout(formats: [.html], byTeacher: false)
        #expect(mkfifo(base + "/out/pipe", 0o600) == 0)
        try "old".write(toFile: base + "/out/index.html", atomically: false, encoding: .utf8)
        try layout.check(try SafeFolder.open(base + "/out", create: false))
        #expect(mkfifo(base + "/out/" + Self.bio, 0o600) == 0)
        let folder = try SafeFolder.open(base + "/out", create: false)
        #expect(
            throws: ReportSetObstacle(
                folder: base + "/out", name: Self.bio, problem: .notRegularFile(base + "/out/" + Self.bio, kind: "a FIFO (named pipe)"))
        ) {
            try layout.check(folder)
        }
        try FileManager.default.removeItem(atPath: base + "/out/index.html")
        try FileManager.default.createDirectory(atPath: base + "/out/index.html", withIntermediateDirectories: false)
        #expect(throws: ReportSetObstacle(folder: base + "/out", name: "index.html", problem: .finalNameIsFolder(base + "/out/index.html")))
        {
            try layout.check(folder)
        }
    }

    @Test("teachers' folders: a folder at a teacher's index is found; a link at teachers/ is a folder that cannot be written into")
    func obstaclesInTeachersFolders() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let layout = ReportSetLayout(formats: [.markdown], byTeacher: true)
        let index = "teachers/\(Self.okafor)/index.md"
        try FileManager.default.createDirectory(atPath: base + "/out/" + index, withIntermediateDirectories: false)
        let folder = try SafeFolder.open(base + "/out", create: false)
        #expect(throws: ReportSetObstacle(folder: base + "/out", name: index, problem: .finalNameIsFolder(base + "/out/" + index))) {
            try layout.check(folder)
        }
        // Not written without teachers' folders: not checked either.
        try ReportSetLayout(formats: [.markdown], byTeacher: false).check(folder)
        try FileManager.default.moveItem(atPath: base + "/out/teachers", toPath: base + "/elsewhere")
        #expect(symlink("../elsewhere", base + "/out/teachers") == 0)
        #expect(throws: SafeFileError(path: base + "/out/teachers", problem: .symbolicLink(base + "/out/teachers"))) {
            try layout.check(folder)
        }
    }
}
