import Foundation

/// What changed in one course since the previous import (`Overnight`).
public struct CourseChanges: Sendable, Equatable {
    /// Tasks an import created (live now).
    public var new = 0
    /// Tasks that moved into overdue (by time or by an import).
    public var nowOverdue = 0
    /// Tasks that moved into completed.
    public var completed = 0
    /// Tasks an import turned in (SPEC §11: moved into `to_grade`).
    public var handedIn = 0
    /// Tasks that moved into excused (by an import, or excused by hand: also pinned).
    public var excused = 0
    /// Tasks pinned by hand (`reclassify`).
    public var pinned = 0
    /// Tasks whose pin was taken back by hand (`revert` of an override).
    public var unpinned = 0
    /// Tasks deleted (by a sync, or a revert of the batch that made them).
    public var deleted = 0

    public init() {}

    public var isEmpty: Bool { self == CourseChanges() }

    package static func + (a: CourseChanges, b: CourseChanges) -> CourseChanges {
        var sum = a
        sum.new += b.new
        sum.nowOverdue += b.nowOverdue
        sum.completed += b.completed
        sum.handedIn += b.handedIn
        sum.excused += b.excused
        sum.pinned += b.pinned
        sum.unpinned += b.unpinned
        sum.deleted += b.deleted
        return sum
    }
}

/// "What changed overnight": per course, the changes since the previous import, from the
/// batches and the audit log. A value: the store gives the counts (`BatchReading.changeCounts`),
/// `read` decides the window.
///
/// Policy (docs/reports.md, "What changed overnight"):
/// - the window opens at the as-of of the committed import before the newest one, so that a
///   report after a night shows that night's import, the moves of the time since the import
///   before it, and what was done by hand since (a pin, a revert); audit entries of that
///   earlier import's own night (its as-of) are not in it;
/// - when the newest import attempt after the newest committed one failed or was held (or the
///   night's export did not arrive), nothing was imported since the newest committed import: the
///   window opens at its as-of instead, and the report says why (`state`), never counting the
///   earlier night's changes as tonight's;
/// - with a single committed import there is nothing to compare with (`firstImport`): no counts;
/// - new: live tasks a committed import in the window created; now overdue, completed, handed
///   in, excused, pinned, unpinned, deleted: distinct tasks with an audit entry of that kind in
///   the window (a task that moved twice counts once per kind).
public struct Overnight: Sendable, Equatable {
    /// Why the counts are what they are.
    public enum State: String, Sendable, Equatable {
        /// The counts of the window.
        case changes
        /// One committed import only: nothing to compare with.
        case firstImport = "first_import"
        /// The newest import attempt failed: only the time's moves and hand changes are counted.
        case importFailed = "import_failed"
        /// The newest import attempt is held for approval: its changes are not in the data.
        case importHeld = "import_held"
        /// The night's export did not arrive.
        case noExport = "no_export"
    }

    public var state: State
    /// The window's start: the as-of it counts from (nil for `firstImport`).
    public var since: Date?
    /// The batch the failed or held state is about.
    package var batch: Int?
    /// Each course with changes, by course id.
    public var byCourse: [String: CourseChanges]

    public init(state: State, since: Date?, batch: Int? = nil, byCourse: [String: CourseChanges]) {
        self.state = state
        self.since = since
        self.batch = batch
        self.byCourse = byCourse
    }

    /// The changes of a course (none when it has no entry).
    public func changes(_ courseID: String) -> CourseChanges { byCourse[courseID] ?? CourseChanges() }

    /// What a card of the course shows: its changes, or nil when there is no window to count in
    /// (`firstImport`).
    package func cardChanges(_ courseID: String) -> CourseChanges? { state == .firstImport ? nil : changes(courseID) }

    /// A card of `course` with its changes and their words, as of `asOf` (words shown in `zone`).
    package func card(_ card: CourseCard, asOf: Date, zone: TimeZone?) -> CourseCard {
        var card = card
        card.changes = cardChanges(card.course.courseID)
        if let changes = card.changes, !changes.isEmpty {
            card.changesWords = OvernightWords.line(changes, self, asOf: asOf, zone: zone)
        }
        return card
    }

    /// The sum over `courses` (the report's own), or over every course when nil.
    package func total(of courses: Set<String>? = nil) -> CourseChanges {
        byCourse.reduce(CourseChanges()) { sum, entry in
            courses.map { $0.contains(entry.key) } ?? true ? sum + entry.value : sum
        }
    }

    /// The window of a report as of `asOf` from the batches, and its counts.
    /// - Parameter noExport: the run that writes the report found no export (`nightly`).
    /// - Returns: nil before any committed import.
    package static func read(_ batches: any BatchReading, asOf: Date, noExport: Bool = false) throws -> Overnight? {
        let imports = try batches.committedImports(limit: 2)
        guard let newest = imports.first else { return nil }
        let attempt = try batches.newestBatch(statusIn: [.failed, .held])
        var state = State.changes
        var batch: Int?
        if let attempt, attempt.id > newest.id {
            state = attempt.status == .held ? .importHeld : .importFailed
            batch = attempt.id
        } else if noExport {
            state = .noExport
        }
        // Nothing imported since the newest committed import: the window opens at it.
        let opening = state == .changes ? (imports.count > 1 ? imports[1] : nil) : newest
        guard let opening else { return Overnight(state: .firstImport, since: nil, byCourse: [:]) }
        let counts = try batches.changeCounts(afterBatch: opening.id, asOfAfter: opening.asOf, asOfThrough: Timestamp.text(asOf))
        return Overnight(
            state: state, since: Timestamp.parse(opening.asOf, timeZone: TimeZone(identifier: "UTC") ?? .current), batch: batch,
            byCourse: counts)
    }
}
