import Foundation

@testable import DashboardCore

/// Small random report data with many ties: titles and ids that differ only in digits, case,
/// accents or leading zeros; undated, pinned, handed-in, completed and excused tasks; codes that
/// sort naturally.
struct StreamingReportRandomData {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    /// SplitMix64.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    mutating func pick<T>(_ values: [T]) -> T { values[int(0...(values.count - 1))] }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    static let titles = [
        "Task 2", "Task 10", "task 2", "Task 02", "Task 010", "Essay", "essay", "Éssay", "Essay draft", "a", "", "b1c", "b01c",
        "b1c2", "007", "7", "Task", "Task 2 x", "Ωmega 3", "x9y", "x10", "Zeta", "zeta", "0", "00", "a\u{0}b",
    ]
    static let codes = ["MATH 2", "MATH 10", "math 2", "Bio", "BIO", "", "C1", "Chem 1"]
    static let teachers = ["Ann", "ann", "Bob", ""]
    static let zones = ["", "Europe/Berlin", "America/New_York", "Invalid/Zone", "UTC"]
    static let students = ["", "s1", "S10", "s2", "s02"]
    static let dues = [
        "", "2026-11-28", "2026-11-29", "2026-11-30", "2026-11-29T10:00:00", "2026-11-29T10:00:00Z", "2026-11-30T00:30:00",
        "2026-11-29T23:00:00Z",
    ]

    /// - Parameter count: how many courses; `tasks`: how many tasks each.
    mutating func courses(count range: ClosedRange<Int> = 0...5, tasks: ClosedRange<Int> = 0...30) -> [ReportCourse] {
        let count = int(range)
        var taskNumber = 0
        return (0..<count).map { number in
            let id = pick(["c\(number)", "C\(number)", "k\(number)"])
            let course = CourseRecord(
                courseID: id, code: pick(Self.codes), title: pick(["Algebra", "Biology", "Essays", ""]), term: "",
                teacher: pick(Self.teachers), timezone: pick(Self.zones))
            let tasks = (0..<int(tasks)).map { _ -> ReportTask in
                taskNumber += 1
                // Most tasks open; the closed states' places come from the state (SPEC §11), a
                // pin from the buckets an override may name.
                let state = chance(70) ? SubmissionState.open : pick([.submitted, .completed, .excused])
                let pinned = chance(20)
                let bucket = pinned ? pick(Bucket.pinnable) : Bucket.closed(state) ?? pick(Array(Bucket.original.prefix(4)))
                let record = TaskRecord(
                    taskID: pick(["T", "t", "T0"]) + String(taskNumber) + "-" + String(number), courseID: id, title: pick(Self.titles),
                    studentID: pick(Self.students), due: pick(Self.dues), priority: pick(Priority.allCases), state: state,
                    submittedAt: state == .submitted || state == .completed ? pick(Self.dues) : "")
                return ReportTask(task: record, bucket: bucket, pinned: pinned)
            }
            return ReportCourse(course: course, tasks: tasks)
        }
    }

    mutating func query(courses: [ReportCourse]) -> ReportQuery {
        var query = ReportQuery()
        if chance(40) { query.search = pick(["task", "essay", "math", "2", "Éssay draft", "bio t", "  "]) }
        if chance(20), let course = courses.first { query.courses = [pick([course.course.courseID, course.course.code, "nope"])] }
        if chance(15) { query.teachers = [pick(Self.teachers)] }
        if chance(15) { query.students = [pick(Self.students)] }
        if chance(25) { query.buckets = [pick(Bucket.allCases)] + (chance(50) ? [pick(Bucket.allCases)] : []) }
        if chance(20) { query.priorities = [pick(Priority.allCases)] }
        query.includeCompleted = chance(40)
        query.sort = pick(ReportSort.allCases)
        if chance(70) {
            query.limit = int(1...7)
            query.page = int(1...6)
        }
        query.courseSort = pick(CourseSort.allCases)
        if chance(15) { query.due.within = [int(0...9)] + (chance(30) ? [int(0...3)] : []) }
        if chance(15) { query.due.before = [CivilDate(year: 2026, month: pick([11, 12]), day: int(1...30))] }
        if chance(15) { query.due.after = [CivilDate(year: 2026, month: 11, day: int(20...30))] }
        if chance(10), let course = courses.last { query.courses += [pick([course.course.code + "x", "bio", "MATH"])] }
        if chance(10) { query.students += [pick(["s1", "s9", "x"])] }
        if chance(10) { query.teachers += [pick(["bobb", "Ann", "zed"])] }
        return query
    }
}
