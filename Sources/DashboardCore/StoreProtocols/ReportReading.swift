import Foundation

/// A live task as stored, before any policy: its record and the override stored for it, if any.
/// `ReportSource` gives it its bucket (`BucketPolicy`) in its course's zone (`CourseZones`).
package struct LiveTask: Sendable, Equatable {
    package var task: TaskRecord
    package var override: StoredOverride?

    package init(task: TaskRecord, override: StoredOverride?) {
        self.task = task
        self.override = override
    }
}

/// Which live tasks `ReportReading.forEachLiveTask` reads.
package enum TaskSelection: Sendable, Equatable {
    /// Every live task.
    case all
    /// The live tasks of these courses (by course id); none when the list is empty. A store
    /// finds them without reading the others (SQLite: the `tasks_by_course` index).
    case courses([String])
    /// The tasks whose ids the read's `PageKeys` hold at places `offset + 1 … offset + count`
    /// in key order (key, then task id): one page of a list.
    case keptPage(offset: Int, count: Int)
    /// The tasks whose keys are the `count` first the read's `PageKeys` hold after `key` in key
    /// order (from the first when `key` is empty): a long list read in order a chunk at a time,
    /// each chunk found by its key, not by its place (no offset to skip).
    case keptAfter(key: [UInt8], count: Int)
}

/// The read side of the store for reports (`ReportSource`, `ReportStream`,
/// `ReportCourseStream`, `ReportListStream`, `ReportSetStream`).
///
/// Policy: the store only reads and decodes; it decides nothing. Buckets, zones, filters, sort
/// order and the page's bounds are decided above it, by the pure stages. Call the methods inside
/// one `read` so that a report sees one snapshot.
package protocol ReportReading: SnapshotReading {
    /// Every live course, by course id; when `only` is not empty, only the courses whose id or
    /// code is one of its values.
    func liveCourses(only: [String]) throws -> [CourseRecord]

    /// Calls `body` with each selected live task, by task id, one at a time (nothing is kept:
    /// memory does not grow with the number of tasks).
    /// - Parameter countsOnly: leave titles and students empty (a grid without a search or a
    ///   student filter shows counts only; not reading a million titles halves its time).
    func forEachLiveTask(_ selection: TaskSelection, countsOnly: Bool, _ body: (LiveTask) throws -> Void) throws

    /// Calls `course` with each live course (or only those whose id or code is in `only`), by
    /// course id, each followed by `task` with every one of its live tasks (in no set order)
    /// before the next course: one course at a time, nothing kept (SQLite: the
    /// `tasks_by_course` index). Tasks of a course that is not live are not read.
    func forEachLiveCourse(
        only: [String], countsOnly: Bool, course: (CourseRecord) throws -> Void, task: (LiveTask) throws -> Void
    ) throws

    /// A new, empty set of per-course results for this read (`CourseResults`); several may be
    /// open at once (a grid's and a list's).
    func courseResults() throws -> any CourseResults

    /// A new, empty set of page keys for this read (one at a time), for lists too long to
    /// keep the sort keys of a page's window in memory (`PageWindow`).
    func pageKeys() throws -> any PageKeys

    /// True when the store can prove that every stored value, bucket and pin is as the
    /// dashboard wrote them and that its counts per stored bucket are those of its tasks
    /// (SQLite: `DataMarks.valuesHold`). Only then does a grid start from the counts
    /// (`storedBucketCounts`, `forEachUnsettledTask`).
    func storedBucketsHold() throws -> Bool

    /// The live tasks of each course per stored bucket (course id → bucket name → tasks). Call
    /// inside a `read`.
    func storedBucketCounts() throws -> [String: [String: Int]]

    /// Calls `body` with every live task whose stored bucket is not settled in `window`
    /// (`BucketPolicy.settledBucket`'s rule, as the time pass applies it:
    /// `CategorizePass.settledSQL`), in no set order, with its override and its stored bucket
    /// (titles and students left empty): the tasks a grid puts in their buckets itself. Call
    /// inside a `read`.
    func forEachUnsettledTask(settledIn window: BucketPolicy.SettledWindow, _ body: (LiveTask, String) throws -> Void) throws

    /// Calls `body` with every live task that is not settled in `window` or that is found: every
    /// word of `words` may be in it (`SearchWord`: the store's test) and `found` says it is, from
    /// its course id, its title as UTF-8 (valid only during that call) and whether the store
    /// decided that the task holds every word (`passed`: its title's fold or a course of the
    /// word's holds each; the title may then be given empty, unread; false when the store could
    /// not decide, or did not test it, as for an unsettled task it returns anyway). In no set order: the row (`SearchCandidate`), a
    /// function that gives the task's values that decide its bucket (due, completed, override;
    /// titles and students left empty) and one that reads the whole task (titles and students)
    /// when the caller needs it, both only during that call. A task no word's test passes is
    /// never in the search: the store need not return it unless it is unsettled, and may ask
    /// `found` of any task it returns. Call inside a `read`.
    func forEachSearchCandidate(
        settledIn window: BucketPolicy.SettledWindow, words: [SearchWord], found: SearchCandidate.Finder,
        _ body: (_ row: SearchCandidate, _ values: () -> LiveTask, _ task: () throws -> LiveTask) throws -> Void
    ) throws
}

