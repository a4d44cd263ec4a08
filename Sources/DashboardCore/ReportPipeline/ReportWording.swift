/// A place where a report points its reader at the command line: the library names the place,
/// the shell words it (issue 12, part 3: the library holds no flag and no command line).
package enum ReportHint: Sendable, Equatable {
    /// The command that imports the course and task files (no data yet).
    case importFiles
    /// The command that lists the courses (a course filter matched none).
    case listCourses
    /// The option that lists completed tasks.
    case includeCompleted
    /// The command that runs the import (the data is old).
    case runImport
    /// The option of one search or filter, to drop it.
    case filter(ReportFilter)
    /// The option that asks for this page.
    case page(Int)
    /// The command that shows a failed batch.
    case showBatch(Int)
    /// The search and filters as the user gave them.
    case narrowing(ReportQuery)
    /// The grant that lets a database role read a teacher's courses (the role sees none).
    case grantCourses(role: String)
}

/// The searches and filters a report query holds, in the order reports name them.
package enum ReportFilter: String, Sendable, CaseIterable {
    case search, course, teacher, student, bucket, priority, status, late
    case dueWithin = "due-within"
    case dueBefore = "due-before"
    case dueAfter = "due-after"
}

/// How a report words its hints, given by the shell that asked for the report (the command
/// line gives its flags and commands). Two wordings are equal when their names are.
package struct ReportWording: Sendable, Equatable {
    package var name: String
    /// Pages for readers (teachers) rather than for whoever runs the program: their banners
    /// and notes say what a state means for the page and name no command, flag, code or batch
    /// (`StaleNotice.readerMessage`); the details fold away for the administrator in HTML.
    package var forReaders: Bool
    package var words: @Sendable (ReportHint) -> String

    package init(name: String, forReaders: Bool = false, words: @escaping @Sendable (ReportHint) -> String) {
        self.name = name
        self.forReaders = forReaders
        self.words = words
    }

    package static func == (a: ReportWording, b: ReportWording) -> Bool { a.name == b.name }

    /// The wording of a report no shell has worded: each hint by a plain name.
    package static let unworded = ReportWording(name: "unworded") { hint in
        switch hint {
        case .importFiles: return "the import"
        case .listCourses: return "The grid report"
        case .includeCompleted: return "include-completed"
        case .runImport: return "the import"
        case .filter(let filter): return filter.rawValue
        case .page(let page): return "page \(page)"
        case .showBatch(let id): return "batch \(id)"
        case .narrowing: return "the search and filters"
        case .grantCourses: return "a grant of your courses"
        }
    }

    /// The wording of pages written for teachers (`nightly`, `--by-teacher`): plain names, and
    /// `forReaders` set. The command line's own wording stays in the executable.
    package static let readers = ReportWording(name: "readers", forReaders: true) { hint in
        switch hint {
        case .importFiles, .runImport: return "the nightly import"
        case .listCourses: return "The course grid"
        case .includeCompleted: return "the list of completed tasks"
        case .filter(let filter): return "the \(filter.rawValue) filter"
        case .page(let page): return "page \(page)"
        case .showBatch: return "the import's record"
        case .narrowing(let query): return query.plainWords
        case .grantCourses: return "a grant of your courses"
        }
    }
}

extension ReportQuery {
    /// The search and filters in plain words, without a flag, for pages written for teachers:
    /// `teacher okafor, bucket overdue` (a value with a space or a quote in quotes); "the search
    /// and filters" when there are none.
    var plainWords: String {
        func quoted(_ value: String) -> String {
            value.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "'" }) || value.isEmpty
                ? "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\"" : value
        }
        var parts: [String] = []
        let words = search.trimmingUnicodeWhitespace()
        if !words.isEmpty { parts.append("search \(quoted(words))") }
        parts += courses.map { "course \(quoted($0))" }
        parts += teachers.map { "teacher \(quoted($0))" }
        parts += students.map { "student \(quoted($0))" }
        parts += buckets.map { "bucket \($0.rawValue)" }
        parts += priorities.map { "priority \($0.rawValue)" }
        parts += statuses.map { "status \($0.rawValue)" }
        if late { parts.append("handed in late") }
        parts += due.within.map { "due within \($0) day\($0 == 1 ? "" : "s")" }
        parts += due.before.map { "due before \($0.isoText)" }
        parts += due.after.map { "due after \($0.isoText)" }
        return parts.isEmpty ? "the search and filters" : parts.joined(separator: ", ")
    }
}
