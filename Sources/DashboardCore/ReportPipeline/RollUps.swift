import Foundation

/// How a list groups its rows (`--group-by`).
package enum ReportGrouping: String, Sendable, CaseIterable {
    /// Per course, one section per bucket (the default).
    case bucket
    /// Per course, one row per assignment (the tasks' `assignment_id`, else their title) with
    /// its due, its students and a count per bucket.
    case assignment
    /// Per student, their tasks across courses.
    case student
}

/// One assignment of a course in a roll-up by assignment.
package struct AssignmentRow: Sendable, Equatable {
    /// The tasks' `assignment_id`; "" when they have none (the row is keyed by title).
    package var assignmentID: String
    /// The assignment's title: that of its task with the smallest task id.
    package var title: String
    /// The earliest and the latest due of its listed tasks (stored due texts; "" when none
    /// of them is dated).
    package var firstDue: String
    package var lastDue: String
    /// Distinct students among its listed tasks (tasks without a student not counted).
    package var students: Int
    /// Its listed tasks per bucket (after search and filters).
    package var counts: BucketCounts
    /// Every live task of the assignment, before search and filters.
    package var live: Int
    /// The most whole days late among its listed late tasks (`TaskRowWords.daysLate`); nil
    /// when none is late.
    package var daysLate: Int?
    /// What its live tasks say of hand-ins (SPEC §11), before search and filters like `live`.
    package var handIns: HandIns

    package init(
        assignmentID: String, title: String, firstDue: String, lastDue: String, students: Int, counts: BucketCounts, live: Int,
        daysLate: Int?, handIns: HandIns = HandIns()
    ) {
        self.handIns = handIns
        self.assignmentID = assignmentID
        self.title = title
        self.firstDue = firstDue
        self.lastDue = lastDue
        self.students = students
        self.counts = counts
        self.live = live
        self.daysLate = daysLate
    }

    /// Its listed tasks.
    package var matching: Int { counts.total }
}

/// An assignment's hand-ins (SPEC §11), counted over every live task of it: "12 of 30 handed
/// in, 4 late, 2 excused".
///
/// Policy: handed in = a task whose own state is submitted or completed (graded work was handed
/// in); late = one of those handed in after its due (`ReportPipeline.handedInLate`, in the
/// course's zone); excused = a task in the excused place (its state, or pinned by hand). A row
/// says it only when its data speaks of hand-ins (`known`: a task submitted, excused, or with a
/// hand-in time), so a file without §11's columns gives the roll-up it gave before.
package struct HandIns: Sendable, Equatable {
    package var handedIn = 0
    package var late = 0
    package var excused = 0
    package var known = false

    package init(handedIn: Int = 0, late: Int = 0, excused: Int = 0, known: Bool = false) {
        (self.handedIn, self.late, self.excused, self.known) = (handedIn, late, excused, known)
    }

    /// Counts one live task in its place (`bucket`: where the report puts it).
    package mutating func add(_ task: ReportTask, zone: TimeZone) {
        let state = task.task.state
        if state == .submitted || state == .completed { handedIn += 1 }
        if ReportPipeline.handedInLate(task.task, zone: zone) { late += 1 }
        if task.bucket == .excused { excused += 1 }
        if state == .submitted || state == .excused || task.bucket == .excused || !task.task.submittedAt.isEmpty { known = true }
    }
}

