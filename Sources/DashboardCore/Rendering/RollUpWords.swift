import Foundation

/// The words of the roll-ups (`--group-by assignment|student`), the same in every format. Pure.
package enum RollUpWords {
    /// An assignment row's status: each bucket with tasks, in report order, the first with the
    /// assignment's whole number of tasks and the overdue one with how late: "6 of 20 overdue
    /// (5 days late), 14 completed"; then, where its data speaks of hand-ins (`HandIns.known`),
    /// how many were handed in, the late and the excused ones when there are any: "3 of 30
    /// overdue (2 days late), 10 to grade; 12 of 30 handed in, 4 late, 2 excused" (the excused
    /// said there, not among the buckets).
    package static func status(_ row: AssignmentRow, _ lexicon: Lexicon = .english) -> String {
        let handIns = row.handIns
        guard handIns.known else { return bucketStatus(row, lexicon) }
        // The excused are said once, in the hand-ins, unless they are all the row lists.
        var others = row
        others.counts[.excused] = 0
        let buckets = bucketStatus(others.matching > 0 ? others : row, lexicon)
        var parts = [lexicon.count(.handedInOf, row.live, String(handIns.handedIn))]
        if handIns.late > 0 { parts.append(lexicon.count(.countLate, handIns.late)) }
        if handIns.excused > 0 { parts.append(ReportWords.count(handIns.excused, .excused, lexicon)) }
        return lexicon(.withHandIns, buckets, lexicon.list(parts))
    }

    /// The buckets' part of `status`.
    static func bucketStatus(_ row: AssignmentRow, _ lexicon: Lexicon) -> String {
        var parts: [String] = []
        for bucket in Bucket.inReportOrder where row.counts[bucket] > 0 {
            var part =
                parts.isEmpty
                ? lexicon(.xOfY, String(row.counts[bucket]), String(row.live), ReportWords.word(bucket, lexicon))
                : ReportWords.count(row.counts[bucket], bucket, lexicon)
            if bucket == .overdue, let days = row.daysLate { part = lexicon(.withLate, part, TaskRowWords.lateWords(days, lexicon)) }
            parts.append(part)
        }
        return lexicon.list(parts)
    }

    /// The most urgent bucket a row has tasks in (the colour of its status on a terminal).
    package static func urgent(_ counts: BucketCounts) -> Bucket {
        Bucket.inReportOrder.first { counts[$0] > 0 } ?? .completed
    }

    /// An assignment's due as its course's teachers read it: one due ("2026-11-24"), the first
    /// and the last ("2026-11-24 – 2026-11-27") when its tasks differ, or nil when undated.
    package static func due(_ row: AssignmentRow, zone: TimeZone, _ lexicon: Lexicon = .english) -> String? {
        guard !row.firstDue.isEmpty else { return nil }
        let first = lexicon.due(row.firstDue, zone: zone)
        let last = lexicon.due(row.lastDue, zone: zone)
        return first == last ? first : first + " – " + last
    }

    /// The heading of a course's rows: "Assignments (12)", with "— showing 1–5 of 12" on a page
    /// that shows part of them.
    package static func assignmentsHeading(_ group: CourseGroup, _ lexicon: Lexicon = .english) -> String {
        let head = lexicon.count(.assignmentsHeading, group.assignmentTotal)
        guard group.assignmentFirst != 1 || group.assignments.count != group.assignmentTotal else { return head }
        let last = group.assignmentFirst + group.assignments.count - 1
        return lexicon(
            .withShowing, head, ReportWords.showing(first: group.assignmentFirst, last: last, of: group.assignmentTotal, lexicon))
    }

    /// A student as a heading names them: their id, or "No student" for tasks without one.
    package static func student(_ group: StudentGroup, _ lexicon: Lexicon = .english) -> String {
        group.studentID.isEmpty ? lexicon(.noStudent) : group.studentID
    }

    /// A student's counts: "5 tasks: 2 overdue, 1 due today, 2 upcoming" (every page together),
    /// with "— showing 1–2 of 5" on a page that shows part of them.
    package static func studentSummary(_ group: StudentGroup, _ lexicon: Lexicon = .english) -> String {
        let parts = Bucket.inReportOrder.filter { group.counts[$0] > 0 }.map { ReportWords.count(group.counts[$0], $0, lexicon) }
        let text = lexicon.count(.studentSummary, group.total, lexicon.list(parts))
        guard !group.isWhole else { return text }
        return lexicon(.withShowing, text, ReportWords.showing(first: group.first, last: group.last, of: group.total, lexicon))
    }

    /// A task's status in a row that does not sit under its bucket's heading: the bucket, "(set
    /// by hand)" for a pinned task, how late, the invalid values: "overdue, 3 days late".
    package static func taskStatus(_ words: TaskRowWords) -> String {
        let lexicon = words.lexicon
        var text = words.override == nil ? words.bucket : lexicon(.pinned, words.bucket)
        if let late = words.late { text = lexicon(.lateAndAgo, text, late) }
        return ([text] + words.invalid).joined(separator: lexicon(.clauseSeparator))
    }

    /// A report's name in its header: "Courses" (a grid), "Task lists", "Assignments" or
    /// "Tasks by student".
    package static func reportName(_ report: Report) -> String {
        guard report.kind == .list else {
            if let teacher = report.query.courseSetTeacher { return report.query.lexicon(.coursesOf, ReportWords.visible(teacher)) }
            return report.query.courseSetName ?? report.query.lexicon(.courses)
        }
        switch report.query.groupBy {
        case .bucket: return report.query.lexicon(.taskLists)
        case .assignment: return report.query.lexicon(.assignmentsName)
        case .student: return report.query.lexicon(.tasksByStudent)
        }
    }

    /// The notes before the students of a roll-up by student: times are those of each task's
    /// course, and how many completed tasks the list leaves out (as a list by bucket says per
    /// course). None on a page that shows no student.
    package static func studentNotes(_ report: Report) -> [String] {
        guard report.matchingTasks > 0, report.page.limit == nil || report.page.firstItem > 0 else { return [] }
        let query = report.query
        var notes = [query.lexicon(.timesEachZone)]
        let hidden = report.completedMatchingTasks
        if !query.includeCompleted, !query.buckets.contains(.completed), hidden > 0 {
            notes.append(ReportMessages.completedNotListed(hidden, query))
        }
        return notes
    }
}
