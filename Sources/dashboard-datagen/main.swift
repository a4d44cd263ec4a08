// dashboard-datagen: a deterministic generator of courses.csv and tasks.csv for benchmarks.
//
//   dashboard-datagen --courses N --tasks M [--invalid PERCENT] [--seed S] --out DIR
//   dashboard-datagen ... --delta-from DIR --changed 1 --new 0.5 --missing 0.5 --out DIR2
//
// Titles carry commas, quotes, newlines and non-ASCII; about 80 % of tasks are dated (dates,
// local times and offsets), about 15 % undated; priorities and completion vary. The same
// arguments always give the same bytes.
import Foundation

struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
    mutating func chance(_ percent: Double) -> Bool { Double(next() % 1_000_000) < percent * 10_000 }
}

struct Options {
    var courses = 2000
    var tasks = 1_000_000
    var invalidPercent = 0.0
    var seed: UInt64 = 42
    var out = "bench-data"
    var deltaFrom: String?
    var changedPercent = 1.0
    var newPercent = 0.5
    var missingPercent = 0.5
}

func parse() -> Options {
    var o = Options()
    var args = Array(CommandLine.arguments.dropFirst())
    func value() -> String {
        guard !args.isEmpty else { fail("missing value") }
        return args.removeFirst()
    }
    while !args.isEmpty {
        switch args.removeFirst() {
        case "--courses": o.courses = Int(value()) ?? o.courses
        case "--tasks": o.tasks = Int(value()) ?? o.tasks
        case "--invalid": o.invalidPercent = Double(value()) ?? 0
        case "--seed": o.seed = UInt64(value()) ?? 42
        case "--out": o.out = value()
        case "--delta-from": o.deltaFrom = value()
        case "--changed": o.changedPercent = Double(value()) ?? 1
        case "--new": o.newPercent = Double(value()) ?? 0.5
        case "--missing": o.missingPercent = Double(value()) ?? 0.5
        case let other: fail("unknown argument \(other)")
        }
    }
    return o
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("dashboard-datagen: error: \(message)\n".utf8))
    exit(64)
}

/// Buffered file output (64 KiB at a time).
final class Output {
    let handle: FileHandle
    var buffer: [UInt8] = []
    init(_ path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: path) else { fail("cannot write \(path)") }
        self.handle = handle
        buffer.reserveCapacity(1 << 17)
    }
    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }
    func flush() {
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
    deinit {
        flush()
        try? handle.close()
    }
}

let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "Europe/London", "America/Los_Angeles", ""]
let words = ["Essay", "Lab report", "Quiz", "Übungsblatt", "Résumé", "日本語の宿題", "Problem set", "Reading", "Draft, final", "Project"]

func quoted(_ s: String) -> String {
    s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
}

/// The row of task `i` (version `version` changes its title and due).
func taskRow(_ i: Int, courses: Int, version: Int, seed: UInt64, invalidPercent: Double) -> String {
    var rng = SplitMix64(state: seed &+ UInt64(i) &* 7919 &+ UInt64(version) &* 104_729)
    let course = "C\(i % courses)"
    var title = "\(words[rng.below(words.count)]) \(i)"
    switch rng.below(20) {
    case 0: title += ", part \"\(rng.below(9))\""
    case 1: title += "\nsecond line"
    case 2: title = "  " + title + "\u{00A0}"
    default: break
    }
    if version > 0 { title += " (v\(version))" }
    var due = ""
    let kind = rng.below(100)
    let day = 1 + rng.below(28)
    let month = 11 + rng.below(2)
    if kind < 40 {
        due = String(format: "2026-%02d-%02d", month, day)
    } else if kind < 62 {
        due = String(format: "2026-%02d-%02dT%02d:%02d", month, day, rng.below(24), rng.below(60))
    } else if kind < 85 {
        due = String(format: "2026-%02d-%02dT%02d:00:00%@", month, day, rng.below(24), ["Z", "+01:00", "-05:00", "+09:00"][rng.below(4)])
    }
    let priority = ["low", "normal", "high", "", "hi", "med"][rng.below(6)]
    let completed = ["yes", "no", "", "0", "1", "✓"][rng.below(6)]
    if invalidPercent > 0, rng.chance(invalidPercent) {
        switch rng.below(3) {
        case 0: due = "2026-02-30"
        case 1: return "T\(i),\(course),\(quoted(title)),S1,\(due),extreme,\(completed)\n"
        default: return "T\(i),C999999,\(quoted(title)),S1,\(due),\(priority),\(completed)\n"
        }
    }
    return "T\(i),\(course),\(quoted(title)),S\(rng.below(50_000)),\(due),\(priority),\(completed)\n"
}

let options = parse()
try? FileManager.default.createDirectory(atPath: options.out, withIntermediateDirectories: true)
do {
    let courses = Output(options.out + "/courses.csv")
    courses.write("course_id,code,title,teacher,timezone\n")
    for c in 0..<options.courses {
        courses.write("C\(c),CODE-\(c),\(quoted("Course \(c), section \(c % 7)")),Teacher \(c % 97),\(zones[c % zones.count])\n")
    }
}
do {
    let tasks = Output(options.out + "/tasks.csv")
    tasks.write("task_id,course_id,title,student_id,due,priority,completed\n")
    var rng = SplitMix64(state: options.seed ^ 0xDE17A)
    let delta = options.deltaFrom != nil
    for i in 0..<options.tasks {
        if delta, rng.chance(options.missingPercent) { continue }
        let version = delta && rng.chance(options.changedPercent) ? 1 : 0
        tasks.write(taskRow(i, courses: options.courses, version: version, seed: options.seed, invalidPercent: options.invalidPercent))
    }
    if delta {
        let added = Int(Double(options.tasks) * options.newPercent / 100)
        for i in options.tasks..<(options.tasks + added) {
            tasks.write(taskRow(i, courses: options.courses, version: 0, seed: options.seed, invalidPercent: 0))
        }
    }
}
