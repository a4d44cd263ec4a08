import Foundation

@testable import DashboardCore

/// A second store for the report side, in memory and without SQL: what the report pipeline
/// needs of any store (`ReportReading`), written from the protocol's doc comments alone. It
/// records how it is called, so tests can check that every read is inside one `read`.
final class MemoryReportReader: ReportReading {
    let courses: [CourseRecord]
    /// Every live task, by task id.
    let tasks: [LiveTask]
    /// How many `read`s began, and how many calls came outside any `read`.
    private(set) var reads = 0
    private(set) var callsOutsideRead = 0
    private var depth = 0
    private var keys: MemoryPageKeys?

    init(courses: [CourseRecord], tasks: [LiveTask]) {
        self.courses = courses.sorted { $0.courseID < $1.courseID }
        self.tasks = tasks.sorted { $0.task.taskID < $1.task.taskID }
    }

    func read<T>(_ body: () throws -> T) throws -> T {
        if depth == 0 { reads += 1 }
        depth += 1
        defer { depth -= 1 }
        return try body()
    }

    private func called() {
        if depth == 0 { callsOutsideRead += 1 }
    }

    /// Reads of every course at once (`liveCourses` without `only`) or of every task in one
    /// pass (`TaskSelection.all`): what a report flat in courses never does.
    private(set) var wholeReads = 0

    func liveCourses(only: [String]) throws -> [CourseRecord] {
        if only.isEmpty { wholeReads += 1 }
        return try chosenCourses(only)
    }

    private func chosenCourses(_ only: [String]) throws -> [CourseRecord] {
        called()
        guard !only.isEmpty else { return courses }
        let wanted = Set(only)
        return courses.filter { wanted.contains($0.courseID) || wanted.contains($0.code) }
    }

    func forEachLiveTask(_ selection: TaskSelection, countsOnly: Bool, _ body: (LiveTask) throws -> Void) throws {
        called()
        let chosen: [LiveTask]
        switch selection {
        case .all:
            wholeReads += 1
            chosen = tasks
        case .courses(let ids):
            let wanted = Set(ids)
            chosen = tasks.filter { wanted.contains($0.task.courseID) }
        case .keptPage(let offset, let count):
            let kept = (keys?.kept ?? []).sorted { $0.key == $1.key ? $0.id < $1.id : $0.key.lexicographicallyPrecedes($1.key) }
            let ids = Set(kept.dropFirst(offset).prefix(count).map(\.id))
            chosen = tasks.filter { ids.contains($0.task.taskID) }
        case .keptAfter(let key, let count):
            let kept = (keys?.kept ?? []).sorted { $0.key == $1.key ? $0.id < $1.id : $0.key.lexicographicallyPrecedes($1.key) }
            let ids = Set(kept.filter { key.lexicographicallyPrecedes($0.key) }.prefix(count).map(\.id))
            chosen = tasks.filter { ids.contains($0.task.taskID) }
        }
        for var live in chosen {
            if countsOnly {
                live.task.title = ""
                live.task.studentID = ""
                live.task.assignmentID = ""
            }
            try body(live)
        }
    }

    func forEachLiveCourse(
        only: [String], countsOnly: Bool, course: (CourseRecord) throws -> Void, task: (LiveTask) throws -> Void
    ) throws {
        for record in try chosenCourses(only) {
            try course(record)
            try forEachLiveTask(.courses([record.courseID]), countsOnly: countsOnly, task)
        }
    }

    func courseResults() throws -> any CourseResults {
        called()
        let made = MemoryCourseResults()
        results.append(made)
        return made
    }

    /// Every set of course results the reports asked for (each empty once dropped).
    private(set) var results: [MemoryCourseResults] = []

    func pageKeys() throws -> any PageKeys {
        called()
        let made = MemoryPageKeys()
        keys = made
        return made
    }

    /// The keys the last page's report left in the store (empty once it dropped them).
    var keysLeft: [(key: [UInt8], id: String)]? { keys?.kept }
    /// How many keys the last page's report gave the store.
    var keysAdded: Int { keys?.added ?? 0 }
}

/// Page keys in an array.
final class MemoryPageKeys: PageKeys {
    private(set) var kept: [(key: [UInt8], id: String)] = []
    private(set) var added = 0

    func add(_ key: [UInt8], taskID: String) throws {
        kept.append((key, taskID))
        added += 1
    }

    func prepareOrderedReading() throws {}

    func drop() { kept = [] }
}

/// Course results in an array, read back sorted by key then course id.
final class MemoryCourseResults: CourseResults {
    private(set) var kept: [CourseResult] = []
    private(set) var added = 0

    func add(_ result: CourseResult) throws {
        kept.append(result)
        added += 1
    }

    func prepareOrderedReading() throws {}

    func forEach(offset: Int, count: Int?, _ body: (CourseResult) throws -> Void) throws {
        let sorted = kept.sorted {
            $0.key == $1.key ? $0.course.courseID < $1.course.courseID : $0.key.lexicographicallyPrecedes($1.key)
        }
        for result in sorted.dropFirst(max(0, offset)).prefix(max(0, count ?? Int.max)) { try body(result) }
    }

    func drop() { kept = [] }
}
