import Foundation

/// One teacher's folder of a per-teacher report set (`--by-teacher`, `nightly`).
package struct TeacherEntry: Sendable, Equatable {
    /// The teacher as the courses file names them.
    package var name: String
    /// Their live courses.
    package var courses: Int
    /// Their courses' tasks per bucket, when their folder was written (the teachers' index
    /// shows what needs each of them).
    package var counts: BucketCounts?

    package init(name: String, courses: Int) {
        self.name = name
        self.courses = courses
    }

    /// The folder under `teachers/` (`TeacherIndex.folderName`).
    package var folder: String { TeacherIndex.folderName(name) }
}

/// The per-teacher report set: `DIR/teachers/<folder>/` holds one teacher's grid and course
/// pages, `DIR/teachers/unassigned/` those of the courses without a teacher, and
/// `DIR/teachers/index.<ext>` lists every teacher, and the courses without one, for the
/// administrator.
///
/// Policy: a teacher's folder is `<slug>-<hash>`: the name's ASCII letters and digits,
/// lowercased, runs of anything else as `-` (at most 36 characters), then the first 8 hex
/// digits of the name's SHA-256, so two names never share a folder and the name cannot reach
/// outside `teachers/` (no separator, no leading dot). Teachers are the distinct non-empty
/// `teacher` values of the courses, live or deleted: a teacher whose courses were all removed
/// keeps a folder, with a page that says so, so that a bookmark never breaks. Courses without a
/// teacher (issue 27) go into `unassigned`: a name without a dash and a hash, so no teacher's
/// folder is ever called so (a teacher named "Unassigned" gets `unassigned-<hash>`); it is there
/// while any course, live or deleted, names no teacher, and the index lists it apart, as what it
/// is: not a person.
package enum TeacherIndex {
    package static let folder = "teachers"
    /// The folder of the courses without a teacher, inside `teachers/`.
    package static let unassignedFolder = "unassigned"
    /// The header of its grid.
    package static let unassignedName = "Courses without a teacher"

    package static func folderName(_ teacher: String) -> String {
        ReportFileNames.slug(teacher) + "-" + ReportFileNames.shortHash(teacher)
    }

    /// Whether `name` could be a folder of `teachers/` as `folderName` makes it, or the folder of
    /// the courses without a teacher (`ReportSetLayout`).
    package static func couldBeFolder(_ name: String) -> Bool {
        name == unassignedFolder || ReportFileNames.isSlugAndHash(Substring(name))
    }

    /// "1 course", "12 courses".
    static func courses(_ count: Int) -> String { count == 1 ? "1 course" : "\(count) courses" }

    /// "2 courses have no teacher", "1 course has no teacher", or, when every such course was
    /// deleted since (the folder stays), "No live course is without a teacher".
    package static func unassignedWords(_ live: Int) -> String {
        switch live {
        case 0: return "No live course is without a teacher"
        case 1: return "1 course has no teacher"
        default: return "\(live) courses have no teacher"
        }
    }

    /// The index of teachers in `format`, each linked to its folder's index (HTML, Markdown),
    /// then the folder of the courses without a teacher when there is one.
    /// - Parameter frame: a report without courses of the same run (its as-of, zone, banner).
    package static func render(
        _ entries: [TeacherEntry], unassigned: UnassignedCourses = .none, format: ReportFormat, frame: Report
    ) -> String {
        let ext = format.fileExtension
        let asOf = frame.asOf
        let when = ReportWords.asOf(asOf, in: frame.query.displayTimeZone)
        let link = { (entry: TeacherEntry) in entry.folder + "/" + ReportFileNames.index(ext) }
        let apart = unassigned.all > 0
        let unassignedLink = unassignedFolder + "/" + ReportFileNames.index(ext)
        let none = "No course names a teacher."
        switch format {
        case .text:
            var out = "Teachers as of \(when)\n\n"
            if entries.isEmpty { out += none + "\n" }
            let width = min(40, entries.map { ReportWords.visible($0.name).count }.max() ?? 0)
            for entry in entries {
                let name = ReportWords.visible(entry.name)
                out +=
                    name + String(repeating: " ", count: max(1, width - name.count + 2)) + courses(entry.courses) + "  " + link(entry)
                    + "\n"
            }
            if apart { out += "\n\(unassignedWords(unassigned.live)): \(unassignedLink)\n" }
            return out
        case .markdown:
            var out = "# Teachers as of \(when)\n\n"
            if entries.isEmpty {
                out += none + "\n"
            } else {
                out += "| Teacher | Courses | Folder |\n|---|---:|---|\n"
                for entry in entries {
                    out += "| \(MarkdownRenderer.escape(entry.name)) | \(entry.courses) | [\(entry.folder)](\(link(entry))) |\n"
                }
            }
            if apart {
                out += "\n## \(unassignedName)\n\n\(unassignedWords(unassigned.live)): [\(unassignedFolder)](\(unassignedLink))\n"
            }
            return out
        case .json:
            let rows = entries.map { entry -> JSONValue in
                .object([("teacher", .string(entry.name)), ("courses", .int(entry.courses)), ("folder", .string(entry.folder))])
            }
            let apartJSON: JSONValue =
                apart ? .object([("courses", .int(unassigned.live)), ("folder", .string(unassignedFolder))]) : .null
            return JSONValue.object([
                ("schema", .int(ReportJSONSchema.version)), ("kind", .string("teachers")), ("as_of", .string(Timestamp.text(asOf))),
                ("teachers", .array(rows)),
                ("unassigned", apartJSON),
            ]).rendered() + "\n"
        case .csv:
            // `kind` tells a teacher's row from the row of the courses without one (its teacher
            // empty), so no reader takes that row for a person.
            var out = CSVWriter.line(["teacher", "courses", "folder", "kind"])
            out += entries.map { CSVWriter.line([$0.name, String($0.courses), $0.folder, "teacher"]) }.joined()
            if apart { out += CSVWriter.line(["", String(unassigned.live), unassignedFolder, "unassigned"]) }
            return out
        case .html:
            let lexicon = frame.query.lexicon
            let label = { (phrase: Phrase) in HTMLRenderer.escape(lexicon(phrase)) }
            var body = "<table>\n<caption>\(label(.teachersCaption))</caption>\n"
            body += "<thead><tr><th scope=\"col\">\(label(.colTeacher))</th><th scope=\"col\">\(label(.colCourses))</th>"
            body +=
                "<th scope=\"col\">\(label(.titleOverdue))</th><th scope=\"col\">\(label(.titleToday))</th></tr></thead>\n<tbody>\n"
            for entry in entries {
                let counts = entry.counts ?? BucketCounts()
                body +=
                    "<tr><th scope=\"row\"><a href=\"\(HTMLRenderer.escape(link(entry)))\">\(HTMLRenderer.value(entry.name))</a></th><td>\(entry.courses)</td>"
                    + "<td>\(counts[.overdue])</td><td>\(counts[.today])</td></tr>\n"
            }
            body += "</tbody>\n</table>\n"
            if entries.isEmpty { body = "<p>\(none)</p>\n" }
            if apart {
                body +=
                    "<section aria-labelledby=\"unassigned\">\n<h2 id=\"unassigned\">\(unassignedName)</h2>\n"
                    + "<p><a href=\"\(HTMLRenderer.escape(unassignedLink))\">\(unassignedWords(unassigned.live))</a> "
                    + "(the folder \(unassignedFolder), not a teacher's).</p>\n</section>\n"
            }
            return HTMLRenderer.page(
                title: lexicon(.titleAsOf, lexicon(.teachers), lexicon.asOf(asOf, in: frame.query.displayTimeZone)),
                heading: lexicon(.teachers), report: frame, nav: nil, body: HTMLRenderer.banner(frame) + body)
        }
    }

    /// The index of a teacher without live courses: the empty state, in `format`.
    package static func noCourses(_ teacher: String, format: ReportFormat, frame: Report) -> String {
        let frame = frame.worded(for: format)
        let lexicon = frame.query.lexicon
        return emptyState(
            heading: lexicon(.courses), words: lexicon(.noCourseNamesTeacher, ReportWords.visible(teacher)),
            wordsHTML: lexicon.markup(.noCourseNamesTeacher, HTMLRenderer.value(teacher), escape: HTMLRenderer.escape),
            next: lexicon(.coursesAppearWhen), json: [("teacher", .string(teacher))], format: format, frame: frame)
    }

    /// The index of the folder of courses without a teacher when every such course was deleted.
    package static func noUnassignedCourses(format: ReportFormat, frame: Report) -> String {
        let words = "Every live course in the data names a teacher."
        let next = "A course whose teacher is empty in the school's export appears here."
        // The administrator's folder: English, as the rest of the teachers' index's words.
        var frame = frame
        frame.query.lexicon = .english
        return emptyState(
            heading: unassignedName, words: words, wordsHTML: HTMLRenderer.escape(words), next: next,
            json: [("teacher", .string("")), ("unassigned", .bool(true))], format: format, frame: frame)
    }

    /// An empty set's index: `heading` as of the frame's time, `words` and `next`, in `format`.
    static func emptyState(
        heading: String, words: String, wordsHTML: String, next: String, json: [(String, JSONValue)], format: ReportFormat,
        frame: Report
    ) -> String {
        let lexicon = frame.query.lexicon
        let title = lexicon(.titleAsOf, heading, lexicon.asOf(frame.asOf, in: frame.query.displayTimeZone))
        switch format {
        case .text: return "\(title)\n\n\(words)\n\(next)\n"
        case .markdown: return "# \(title)\n\n\(MarkdownRenderer.escape(words))\n\n\(MarkdownRenderer.escape(next))\n"
        case .json:
            return JSONValue.object(
                [
                    ("schema", .int(ReportJSONSchema.version)), ("kind", .string("grid")), ("as_of", .string(Timestamp.text(frame.asOf))),
                    ("state", .string("no_courses")),
                ] + json + [("message", .string(words + " " + next)), ("courses", .array([]))]
            ).rendered() + "\n"
        case .csv: return CSVWriter.line(["course_id", "code", "title"])
        case .html:
            let body =
                HTMLRenderer.banner(frame)
                + "<section class=\"state\" aria-label=\"\(HTMLRenderer.escape(lexicon(.nothingToShow)))\"><h2>\(HTMLRenderer.escape(lexicon(.noCoursesHeading)))</h2><p>\(wordsHTML)</p><p>\(HTMLRenderer.escape(next))</p></section>\n"
            return HTMLRenderer.page(title: title, heading: heading, report: frame, nav: nil, body: body)
        }
    }
}