/// The roll-up of one course by assignment. Pure.
///
/// Policy (docs/reports.md, "Roll-ups"):
/// - a task belongs to its `assignment_id` when it has one, else to its title (exactly as
///   stored: titles are NFC, trimmed, their whitespace collapsed);
/// - a row counts the tasks the report lists (after search and filters) per bucket, and says
///   how many live tasks the assignment has in all and how many of them were handed in, late
///   and excused (`HandIns`); an assignment with no listed task has no row;
/// - its due is the earliest and the latest due of its listed tasks (in the course's zone); how
///   late, the most days late among them;
/// - rows by earliest due (undated last), then title in natural order, then assignment id;
///   with `--sort title`, by title, then due.
package enum AssignmentRollUp {
    /// The assignment a task belongs to: its `assignment_id`, else its title (two texts that
    /// cannot meet: each starts with its own mark).
    static func key(_ task: TaskRecord) -> String { key(assignmentID: task.assignmentID, title: task.title) }

    /// The key of a row (its tasks' key: a row keyed by title has exactly its tasks' title).
    static func key(_ row: AssignmentRow) -> String { key(assignmentID: row.assignmentID, title: row.title) }

    static func key(assignmentID: String, title: String) -> String {
        assignmentID.isEmpty ? "t\u{0}" + title : "a\u{0}" + assignmentID
    }

    /// The rows of one course: `all` every live task of the course in its bucket, `listed`
    /// the ones the report lists, as of `local` (the course's zone).
    package static func rows(all: [ReportTask], listed: [ReportTask], local: LocalAsOf, sort: ReportSort) -> [AssignmentRow] {
        struct Building {
            var row: AssignmentRow
            var titleTask: String
            var first: Int64?
            var last: Int64?
            var students: Set<String> = []
        }
        var rows: [String: Building] = [:]
        for task in all {
            let k = Self.key(task.task)
            if var existing = rows[k] {
                existing.row.live += 1
                existing.row.handIns.add(task, zone: local.timeZone)
                if task.task.taskID.utf8.lexicographicallyPrecedes(existing.titleTask.utf8) {
                    (existing.row.title, existing.titleTask) = (task.task.title, task.task.taskID)
                }
                rows[k] = existing
            } else {
                var handIns = HandIns()
                handIns.add(task, zone: local.timeZone)
                rows[k] = Building(
                    row: AssignmentRow(
                        assignmentID: task.task.assignmentID, title: task.task.title, firstDue: "", lastDue: "", students: 0,
                        counts: BucketCounts(), live: 1, daysLate: nil, handIns: handIns),
                    titleTask: task.task.taskID)
            }
        }
        for task in listed {
            let k = Self.key(task.task)
            guard var building = rows[k] else { continue }
            building.row.counts[task.bucket] += 1
            if !task.task.studentID.isEmpty { building.students.insert(task.task.studentID) }
            if let due = ReportPipeline.dueInstant(task.task.due, local.timeZone) {
                if building.first.map({ due < $0 }) ?? true { (building.first, building.row.firstDue) = (due, task.task.due) }
                if building.last.map({ due > $0 }) ?? true { (building.last, building.row.lastDue) = (due, task.task.due) }
            }
            if let late = TaskRowWords.daysLate(task, at: local) { building.row.daysLate = max(building.row.daysLate ?? 0, late) }
            rows[k] = building
        }
        // Each row's place as a byte key made once (the order of `order(_:)`): a course can
        // have as many rows as tasks, and comparing titles in natural order costs far more.
        let shown = rows.values.filter { $0.row.matching > 0 }.map { building -> (key: [UInt8], row: AssignmentRow) in
            var row = building.row
            row.students = building.students.count
            return (orderKey(row, first: building.first, sort: sort), row)
        }
        return shown.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.row)
    }

    /// A row's place: by earliest due (undated last) then title in natural order, or by title
    /// then due (`--sort title`); then the assignment id and the title's bytes (no two rows of
    /// a course have both the same id and the same title, so the order is total).
    static func orderKey(_ row: AssignmentRow, first: Int64?, sort: ReportSort) -> [UInt8] {
        var key: [UInt8] = []
        func due() {
            key.append(first == nil ? 1 : 0)
            ReportSortKey.appendInteger(first ?? 0, to: &key)
        }
        func title() { ReportSortKey.appendBytes(ReportSortKey.natural(row.title), to: &key) }
        if sort == .title {
            title()
            due()
        } else {
            due()
            title()
        }
        ReportSortKey.appendBytes(Array(row.assignmentID.utf8), to: &key)
        ReportSortKey.appendBytes(Array(row.title.utf8), to: &key)
        return key
    }
}

/// A task of a roll-up by student, with its course.
package struct StudentTask: Sendable, Equatable {
    package var course: CourseRecord
    package var task: ReportTask

    package init(course: CourseRecord, task: ReportTask) {
        self.course = course
        self.task = task
    }
}

/// One student's tasks across courses (a roll-up by student): on a page, the part the page
/// shows, with the student's whole counts.
package struct StudentGroup: Sendable, Equatable {
    /// "" for tasks without a student (they come last).
    package var studentID: String
    /// The tasks shown, in bucket order, then the sort, then task id.
    package var tasks: [StudentTask]
    /// Every listed task of the student per bucket, every page together.
    package var counts: BucketCounts
    /// The place (1-based) of the first shown task among the student's tasks.
    package var first: Int

    package init(studentID: String, tasks: [StudentTask], counts: BucketCounts, first: Int = 1) {
        self.studentID = studentID
        self.tasks = tasks
        self.counts = counts
        self.first = first
    }

    package var total: Int { counts.total }
    package var last: Int { first + tasks.count - 1 }
    package var isWhole: Bool { first == 1 && tasks.count == total }
}

