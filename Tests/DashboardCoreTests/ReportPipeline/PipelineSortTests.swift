import Foundation
import Testing

@testable import DashboardCore

@Suite("Report pipeline: sort", .storeIndependent)
struct PipelineSortTests {
    /// One UTC course. Five tasks share the due 2026-11-29T10:00:00Z; T8 is due the day before
    /// (date only); T6, T7 and T9 are undated.
    static let tasks = [
        ReportSample.task("T3", "C1", "Alpha", student: "s2", due: "2026-11-29T10:00:00Z", priority: .normal),
        ReportSample.task("T2", "C1", "Zulu", student: "s10", due: "2026-11-29T10:00:00Z", priority: .high),
        ReportSample.task("T1", "C1", "Alpha", student: "s2", due: "2026-11-29T10:00:00Z", priority: .normal),
        ReportSample.task("T4", "C1", "Task 10", student: "s1", due: "2026-11-29T10:00:00Z", priority: .normal),
        ReportSample.task("T5", "C1", "Task 2", student: "s1", due: "2026-11-29T10:00:00Z", priority: .normal),
        ReportSample.task("T6", "C1", "Beta", student: "s3", priority: .high, bucket: .undated),
        ReportSample.task("T7", "C1", "Alpha", student: "s2", priority: .low, bucket: .undated),
        ReportSample.task("T8", "C1", "Late", student: "s3", due: "2026-11-28", priority: .low, bucket: .overdue),
        ReportSample.task("T9", "C1", "Beta", student: "s3", priority: .high, bucket: .undated),
    ]

    static func sorted(_ tasks: [ReportTask], by sort: ReportSort, timezone: String = "", defaultZone: TimeZone = ReportSample.utc)
        -> [String]
    {
        let course = ReportCourse(course: ReportSample.course("C1", timezone: timezone), tasks: tasks)
        return ReportPipeline.sort([course], by: sort, defaultTimeZone: defaultZone).flatMap { $0.tasks.map(\.task.taskID) }
    }

    @Test(
        "each sort has its documented tie-breakers and ends on the task id",
        arguments: [
            // Due, then priority high→low, then title (natural), then id; undated last.
            (ReportSort.due, ["T8", "T2", "T1", "T3", "T5", "T4", "T6", "T9", "T7"]),
            // Priority high→low, then due (undated last), then title, then id.
            (.priority, ["T2", "T6", "T9", "T1", "T3", "T5", "T4", "T8", "T7"]),
            // Title (natural), then due (undated last), then id.
            (.title, ["T1", "T3", "T7", "T6", "T9", "T8", "T5", "T4", "T2"]),
            // Student (natural), then due, then title, then id.
            (.student, ["T5", "T4", "T1", "T3", "T7", "T8", "T6", "T9", "T2"]),
        ])
    func sortOrder(sort: ReportSort, expected: [String]) {
        #expect(Self.sorted(Self.tasks, by: sort) == expected)
    }

    @Test("the order is total: any input order gives the same result", arguments: ReportSort.allCases)
    func totalOrder(sort: ReportSort) {
        let expected = Self.sorted(Self.tasks, by: sort)
        for shift in 1..<Self.tasks.count {
            let rotated = Array(Self.tasks[shift...] + Self.tasks[..<shift])
            #expect(Self.sorted(rotated, by: sort) == expected)
            #expect(Self.sorted(rotated.reversed(), by: sort) == expected)
        }
    }

    @Test("tasks equal in every key are ordered by task id, byte by byte")
    func idTieBreak() {
        let twins = ["T9", "T10", "t1", "T1"].map { ReportSample.task($0, "C1", "Same", due: "2026-11-29") }
        for sort in ReportSort.allCases {
            #expect(Self.sorted(twins, by: sort) == ["T1", "T10", "T9", "t1"])
        }
    }

    @Test("student sort: case-insensitive natural order, then due, then title, then id")
    func studentOrder() {
        let tasks = [
            ReportSample.task("U1", "C1", "A", student: "s10", due: "2026-11-29T10:00:00Z"),
            ReportSample.task("U2", "C1", "A", student: "s2", bucket: .undated),
            ReportSample.task("U3", "C1", "B", student: "s2", due: "2026-11-29T10:00:00Z"),
            ReportSample.task("U5", "C1", "A", student: "s2", due: "2026-11-29T10:00:00Z"),
            ReportSample.task("U4", "C1", "A", student: "s2", due: "2026-11-29T10:00:00Z"),
            ReportSample.task("U7", "C1", "A", student: "s1"),
            ReportSample.task("U6", "C1", "A", student: "S1"),
        ]
        #expect(Self.sorted(tasks, by: .student) == ["U6", "U7", "U4", "U5", "U3", "U2", "U1"])
    }

