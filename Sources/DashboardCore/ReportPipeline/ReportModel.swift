import Foundation

/// A bucket's tasks inside one course.
public struct BucketSection: Sendable, Equatable {
    public var bucket: Bucket
    public var tasks: [ReportTask]
}

/// One course with its tasks grouped by bucket.
public struct CourseGroup: Sendable, Equatable {
    public var course: CourseRecord
    public var sections: [BucketSection]
    /// Every live task of the course, before search, filters and paging.
    public var liveTasks: Int = 0

    public var taskCount: Int { sections.reduce(0) { $0 + $1.tasks.count } }
}

/// A grid card: one course's counts.
public struct CourseCard: Sendable, Equatable {
    public var course: CourseRecord
    /// Tasks per bucket after search and filters (completed included in the counts).
    public var counts: BucketCounts
    /// Every live task of the course, before search and filters.
    public var total: Int

    public var shown: Int { counts.total }
    public func count(_ bucket: Bucket) -> Int { counts[bucket] }
}

/// Which page of how many.
public struct PageInfo: Sendable, Equatable {
    public var page: Int
    public var pageCount: Int
    public var limit: Int?
    public var totalItems: Int
    /// 1-based index of the first and last item on the page (0 when the page is empty).
    public var firstItem: Int
    public var lastItem: Int
}

/// The distinct states SPEC §7 names, each with its own words and next step.
public enum ReportState: String, Sendable, Equatable {
    /// Courses and tasks to show.
    case ok
    /// No data has been imported yet.
    case noData = "no_data"
    /// Search and filters hide every task.
    case noMatch = "no_match"
}

/// Why the data may not be current: a banner above the report.
public struct StaleNotice: Sendable, Equatable {
    /// The as-of of the last committed batch: the time of the data shown.
    public var dataAsOf: String
    /// Hours between the data's time and the report's as-of.
    public var ageHours: Int
    /// Set when the last import failed: its batch, time and reason.
    public var failedBatch: Int?
    public var failedAt: String
    public var failureReason: String

    /// The banner's text, the values exactly as stored.
    public var message: String { message(prose: { $0 }, value: { $0 }) }

    /// The banner's text with its own words passed through `prose` and the values read from the
    /// database (the failed batch's time and reason, which may name a file, and the data's
    /// time) through `value`: HTML escapes the words and isolates the values.
    public func message(prose: (String) -> String, value: (String) -> String) -> String {
        var text = ""
        if let failedBatch {
            text =
                prose("The last import (batch \(failedBatch), ") + value(failedAt) + prose(") failed: ") + value(failureReason)
                + prose(". ")
        }
        if dataAsOf.isEmpty { return text + prose("No data has been imported yet.") }
        let age = ageHours >= 48 ? "\(ageHours / 24) days old" : "\(ageHours) hour\(ageHours == 1 ? "" : "s") old"
        text += prose("Showing data as of ") + value(dataAsOf) + prose(" (\(age)).")
        return text
    }

    /// What to do about it, its commands in `wording`.
    public func nextStep(_ wording: ReportWording) -> String {
        failedBatch != nil
            ? "Fix the import (\(wording.words(.showBatch(failedBatch ?? 0)))) and run it again."
            : "Run the nightly import (\(wording.words(.runImport))), then report again."
    }
}

/// Facts about the database that reports need beyond the courses and tasks.
public struct ReportFacts: Sendable, Equatable {
    /// False before any batch committed data.
    public var hasData: Bool
    /// The as-of of the last committed batch.
    public var dataAsOf: Date?
    /// The last batch that is neither a dry run nor held, when it failed.
    public var lastFailure: (id: Int, at: String, reason: String)?

    public static func == (a: ReportFacts, b: ReportFacts) -> Bool {
        a.hasData == b.hasData && a.dataAsOf == b.dataAsOf && a.lastFailure?.id == b.lastFailure?.id
    }

    public init(hasData: Bool, dataAsOf: Date?, lastFailure: (id: Int, at: String, reason: String)?) {
        self.hasData = hasData
        self.dataAsOf = dataAsOf
        self.lastFailure = lastFailure
    }

    /// Data older than this before the report's as-of is stale.
    public static let staleAfterHours = 36

    /// The banner to show, if any.
    public func staleNotice(asOf: Date) -> StaleNotice? {
        guard let dataAsOf else {
            // Nothing committed yet, but an import was tried and failed: say so.
            guard let failure = lastFailure else { return nil }
            return StaleNotice(dataAsOf: "", ageHours: 0, failedBatch: failure.id, failedAt: failure.at, failureReason: failure.reason)
        }
        let seconds = asOf.timeIntervalSince(dataAsOf)
        let hours = Int(seconds / 3600)
        guard lastFailure != nil || seconds > TimeInterval(Self.staleAfterHours * 3600) else { return nil }
        return StaleNotice(
            dataAsOf: Timestamp.text(dataAsOf), ageHours: max(0, hours), failedBatch: lastFailure?.id,
            failedAt: lastFailure?.at ?? "", failureReason: lastFailure?.reason ?? "")
    }
}

/// The finished report, ready to render: the outcome of every pipeline stage.
public struct Report: Sendable {
    public enum Kind: String, Sendable { case grid, list }
    public var kind: Kind
    public var asOf: Date
    public var generatedAsOf: String { Timestamp.text(asOf) }
    public var defaultTimeZone: TimeZone
    public var query: ReportQuery
    public var state: ReportState
    public var stale: StaleNotice?
    /// Grid: the cards of this page.
    public var cards: [CourseCard]
    /// List: the groups of this page.
    public var groups: [CourseGroup]
    public var page: PageInfo
    /// Live tasks before search and filters (completed included).
    public var totalTasks: Int
    /// Tasks left after search and filters.
    public var matchingTasks: Int
    /// Tasks the search and filters hide (completed tasks hidden by default are not counted).
    public var hiddenTasks: Int
    /// Completed tasks per course id that match the search and filters (lists leave them out
    /// unless asked); only courses with at least one (a missing course has none).
    public var completedByCourse: [String: Int] = [:]
    /// Completed tasks that match the search and filters over every course (the sum of
    /// `completedByCourse` over every course, which a report flat in courses never holds).
    public var completedMatchingTasks = 0
    /// Live tasks read for the report that hold a stored value a hand edit made invalid (each
    /// is shown as invalid; `dashboard verify` lists them).
    public var invalidTasks = 0
}
