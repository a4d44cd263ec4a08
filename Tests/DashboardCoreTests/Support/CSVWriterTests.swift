import Testing

@testable import DashboardCore

/// Issue 11, class 4: one CSV rule for every CSV the program writes.
@Suite(.storeIndependent) struct CSVWriterTests {
    @Test(
        "every formula prefix gets a quote mark, then RFC 4180 quoting, then CRLF",
        arguments: [
            ("=1+1", "'=1+1\r\n"),
            ("+x", "'+x\r\n"),
            ("-x", "'-x\r\n"),
            ("@x", "'@x\r\n"),
            ("\t=cmd", "'\t=cmd\r\n"),
            ("\r=5", "\"'\r=5\"\r\n"),
            ("=x.csv", "'=x.csv\r\n"),
            ("=a,b", "\"'=a,b\"\r\n"),
            ("-\"q\"", "\"'-\"\"q\"\"\"\r\n"),
        ])
    func formulaPrefixes(value: String, expected: String) {
        #expect(CSVWriter.line([value]) == expected)
    }

    @Test("a value holding CRLF is quoted (Swift counts \\r\\n as one character)")
    func crlfInsideAValue() {
        #expect(CSVWriter.line(["a\r\nb", "c\nd", "e\rf"]) == "\"a\r\nb\",\"c\nd\",\"e\rf\"\r\n")
    }

    @Test("values that only contain the characters elsewhere are left alone")
    func notAPrefix() {
        #expect(CSVWriter.line(["a=b", "1-2", "x@y", " =sum", ""]) == "a=b,1-2,x@y, =sum,\r\n")
    }
}

/// The renderers that reach CSVWriter: tab and CR cannot come through an import (values are
/// trimmed), so they are checked here on values built directly.
@Suite(.storeIndependent) struct CSVOutputsTests {
    static let prefixes = ["=1+1", "+x", "-x", "@x", "\t=cmd", "\r=5"]
    static let protected = ["'=1+1", "'+x", "'-x", "'@x", "'\t=cmd", "\"'\r=5\""]

    @Test("a report CSV protects every prefix in every text column")
    func reportCSV() {
        // Pinned by hand, with the value as the override's reason and actor too.
        let tasks = Self.prefixes.enumerated().map { i, value in
            var task = ReportSample.task(value, "c", value, student: value, due: "2026-12-0\(i + 1)", pinned: true)
            task.override = StoredOverride(bucket: "upcoming", reason: value, actor: value)
            return task
        }
        let source = [ReportCourse(course: ReportSample.course("c", code: "\t=code", title: "\r=title"), tasks: tasks)]
        let report = ReportBuilder.build(
            .list, courses: source, facts: ReportSample.freshFacts, query: ReportQuery(), asOf: ReportSample.asOf,
            defaultTimeZone: ReportSample.utc)
        var expected =
            "course_id,course_code,task_id,title,student_id,due,priority,completed,bucket,status,"
            + "days_late,late,override_until,override_reason,override_actor,submission_status,submitted_at,submitted_late\r\n"
        for (i, cell) in Self.protected.enumerated() {
            expected +=
                "c,'\t=code,\(cell),\(cell),\(cell),2026-12-0\(i + 1),normal,false,upcoming,upcoming (set by hand),,,,\(cell),\(cell),open,,false\r\n"
        }
        #expect(CSVReportRenderer.render(report) == expected)
    }

    @Test("an audit CSV row protects every prefix in actor, reason, title and ids")
    func auditCSV() {
        for (value, cell) in zip(Self.prefixes, Self.protected) {
            let entry = AuditEntry(
                id: 7, recordedAt: "2026-11-29T08:00:00Z", asOf: "2026-11-29T08:00:00Z", taskID: value, courseID: value,
                fromBucket: "upcoming", toBucket: "today", cause: .override, actor: value, reason: value, batchID: nil,
                revertsEntry: nil, revertedBy: [], conflict: false, overrideUntil: "", overrideBefore: nil)
            var titled = entry
            titled.taskTitle = value
            titled.groupID = 3
            #expect(
                CSVWriter.line(entry.csvRow)
                    == "7,2026-11-29T08:00:00Z,2026-11-29T08:00:00Z,\(cell),,\(cell),upcoming,today,override,\(cell),\(cell),,,,false,,,false\r\n"
            )
            #expect(
                CSVWriter.line(titled.csvRow)
                    == "7,2026-11-29T08:00:00Z,2026-11-29T08:00:00Z,\(cell),\(cell),\(cell),upcoming,today,override,\(cell),\(cell),,,,false,,3,false\r\n"
            )
            // A derived birth line has no entry id and says it is derived.
            var derived = titled
            derived.derived = true
            #expect(
                CSVWriter.line(derived.csvRow)
                    == ",2026-11-29T08:00:00Z,2026-11-29T08:00:00Z,\(cell),\(cell),\(cell),upcoming,today,override,\(cell),\(cell),,,,false,,3,true\r\n"
            )
        }
    }
}