    /// K1 a date (end of the local day), K2 and K5 local times in the course's zone, K3 and K4
    /// instants; K4 and K5 fall on the same instant in Berlin (K5 has the higher priority).
    static let dueKinds = [
        ReportSample.task("K1", "C1", "date only", due: "2026-11-29"),
        ReportSample.task("K2", "C1", "local 23:30", due: "2026-11-29T23:30:00"),
        ReportSample.task("K3", "C1", "instant 22:45Z", due: "2026-11-29T22:45:00Z"),
        ReportSample.task("K4", "C1", "instant 23:00Z", due: "2026-11-29T23:00:00Z", priority: .normal),
        ReportSample.task("K5", "C1", "local midnight", due: "2026-11-30T00:00:00", priority: .high),
    ]

    @Test(
        "dues of different kinds compare as instants in the course's time zone",
        arguments: [
            // Berlin (UTC+1): K2 22:30Z, K3 22:45Z, K1 22:59:59Z, K5 = K4 23:00Z.
            ("Europe/Berlin", ["K2", "K3", "K1", "K5", "K4"]),
            // New York (UTC-5): K3 22:45Z, K4 23:00Z, K2 04:30Z, K1 04:59:59Z, K5 05:00Z.
            ("America/New_York", ["K3", "K4", "K2", "K1", "K5"]),
            // No zone: the default (Berlin here). An unknown zone also falls back to it.
            ("", ["K2", "K3", "K1", "K5", "K4"]),
            ("Mars/Olympus_Mons", ["K2", "K3", "K1", "K5", "K4"]),
        ])
    func dueKinds(timezone: String, expected: [String]) {
        #expect(Self.sorted(Self.dueKinds, by: .due, timezone: timezone, defaultZone: ReportSample.berlin) == expected)
    }

    static func epoch(_ text: String) -> Int64 {
        Int64(Timestamp.parse(text, timeZone: ReportSample.utc)!.timeIntervalSince1970)
    }

    @Test(
        "the instant a due stands for",
        arguments: [
            ("2026-11-29", "UTC", epoch("2026-11-29T23:59:59Z")),
            ("2026-11-29", "Europe/Berlin", epoch("2026-11-29T22:59:59Z")),
            ("2026-11-29T14:00:00", "Europe/Berlin", epoch("2026-11-29T13:00:00Z")),
            ("2026-11-29T14:00:00", "America/New_York", epoch("2026-11-29T19:00:00Z")),
            ("2026-11-29T13:00:00Z", "America/New_York", epoch("2026-11-29T13:00:00Z")),
            // 02:30 does not exist on 2026-03-29 in Berlin: read with the offset before the jump.
            ("2026-03-29T02:30:00", "Europe/Berlin", epoch("2026-03-29T01:30:00Z")),
        ])
    func dueInstant(due: String, zone: String, expected: Int64) {
        #expect(ReportPipeline.dueInstant(due, TimeZone(identifier: zone)!) == expected)
    }

    @Test("an undated or unreadable due has no instant")
    func noInstant() {
        #expect(ReportPipeline.dueInstant("", ReportSample.utc) == nil)
        #expect(ReportPipeline.dueInstant("soon", ReportSample.utc) == nil)
    }

    @Test(
        "natural order: digit runs by value, the rest ignoring case, then exactly",
        arguments: [
            ("Task 2", "Task 10", true),
            ("Task 10", "Task 2", false),
            ("Task 007", "Task 8", true),
            ("Task 08", "Task 7", false),
            ("Task 002", "Task 02", true),  // same value: the exact text decides
            ("Task 02", "Task 2", true),
            ("Task 2", "Task 02", false),
            ("alpha", "Beta", true),
            ("Task 3", "task 3", true),
            ("task 3", "Task 3", false),
            ("Übung 2", "ubung 10", true),
            ("Task", "Task 1", true),
            ("Task 9", "Task 9a", true),
            ("x2y10", "x2y9", false),
            ("Task 99999999999999999999", "Task 100000000000000000000", true),
        ] as [(String, String, Bool)])
    func naturalOrder(a: String, b: String, aFirst: Bool) {
        #expect(NaturalOrder.compare(a, b) == aFirst)
        #expect(NaturalOrder.compare(b, a) == !aFirst)
    }

    @Test("natural order: only identical texts are equal")
    func naturalEquality() {
        #expect(NaturalOrder.compare("Task 2", "Task 2") == nil)
        #expect(NaturalOrder.compare("", "") == nil)
        let titles = ["Task 10", "task 1", "Task 02", "Task 2", "Task 1", "Task 010", "Task"]
        let sorted = titles.sorted { NaturalOrder.compare($0, $1) == true }
        #expect(sorted == ["Task", "Task 1", "task 1", "Task 02", "Task 2", "Task 010", "Task 10"])
    }
}
