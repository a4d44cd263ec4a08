import Foundation
import Testing

/// SplitMix64: a tiny deterministic generator, so that the same seed gives the same workload and
/// the same kill moments on every machine and every Swift version (the standard library's
/// `random(in:using:)` algorithms are not promised to stay the same).
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A number in `0..<1`.
    mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }
}

/// A deterministic school export, large enough for an import to take a while, and a changed
/// export of it that a sync import turns into thousands of inserts, updates and deletes.
///
/// The changed export drops the last course (a sync deletes it and its tasks), renames every
/// seventh course, omits about 4 % of the other tasks (deleted), changes about 30 % (a title,
/// due, priority, student or completion), adds one new task per 13 old ones and, when asked,
/// carries rows with an impossible date on existing task ids (rejected: exit 65, live rows kept).
/// Deletes stay under the default 10 % guard from 25 courses up. Titles hold commas, quotes and non-ASCII text,
/// dues every accepted form and none.
struct Workload: Sendable {
    var courseCount: Int
    var taskCount: Int
    var seed: UInt64 = 2026_11_29
    /// Rows of the changed tasks file that are rejected.
    var rejectedRows: Int = 0

    static let timeZones = ["America/New_York", "Europe/Berlin", "Asia/Tokyo", "Australia/Sydney", ""]
    static let priorities = ["low", "normal", "high", "hi", "urgent", "med", "", "lo"]
    static let completions = ["no", "yes", "", "x", "0", "1", "done", "open"]

    var insertedCount: Int { taskCount / 13 }
    var droppedCourse: Int { courseCount - 1 }

    static func padded(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    func courseID(_ c: Int) -> String { "c" + Self.padded(c, 3) }
    func taskID(_ i: Int) -> String { "T" + Self.padded(i, 7) }

    // MARK: - Files

    func baselineCourses() -> String { courses(changed: false) }
    func changedCourses() -> String { courses(changed: true) }

    private func courses(changed: Bool) -> String {
        var text = "course_id,title,code,term,teacher,timezone\n"
        for c in 0..<courseCount {
            if changed, c == droppedCourse { continue }
            let title = changed && c % 7 == 3 ? "Course \(c), revised" : "Course \(c)"
            text +=
                "\(courseID(c)),\(Self.field(title)),C \(Self.padded(c, 3)),2026/27,Teacher \(c % 9),\(Self.timeZones[c % Self.timeZones.count])\n"
        }
        return text
    }

    static let taskHeader = "task_id,course_id,title,student_id,due,priority,completed\n"

    func baselineTasks() -> String {
        var text = Self.taskHeader
        text.reserveCapacity(taskCount * 64)
        for i in 0..<taskCount { text += row(baseTask(i)) }
        return text
    }

    func changedTasks() -> String {
        var text = Self.taskHeader
        text.reserveCapacity(taskCount * 64)
        var changes = SeededGenerator(seed: seed ^ 0x00C0_FFEE)
        var rejected = 0
        for i in 0..<taskCount {
            var task = baseTask(i)
            let roll = changes.below(100)
            let kind = changes.below(5)
            if task.course == droppedCourse { continue }
            if rejected < rejectedRows, i % 101 == 50 {
                task.due = "2026-02-30"  // no such day: invalid_date, the live row is kept
                rejected += 1
                text += row(task)
                continue
            }
            if roll < 4 { continue }
            if roll < 35 {
                switch kind {
                case 0: task.title += " (v2)"
                case 1: task.due = task.due.isEmpty ? "2026-12-24" : ""
                case 2: task.priority = task.priority == "high" ? "low" : "high"
                case 3: task.student = "s" + Self.padded((i * 7) % 997, 4)
                default: task.completed = task.completed == "yes" ? "no" : "yes"
                }
            }
            text += row(task)
        }
        for n in 0..<insertedCount {
            let i = taskCount + n
            var task = baseTask(i)
            task.course = n % (courseCount - 1)
            text += row(task)
        }
        return text
    }

    // MARK: - Rows

    struct Task {
        var id: String
        var course: Int
        var title: String
        var student: String
        var due: String
        var priority: String
        var completed: String
    }

    /// Task `i` of the baseline: a function of the seed and `i` only.
    func baseTask(_ i: Int) -> Task {
        var g = SeededGenerator(seed: seed &+ UInt64(i) &* 0x1000_0001)
        let course = i % courseCount
        let titles = ["Worksheet \(i)", "Essay, part \(i % 12)", "Lab \"\(i % 40)\" report", "Übung \(i) – Lösung", "Quiz \(i)"]
        let title = titles[g.below(titles.count)]
        let month = [10, 11, 12, 1][g.below(4)]
        let year = month == 1 ? 2027 : 2026
        let day = 1 + g.below(28)
        let date = "\(year)-\(Self.padded(month, 2))-\(Self.padded(day, 2))"
        let due: String
        switch g.below(8) {
        case 0: due = ""
        case 1: due = date + "T" + Self.padded(g.below(24), 2) + ":30"
        case 2: due = date + "T09:15:00Z"
        case 3: due = date + " 17:45"
        default: due = date
        }
        return Task(
            id: taskID(i), course: course, title: title, student: "s" + Self.padded(g.below(997), 4), due: due,
            priority: Self.priorities[g.below(Self.priorities.count)], completed: Self.completions[g.below(Self.completions.count)])
    }

    func row(_ t: Task) -> String {
        "\(t.id),\(courseID(t.course)),\(Self.field(t.title)),\(t.student),\(t.due),\(t.priority),\(t.completed)\n"
    }

    /// A CSV field, quoted (RFC 4180) when it holds a comma or a quote.
    static func field(_ text: String) -> String {
        guard text.contains(",") || text.contains("\"") else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Writes `base/` (the baseline export) and `change/` (the changed one) into the sandbox.
    func write(into sandbox: Sandbox, base: String = "base", change: String = "change") throws {
        try sandbox.write(base + "/courses.csv", baselineCourses())
        try sandbox.write(base + "/tasks.csv", baselineTasks())
        try sandbox.write(change + "/courses.csv", changedCourses())
        try sandbox.write(change + "/tasks.csv", changedTasks())
    }
}
