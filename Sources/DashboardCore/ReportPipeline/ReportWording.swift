/// A place where a report points its reader at the command line: the library names the place,
/// the shell words it (issue 12, part 3: the library holds no flag and no command line).
public enum ReportHint: Sendable, Equatable {
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
}

/// The searches and filters a report query holds, in the order reports name them.
public enum ReportFilter: String, Sendable, CaseIterable {
    case search, course, teacher, student, bucket, priority
}

/// How a report words its hints, given by the shell that asked for the report (the command
/// line gives its flags and commands). Two wordings are equal when their names are.
public struct ReportWording: Sendable, Equatable {
    public var name: String
    public var words: @Sendable (ReportHint) -> String

    public init(name: String, words: @escaping @Sendable (ReportHint) -> String) {
        self.name = name
        self.words = words
    }

    public static func == (a: ReportWording, b: ReportWording) -> Bool { a.name == b.name }

    /// The wording of a report no shell has worded: each hint by a plain name.
    public static let unworded = ReportWording(name: "unworded") { hint in
        switch hint {
        case .importFiles: return "the import"
        case .listCourses: return "The grid report"
        case .includeCompleted: return "include-completed"
        case .runImport: return "the import"
        case .filter(let filter): return filter.rawValue
        case .page(let page): return "page \(page)"
        case .showBatch(let id): return "batch \(id)"
        case .narrowing: return "the search and filters"
        }
    }
}
