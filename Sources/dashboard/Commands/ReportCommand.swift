import DashboardCore
import Foundation

/// `dashboard report list` (the minimal JSON list; grids and the other formats come with the
/// report generator).
enum ReportCommand: Command {
    static let spec = CommandSpec(
        name: "report",
        usage: "dashboard report list --format json",
        abstract: "Write per-course task lists with each task's bucket as of now (or --as-of).",
        discussion: """
            list: every live course with its live tasks: task_id, course_id, title, student_id,
            due, priority, completed and bucket (computed as of --as-of in the course's time zone;
            a manual override in force wins, and `pinned` says so). Only --format json for now.
            """,
        examples: [
            "dashboard report list --format json", "dashboard --as-of 2026-11-30 report list --format json | jq '.courses[0].tasks'",
        ],
        options: [.value("format", "json", "json")])

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let positionals = invocation.arguments.positionals
        guard positionals == ["list"] else {
            throw CommandError.usage("use `dashboard report list --format json`", command: spec.name)
        }
        _ = try format(invocation, allowed: ["json"], default: "json")
        guard let store = try openExistingStore(invocation) else {
            invocation.console.out(
                JSONValue.object([("schema", .int(1)), ("state", .string("no_data")), ("courses", .array([]))]).rendered() + "\n")
            invocation.console.note("no data imported yet; next step: dashboard import imports/")
            return .success
        }
        let courses = try ReportSource.load(store, asOf: invocation.global.asOf, defaultTimeZone: invocation.global.timeZone)
        let value = JSONValue.object([
            ("schema", .int(1)), ("as_of", .string(Timestamp.text(invocation.global.asOf))),
            (
                "courses",
                .array(
                    courses.map { c in
                        .object([
                            ("course_id", .string(c.course.courseID)), ("code", .string(c.course.code)), ("title", .string(c.course.title)),
                            ("timezone", .string(c.course.timezone)),
                            (
                                "tasks",
                                .array(
                                    c.tasks.map { t in
                                        .object([
                                            ("task_id", .string(t.task.taskID)), ("course_id", .string(t.task.courseID)),
                                            ("title", .string(t.task.title)), ("student_id", .string(t.task.studentID)),
                                            ("due", t.task.due.isEmpty ? .null : .string(t.task.due)),
                                            ("priority", .string(t.task.priority.rawValue)), ("completed", .bool(t.task.completed)),
                                            ("bucket", .string(t.bucket.rawValue)), ("pinned", .bool(t.pinned)),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
        ])
        invocation.console.out(value.rendered() + "\n")
        return .success
    }
}
