import Foundation
import Testing

/// Issue 31 (SPEC §11) in the list's machine formats: each task's state, hand-in time and
/// lateness in JSON and CSV, and the `--status` and `--late` filters, on either store. The
/// expected values are written here from the CSV below and §11's rule, not from our code.
@Suite struct SubmissionReportTests {
    static let asOf = "2026-11-25T12:00:00Z"

    /// bio keeps New York's clock; his has no zone (the default: UTC).
    static let courses = """
        course_id,title,code,timezone
        bio,Biology,BIO 101,America/New_York
        his,History,HIS 200,

        """

    /// Each row with what §11 says of it (the comment column is not read: an unknown column).
    static let tasks = """
        task_id,course_id,title,student_id,due,completed,workflow_state,turned_in_at,why
        a1,bio,Essay,s1,2026-11-20,,submitted,2026-11-20,on the due date itself: on time
        a2,bio,Essay,s2,2026-11-20,true,graded,2026-11-21,a day after a date-only due: late
        a3,bio,Lab,s1,2026-11-20T17:00,,turned in,2026-11-20T17:30,half an hour after a timed due: late
        a4,bio,Lab,s2,2026-11-20,,handed in,2026-11-20T23:59,a time on the due's own date: on time
        a5,bio,Quiz,s3,2026-11-20T17:00,,submitted,2026-11-20T21:30:00Z,16:30 in New York: on time
        a6,bio,Quiz,s4,2026-11-20T17:00,,submitted,2026-11-20T22:30:00Z,17:30 in New York: late
        a7,bio,Essay,s3,2026-11-20,,excused,,excused: never late
        a8,bio,Essay,s4,2026-12-10,,,,open
        h1,his,Essay,s1,2026-11-20T09:00,true,,2026-11-20T09:00:01,a second after: late (UTC)
        h2,his,Essay,s2,,,submitted,2026-11-19,no due: never late
        h3,his,Essay,s3,2026-11-20,yes,,,completed without a hand-in time: not late

        """

    /// task id → (status, submitted_at as JSON writes it, submitted_late).
    static let expected: [String: (String, String?, Bool)] = [
        "a1": ("submitted", "2026-11-20", false), "a2": ("completed", "2026-11-21", true),
        "a3": ("submitted", "2026-11-20T17:30:00-05:00", true), "a4": ("submitted", "2026-11-20T23:59:00-05:00", false),
        "a5": ("submitted", "2026-11-20T16:30:00-05:00", false), "a6": ("submitted", "2026-11-20T17:30:00-05:00", true),
        "a7": ("excused", nil, false), "a8": ("open", nil, false), "h1": ("completed", "2026-11-20T09:00:01+00:00", true),
        "h2": ("submitted", "2026-11-19", false), "h3": ("completed", nil, false),
    ]

