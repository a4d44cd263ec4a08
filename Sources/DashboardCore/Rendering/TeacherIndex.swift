import Foundation

/// One teacher's folder of a per-teacher report set (`--by-teacher`, `nightly`).
package struct TeacherEntry: Sendable, Equatable {
    /// The teacher as the courses file names them.
    package var name: String
    /// Their live courses.
    package var courses: Int

    package init(name: String, courses: Int) {
        self.name = name
        self.courses = courses
    }

    /// The folder under `teachers/` (`TeacherIndex.folderName`).
    package var folder: String { TeacherIndex.folderName(name) }
}

/// The per-teacher report set: `DIR/teachers/<folder>/` holds one teacher's grid and course
/// pages, and `DIR/teachers/index.<ext>` lists every teacher for the administrator.
///
/// Policy: a teacher's folder is `<slug>-<hash>`: the name's ASCII letters and digits,
/// lowercased, runs of anything else as `-` (at most 36 characters), then the first 8 hex
/// digits of the name's SHA-256, so two names never share a folder and the name cannot reach
/// outside `teachers/` (no separator, no leading dot). Teachers are the distinct non-empty
/// `teacher` values of the courses, live or deleted: a teacher whose courses were all removed
/// keeps a folder, with a page that says so, so that a bookmark never breaks. Courses without a
/// teacher are in the whole set only.
package enum TeacherIndex {
    package static let folder = "teachers"

    package static func folderName(_ teacher: String) -> String {
        ReportFileNames.slug(teacher) + "-" + ReportFileNames.shortHash(teacher)
    }

    /// Whether `name` could be a teacher's folder as `folderName` makes it (`ReportSetLayout`).
    package static func couldBeFolder(_ name: String) -> Bool { ReportFileNames.isSlugAndHash(Substring(name)) }

    /// The index of teachers in `format`, each linked to its folder's index (HTML, Markdown).
    /// - Parameter frame: a report without courses of the same run (its as-of, zone, banner).
    package static func render(_ entries: [TeacherEntry], format: ReportFormat, frame: Report) -> String {
        let ext = format.fileExtension
        let asOf = frame.asOf
        let when = ReportWords.asOf(asOf, in: frame.query.displayTimeZone)
        let link = { (entry: TeacherEntry) in entry.folder + "/" + ReportFileNames.index(ext) }
        let courses = { (entry: TeacherEntry) in entry.courses == 1 ? "1 course" : "\(entry.courses) courses" }
        switch format {
        case .text:
            var out = "Teachers as of \(when)\n\n"
            if entries.isEmpty { out += "No course names a teacher.\n" }
            let width = min(40, entries.map { ReportWords.visible($0.name).count }.max() ?? 0)
            for entry in entries {
                let name = ReportWords.visible(entry.name)
                out += name + String(repeating: " ", count: max(1, width - name.count + 2)) + courses(entry) + "  " + link(entry) + "\n"
            }
            return out
        case .markdown:
            var out = "# Teachers as of \(when)\n\n"
            if entries.isEmpty { return out + "No course names a teacher.\n" }
            out += "| Teacher | Courses | Folder |\n|---|---:|---|\n"
            for entry in entries {
                out += "| \(MarkdownRenderer.escape(entry.name)) | \(entry.courses) | [\(entry.folder)](\(link(entry))) |\n"
            }
            return out
        case .json:
            let rows = entries.map { entry -> JSONValue in
                .object([("teacher", .string(entry.name)), ("courses", .int(entry.courses)), ("folder", .string(entry.folder))])
            }
            return JSONValue.object([
                ("schema", .int(1)), ("kind", .string("teachers")), ("as_of", .string(Timestamp.text(asOf))), ("teachers", .array(rows)),
            ]).rendered() + "\n"
        case .csv:
            return CSVWriter.line(["teacher", "courses", "folder"])
                + entries.map { CSVWriter.line([$0.name, String($0.courses), $0.folder]) }.joined()
        case .html:
            var body = "<table>\n<caption>Teachers and their report folders</caption>\n"
            body += "<thead><tr><th scope=\"col\">Teacher</th><th scope=\"col\">Courses</th></tr></thead>\n<tbody>\n"
            for entry in entries {
                body +=
                    "<tr><th scope=\"row\"><a href=\"\(HTMLRenderer.escape(link(entry)))\">\(HTMLRenderer.value(entry.name))</a></th><td>\(entry.courses)</td></tr>\n"
            }
            body += "</tbody>\n</table>\n"
            if entries.isEmpty { body = "<p>No course names a teacher.</p>\n" }
            return HTMLRenderer.page(
                title: "Teachers as of \(when)", heading: "Teachers", report: frame, nav: nil, body: HTMLRenderer.banner(frame) + body)
        }
    }

    /// The index of a teacher without live courses: the empty state, in `format`.
    package static func noCourses(_ teacher: String, format: ReportFormat, frame: Report) -> String {
        let when = ReportWords.asOf(frame.asOf, in: frame.query.displayTimeZone)
        let words = "No course in the data names \(ReportWords.visible(teacher)) as its teacher."
        let next = "Courses appear here when the school's export assigns them; your administrator can check it."
        switch format {
        case .text: return "Courses as of \(when)\n\n\(words)\n\(next)\n"
        case .markdown: return "# Courses as of \(when)\n\n\(MarkdownRenderer.escape(words))\n\n\(MarkdownRenderer.escape(next))\n"
        case .json:
            return JSONValue.object([
                ("schema", .int(1)), ("kind", .string("grid")), ("as_of", .string(Timestamp.text(frame.asOf))),
                ("state", .string("no_courses")), ("teacher", .string(teacher)), ("message", .string(words + " " + next)),
                ("courses", .array([])),
            ]).rendered() + "\n"
        case .csv: return CSVWriter.line(["course_id", "code", "title"])
        case .html:
            let body =
                HTMLRenderer.banner(frame)
                + "<section class=\"state\" aria-label=\"Nothing to show\"><h2>No courses</h2><p>No course in the data names \(HTMLRenderer.value(teacher)) as its teacher.</p><p>\(HTMLRenderer.escape(next))</p></section>\n"
            return HTMLRenderer.page(title: "Courses as of \(when)", heading: "Courses", report: frame, nav: nil, body: body)
        }
    }
}
