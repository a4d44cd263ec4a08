/// One course's result in a report, kept by the store between the two passes of a report flat
/// in courses (`ReportCoursePass`): the course, the sort key of its place in the report, and
/// the counts the report shows for it. The pure stages decide every value; the store only
/// keeps them and gives them back in key order.
package struct CourseResult: Sendable, Equatable {
    /// The course's place in the report: results are read back in this key's byte order
    /// (`ReportSortKey.course`: the report's course order; another order is another key).
    package var key: [UInt8]
    package var course: CourseRecord
    /// Tasks per bucket after search and filters.
    package var counts: BucketCounts
    /// Every live task of the course.
    package var live: Int
    /// Completed tasks that match the search and filters (a list says how many it leaves out).
    package var completed: Int
    /// A grid card whose course has a list page (the HTML index links it).
    package var linked: Bool
    /// A roll-up by assignment: the course's rows.
    package var rows: Int

    package init(key: [UInt8], course: CourseRecord, counts: BucketCounts, live: Int, completed: Int, linked: Bool, rows: Int = 0) {
        self.key = key
        self.course = course
        self.counts = counts
        self.live = live
        self.completed = completed
        self.linked = linked
        self.rows = rows
    }
}

/// Per-course results kept by the store, not in memory, for the length of one `read` (SQLite:
/// a TEMP table, on disk in a bounded page cache), like `PageKeys`: a report holds one course
/// at a time whatever the number of courses.
package protocol CourseResults: AnyObject {
    /// Keeps one course's result.
    func add(_ result: CourseResult) throws
    /// Called once every result is in: lets the store read them in key order without sorting
    /// them all at each reading (SQLite: an index).
    func prepareOrderedReading() throws
    /// Calls `body` with the results at places `offset + 1 … offset + count` (every one from
    /// `offset` when `count` is nil) in key order (ties by course id), one at a time.
    func forEach(offset: Int, count: Int?, _ body: (CourseResult) throws -> Void) throws
    /// Lets the results go (the end of the report's read).
    func drop()
}
