import Foundation

/// One event of a calendar feed: an assignment of a course and one of its dues.
package struct CalendarEvent: Sendable, Equatable {
    /// When it is.
    package enum Start: Sendable, Equatable {
        /// A date-only due: an all-day event on that local date.
        case day(CivilDate)
        /// A date-time in the course's zone (its IANA name): wall-clock time as that zone shows
        /// the due instant.
        case local(CivilDate, hour: Int, minute: Int, second: Int, zone: String)
        /// A date-time of a course in UTC.
        case utc(Date)
    }

    /// Stable across nights (`CalendarEvents`' policy).
    package var uid: String
    package var start: Start
    package var summary: String
    /// The roll-up's words and the course (the feed adds the page's address, when there is one).
    package var description: String
    /// The course page's address (the `base_url` setting joined with the page's path in the
    /// folder the feed is written to), set by the writer of the folder.
    package var url: String?
    /// The due instant (a date-only due: the end of its day), for the feed's order.
    package var instant: Int64
    /// The stored due text (`DueDate.storageText`) and the event's tasks per bucket: what the
    /// morning digest says of it (`MorningDigest`); not written to a feed.
    package var due = ""
    package var counts = BucketCounts()
}

/// The events of one course's calendar feed. Pure.
///
/// Policy (docs/reports.md, "Calendar feeds"):
/// - one event per assignment of the course (the roll-up's key: `assignment_id`, else the title)
///   and due (the stored due: students given another due make an event of their own); undated
///   tasks have no event;
/// - an event counts every live task of its assignment and due, in its bucket (a pin counts
///   where it pins), and says so in the roll-up's words ("6 of 20 overdue, 14 completed"); one
///   whose tasks are all completed is not in the feed (nor is a deleted one: a task deleted is
///   not live), so subscribed clients drop it at their next refresh;
/// - the UID of an assignment's main due (the one most of its tasks have; ties: the earliest,
///   then the due's text) is a hash of the course id and the assignment's key, so that when the
///   whole assignment's due moves the event moves in clients, never doubles; another due of
///   the same assignment (an extension for some students) is a hash of those and its due;
/// - a date-only due is an all-day event on that date; a date-time is placed in the course's
///   zone (a local time that the zone skips is read as the buckets read it, `LocalTime`).
package enum CalendarEvents {
    /// The events of `course`: `tasks` is every live task of the course in its bucket, completed
    /// ones included; `zone` the course's. Their `url` is nil (the folder's writer sets it).
    package static func events(course: CourseRecord, tasks: [ReportTask], zone: TimeZone) -> [CalendarEvent] {
        struct Due {
            var text: String
            var instant: Int64
            var counts = BucketCounts()
            var tasks = 0
        }
        struct Assignment {
            var key: String
            var title: String
            var titleTask: String
            var dues: [String: Due] = [:]
        }
        var assignments: [String: Assignment] = [:]
        for task in tasks {
            let key = AssignmentRollUp.key(task.task)
            var assignment = assignments[key] ?? Assignment(key: key, title: task.task.title, titleTask: task.task.taskID)
            if task.task.taskID.utf8.lexicographicallyPrecedes(assignment.titleTask.utf8) {
                (assignment.title, assignment.titleTask) = (task.task.title, task.task.taskID)
            }
            if let instant = ReportPipeline.dueInstant(task.task.due, zone) {
                var due = assignment.dues[task.task.due] ?? Due(text: task.task.due, instant: instant)
                due.counts[task.bucket] += 1
                due.tasks += 1
                assignment.dues[task.task.due] = due
            }
            assignments[key] = assignment
        }
        var events: [CalendarEvent] = []
        for assignment in assignments.values {
            let dues = assignment.dues.values.sorted { ($0.instant, $0.text) < ($1.instant, $1.text) }
            // The main due: the most tasks, then the earliest (the sort above), then its text.
            let main = dues.max { $0.tasks < $1.tasks || ($0.tasks == $1.tasks && ($0.instant, $0.text) > ($1.instant, $1.text)) }
            // A due whose every task is done or excused has no event; one waiting for grading
            // keeps it, and its words say so ("3 of 3 to grade": no longer overdue, SPEC §11).
            for due in dues where due.counts.total > due.counts[.completed] + due.counts[.excused] {
                guard let start = start(due.text, zone: zone) else { continue }
                let isMain = due.text == main?.text
                let uid = uid(course: course.courseID, assignment: assignment.key, due: isMain ? nil : due.text)
                let row = AssignmentRow(
                    assignmentID: "", title: assignment.title, firstDue: due.text, lastDue: due.text, students: 0, counts: due.counts,
                    live: due.tasks, daysLate: nil)
                events.append(
                    CalendarEvent(
                        uid: uid, start: start, summary: course.code + ": " + assignment.title,
                        description: RollUpWords.status(row) + "\n" + course.code + " — " + course.title, url: nil,
                        instant: due.instant, due: due.text, counts: due.counts))
            }
        }
        return events.sorted { ($0.instant, $0.uid) < ($1.instant, $1.uid) }
    }

    /// `<32 hex digits>@dashboard`: the first 128 bits of the SHA-256 of the course id, the
    /// assignment's key and, for a due other than the assignment's main one, that due.
    static func uid(course: String, assignment: String, due: String?) -> String {
        let digest = SHA256()
        digest.update(Array(course.utf8) + [0] + Array(assignment.utf8))
        if let due { digest.update([0] + Array(due.utf8)) }
        return String(digest.finalizeHex().prefix(32)) + "@dashboard"
    }

    /// Where a stored due text falls: a date-only due is its day; a date-time the zone's wall
    /// time of its instant (nil for a text that is not a stored due).
    static func start(_ due: String, zone: TimeZone) -> CalendarEvent.Start? {
        guard let parsed = DueDate(storageText: due) else { return nil }
        let instant: Date
        switch parsed {
        case .date(let day): return .day(day)
        case .local(let day, let h, let m, let s): instant = LocalTime.instant(date: day, hour: h, minute: m, second: s, in: zone)
        case .instant(let seconds): instant = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        if CalendarTimeZone.isUTC(zone) { return .utc(instant) }
        let wall = CalendarTimeZone.wall(instant, in: zone)
        return .local(wall.date, hour: wall.hour, minute: wall.minute, second: wall.second, zone: zone.identifier)
    }
}