    static func imported() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", courses)
        try sandbox.write("tasks.csv", tasks)
        let result = try sandbox.run(["--db", "db.sqlite", "--as-of", asOf, "import", "courses.csv", "tasks.csv"])
        // The `why` column is an unknown column: a warning, nothing rejected.
        #expect(
            result.exitCode == 0 && result.stderr.contains(" 13 rows read, 13 inserted,") && result.stderr.contains(" 0 rejected"),
            "\(result)")
        return sandbox
    }

    /// The tasks of a JSON list, by id.
    static func listed(_ sandbox: Sandbox, _ arguments: [String]) throws -> [String: [String: Any]] {
        let result = try sandbox.run(["--db", "db.sqlite", "--as-of", asOf, "report", "list", "--format", "json"] + arguments)
        #expect(result.exitCode == 0, "\(arguments): \(result)")
        var tasks: [String: [String: Any]] = [:]
        for course in JSON.objects(try JSON.object(result.stdout)["courses"]) {
            for section in JSON.objects(course["sections"]) {
                for task in JSON.objects(section["tasks"]) { tasks[task["task_id"] as? String ?? ""] = task }
            }
        }
        return tasks
    }

    @Test func everyTaskSaysItsStateItsHandInTimeAndWhetherItWasLateInJSON() throws {
        let sandbox = try Self.imported()
        let tasks = try Self.listed(sandbox, ["--include-completed"])
        #expect(Set(tasks.keys) == Set(Self.expected.keys))
        for (id, (status, submittedAt, late)) in Self.expected {
            let task = try #require(tasks[id])
            #expect(task["status"] as? String == status, "\(id)")
            #expect(task["submitted_at"] as? String == submittedAt, "\(id): \(task["submitted_at"] ?? "nil")")
            if submittedAt == nil { #expect(task["submitted_at"] is NSNull, "\(id)") }
            #expect(task["submitted_late"] as? Bool == late, "\(id)")
            // The keys of schema 1 keep their meaning: completed is the completed state alone.
            #expect(task["completed"] as? Bool == (status == "completed"), "\(id)")
        }
    }

    @Test(arguments: [
        (["--status", "submitted"], ["a1", "a3", "a4", "a5", "a6", "h2"]),
        (["--status", "SUBMITTED", "--status", "excused"], ["a1", "a3", "a4", "a5", "a6", "a7", "h2"]),
        // Completed work is listed when a filter asks for it, without --include-completed.
        (["--status", "completed"], ["a2", "h1", "h3"]),
        (["--late"], ["a2", "a3", "a6", "h1"]),
        (["--late", "--status", "submitted"], ["a3", "a6"]),
        (["--late", "--course", "his"], ["h1"]),
        (["--status", "open"], ["a8"]),
        (["--status", "open", "--student", "s1"], []),
    ])
    func theStatusAndLateFiltersKeepWhatSection11Says(arguments: [String], ids: [String]) throws {
        let sandbox = try Self.imported()
        #expect(try Self.listed(sandbox, arguments).keys.sorted() == ids, "\(arguments)")
        // The same ids, derived from the table by §11's rule (where no other filter applies).
        if !arguments.contains("--course"), !arguments.contains("--student") {
            let statuses = Set(zip(arguments, arguments.dropFirst()).filter { $0.0 == "--status" }.map { $0.1.lowercased() })
            let late = arguments.contains("--late")
            let byTable = Self.expected.filter { (statuses.isEmpty || statuses.contains($0.value.0)) && (!late || $0.value.2) }
            #expect(byTable.keys.sorted() == ids, "\(arguments)")
        }
    }

    @Test func csvGivesTheStateHandInTimeAndLatenessAsTheLastThreeColumns() throws {
        let sandbox = try Self.imported()
        let result = try sandbox.run([
            "--db", "db.sqlite", "--as-of", Self.asOf, "report", "list", "--format", "csv", "--status", "submitted", "--course", "bio",
        ])
        #expect(result.exitCode == 0, "\(result)")
        // RFC 4180: every record ends in CRLF.
        #expect(result.stdout.hasSuffix("\r\n"))
        let lines = result.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.first?.hasSuffix(",override_actor,submission_status,submitted_at,submitted_late") == true, "\(lines.first ?? "")")
        let tails = lines.dropFirst().map { line in
            line.split(separator: ",", omittingEmptySubsequences: false).suffix(3).joined(separator: ",")
        }
        let ids = lines.dropFirst().map { line in line.split(separator: ",", omittingEmptySubsequences: false)[2] }
        #expect(ids.count == 5)
        for (id, tail) in zip(ids, tails) {
            let (status, submittedAt, late) = try #require(Self.expected[String(id)])
            #expect(tail == "\(status),\(submittedAt ?? ""),\(late)", "\(id)")
        }
    }

    @Test func anUnknownStateIsAUsageErrorThatListsTheStates() throws {
        let sandbox = try Self.imported()
        let result = try sandbox.run(["--db", "db.sqlite", "report", "list", "--status", "graded"])
        #expect(result.exitCode == 64 && result.stdout == "", "\(result)")
        #expect(result.stderr.contains("--status") && result.stderr.contains("open, submitted, completed or excused"), "\(result)")
    }
}