extension ReportSortKey {
    /// The first bytes of the key of every task of `studentID` in `bucket`, for a roll-up by
    /// student: students in natural order, tasks without a student last.
    package static func studentPrefix(_ studentID: String, bucket: Bucket) -> [UInt8] {
        var key: [UInt8] = [studentID.isEmpty ? 1 : 0]
        if !studentID.isEmpty { appendText(studentID, to: &key) }
        key.append(UInt8(truncatingIfNeeded: bucket.order))
        return key
    }

    /// The key of a task in a roll-up by student: its student, its bucket, the sort's steps,
    /// then its id (ids are unique across courses, so no two tasks tie).
    package static func studentKey(_ task: ReportTask, due: Int64?, sort: ReportSort) -> [UInt8] {
        key(prefix: studentPrefix(task.task.studentID, bucket: task.bucket), task: task, due: due, sort: sort)
    }
}

extension ReportPipeline {
    /// The group stage of a roll-up by student: every listed task of `courses` (filtered),
    /// grouped by student, each student's tasks in bucket order then `sort` (each due in its
    /// course's zone, `defaultTimeZone` for a course without one), then task id.
    package static func groupByStudent(_ courses: [ReportCourse], sort: ReportSort, defaultTimeZone: TimeZone) -> [StudentGroup] {
        var keyed: [(key: [UInt8], item: StudentTask)] = []
        for course in courses {
            let zone = CourseZones.timeZone(named: course.course.timezone, default: defaultTimeZone)
            for task in course.tasks {
                let key = ReportSortKey.studentKey(task, due: sortInstant(task, zone), sort: sort)
                keyed.append((key, StudentTask(course: course.course, task: task)))
            }
        }
        keyed.sort { $0.key.lexicographicallyPrecedes($1.key) }
        var groups: [StudentGroup] = []
        for (_, item) in keyed {
            if groups.last?.studentID != item.task.task.studentID || groups.isEmpty {
                groups.append(StudentGroup(studentID: item.task.task.studentID, tasks: [], counts: BucketCounts()))
            }
            groups[groups.count - 1].tasks.append(item)
            groups[groups.count - 1].counts[item.task.bucket] += 1
        }
        return groups
    }

    /// One page of a roll-up by student (`limit` tasks per page): the page's part of each
    /// student it shows, with the student's whole counts and the place of its first shown task.
    package static func paginateStudents(_ groups: [StudentGroup], limit: Int?, page: Int) -> (groups: [StudentGroup], page: PageInfo) {
        let total = groups.reduce(0) { $0 + $1.tasks.count }
        let info = ReportAssembly.page(total: total, limit: limit, page: page)
        guard let window = ReportAssembly.window(total: total, limit: limit, page: page) else { return ([], info) }
        var result: [StudentGroup] = []
        var index = 0
        for group in groups {
            let start = index
            index += group.tasks.count
            let from = max(window.offset, start)
            let to = min(window.offset + window.count, index)
            guard from < to else { continue }
            result.append(
                StudentGroup(
                    studentID: group.studentID, tasks: Array(group.tasks[(from - start)..<(to - start)]), counts: group.counts,
                    first: from - start + 1))
        }
        return (result, info)
    }
}

extension ReportPipeline {
    /// One page of a roll-up by assignment (`limit` rows per page): each course the page
    /// shows, with the page's part of its rows, its whole number of rows and the place of its
    /// first shown row. Courses without rows are left out (the caller adds them on page 1).
    package static func paginateAssignments(_ groups: [CourseGroup], limit: Int?, page: Int) -> (groups: [CourseGroup], page: PageInfo) {
        let total = groups.reduce(0) { $0 + $1.assignments.count }
        let info = ReportAssembly.page(total: total, limit: limit, page: page)
        guard let window = ReportAssembly.window(total: total, limit: limit, page: page) else { return ([], info) }
        var result: [CourseGroup] = []
        var index = 0
        for group in groups {
            let start = index
            index += group.assignments.count
            let from = max(window.offset, start)
            let to = min(window.offset + window.count, index)
            guard from < to else { continue }
            var shown = group
            shown.assignments = Array(group.assignments[(from - start)..<(to - start)])
            shown.assignmentTotal = group.assignments.count
            shown.assignmentFirst = from - start + 1
            result.append(shown)
        }
        return (result, info)
    }
}
