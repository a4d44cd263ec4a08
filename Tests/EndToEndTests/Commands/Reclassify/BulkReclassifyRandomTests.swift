import Foundation
import Testing

/// Bulk `reclassify` selects, through the command line, exactly what `report list` lists with
/// the same options: random databases (a few hundred tasks each) and random options.
@Suite struct BulkReclassifyRandomTests {
    /// SplitMix64, seeded: the same data for the same seed.
    struct Generator {
        var state: UInt64

        init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

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
    }

    static let teachers = ["Ada Okafor", "Ben Adams", "Chloé Durand", "Dan Okafor", ""]
    static let zones = ["Europe/Berlin", "America/New_York", "UTC", ""]
    static let titles = ["Essay 1", "Essay 2", "Essay 10", "Lab report", "Quiz", "Worksheet 3", "Projekt Über", "essay draft"]
    static let dues = [
        "", "2026-11-20", "2026-11-28", "2026-11-29", "2026-11-29T17:00", "2026-11-30", "2026-12-03", "2026-12-10T08:00:00Z",
    ]

    /// courses.csv and tasks.csv of `taskCount` random tasks in 5 courses.
    static func files(_ random: inout Generator, taskCount: Int) -> (courses: String, tasks: String) {
        var courses = "course_id,title,code,timezone,teacher\n"
        for number in 1...5 {
            courses += "c\(number),Course \(number),CODE \(number * 10),\(random.pick(zones)),\(random.pick(teachers))\n"
        }
        var tasks = "task_id,course_id,title,student_id,due,priority,completed\n"
        for number in 1...taskCount {
            tasks += "t\(number),c\(random.int(1...5)),\(random.pick(titles)),s\(random.int(1...9)),\(random.pick(dues)),"
            tasks += "\(random.pick(["low", "normal", "high"])),\(random.chance(15) ? "yes" : "no")\n"
        }
        return (courses, tasks)
    }

    /// Random selection options: at least one.
    static func options(_ random: inout Generator) -> [String] {
        var options: [String] = []
        if random.chance(35) { options += ["--course", random.pick(["c1", "c2", "CODE 30", "c9"])] }
        if random.chance(30) { options += ["--teacher", random.pick(["okafor", "Chloe", "ADAMS", "ada okafor", "nobody"])] }
        if random.chance(25) { options += ["--student", "s\(random.int(1...9))"] }
        if random.chance(40) {
            options += ["--bucket", random.pick(["overdue", "today", "upcoming", "undated", "completed"])]
            if random.chance(50) { options += ["--bucket", random.pick(["overdue", "today", "upcoming"])] }
        }
        if random.chance(25) { options += ["--priority", random.pick(["low", "normal", "high"])] }
        if random.chance(30) { options += ["--search", random.pick(["essay", "code 20", "über", "lab report", "1"])] }
        if random.chance(30) || options.isEmpty { options += ["--include-completed"] }
        return options
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func theSelectionIsTheReportListsForRandomDataAndOptions(seed: UInt64) throws {
        var random = Generator(seed: seed)
        let sandbox = try Sandbox()
        let (courses, tasks) = Self.files(&random, taskCount: 300)
        _ = try sandbox.write("courses.csv", courses)
        _ = try sandbox.write("tasks.csv", tasks)
        let imported = try sandbox.dashboard(["import", "courses.csv", "tasks.csv"])
        #expect(imported.exitCode == 0, "\(imported)")
        // Some tasks carry an override: pinned buckets count as the report shows them.
        for number in stride(from: 7, through: 300, by: 37) {
            _ = try sandbox.dashboard(["reclassify", "t\(number)", "--to", random.pick(["today", "upcoming"]), "--reason", "x"])
        }
        var selected = 0
        for _ in 0..<6 {
            let options = Self.options(&random)
            let to = random.pick(["overdue", "today", "upcoming", "undated", "completed"])
            let preview = try sandbox.dashboard(["reclassify", "--to", to, "--reason", "random", "--format", "json"] + options)
            let report = try sandbox.dashboard(["report", "list", "--format", "json"] + options)
            #expect(preview.exitCode == 0, "\(options) \(preview)")
            let listed = ReportListCommandTests.tasks(try JSON.object(report.stdout)).compactMap { $0["task_id"] as? String }
            let bulk = JSON.objects(try JSON.object(preview.stdout)["tasks"]).compactMap { $0["task_id"] as? String }
            #expect(bulk == listed, "seed \(seed) \(options)")
            selected += bulk.count
        }
        #expect(selected > 0, "seed \(seed): every random selection was empty")
    }
}