/// One task of `ReportReading.forEachSearchCandidate`, before its task is read.
package struct SearchCandidate: Sendable, Equatable {
    package var courseID: String
    package var storedBucket: String
    /// True when the task is not settled in the window (its bucket may have moved).
    package var unsettled: Bool
    /// True when `found` found it.
    package var found: Bool

    package init(courseID: String, storedBucket: String, unsettled: Bool, found: Bool) {
        (self.courseID, self.storedBucket, self.unsettled, self.found) = (courseID, storedBucket, unsettled, found)
    }

    /// The search's answer for a task, from its course id, its title as UTF-8 (empty, unread, when
    /// `passed`) and whether the store decided that it holds every word
    /// (`ReportReading.forEachSearchCandidate`).
    package typealias Finder = (_ courseID: String, _ title: UnsafeBufferPointer<UInt8>, _ passed: Bool) -> Bool
}

/// One folded ASCII word of a search, with no capital letter, as the store tests it
/// (`ReportReading.forEachSearchCandidate`): a task may hold it when its course's text does
/// (`courses`), when its title holds it in any case of its ASCII letters (what the fold of an
/// ASCII title is: `TextFold.asciiFoldIsLowercase`), when the title's stored fold holds its
/// bytes (SQLite, `TitleFolds`), or when the store cannot tell (then only the fold can).
package struct SearchWord: Sendable, Equatable {
    package var word: String
    package var courses: [String]
}

extension ReportReading {
    /// False: a store that cannot prove its stored buckets, values and counts gives none; the
    /// grid then puts every task in its bucket itself.
    package func storedBucketsHold() throws -> Bool { false }

    /// Not called when `storedBucketsHold` is false.
    package func storedBucketCounts() throws -> [String: [String: Int]] { [:] }

    /// Not called when `storedBucketsHold` is false.
    package func forEachUnsettledTask(settledIn window: BucketPolicy.SettledWindow, _ body: (LiveTask, String) throws -> Void) throws {}

    /// Not called when `storedBucketsHold` is false.
    package func forEachSearchCandidate(
        settledIn window: BucketPolicy.SettledWindow, words: [SearchWord], found: SearchCandidate.Finder,
        _ body: (_ row: SearchCandidate, _ values: () -> LiveTask, _ task: () throws -> LiveTask) throws -> Void
    ) throws {}
}

/// Sort keys of listed tasks kept by the store, not in memory, for the length of one `read`
/// (SQLite: a TEMP table, on disk in a bounded page cache). `TaskSelection.keptPage` reads a
/// page of them back in key order.
package protocol PageKeys: AnyObject {
    /// Keeps one task's sort key.
    func add(_ key: [UInt8], taskID: String) throws
    /// Called once every key is in, when there are many: lets the store read a page of them in
    /// key order without sorting them all (SQLite: an index). Without it a page is still read
    /// right, only slower.
    func prepareOrderedReading() throws
    /// Lets the keys go (the end of the report's read).
    func drop()
}
