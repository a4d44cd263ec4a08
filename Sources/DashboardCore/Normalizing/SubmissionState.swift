import Foundation

/// Where a task stands with its student and its teacher (SPEC §11): exactly one state.
///
/// Policy: only an `open` task gets a bucket (overdue, today, upcoming, undated); a `submitted`
/// one waits for the teacher's grading ("to grade"), a `completed` one is done, an `excused`
/// one is never overdue and never counted as missing work.
public enum SubmissionState: String, Sendable, CaseIterable, Codable {
    case open, submitted, completed, excused

    /// The state a `completed` value alone means, as before §11 (true = completed).
    package init(completed: Bool) { self = completed ? .completed : .open }
}

/// Reads the tasks file's `status` column and reconciles it with `completed` (SPEC §11).
///
/// Policy: a word is compared case-insensitively with `_`, `-` and spaces alike (one or more
/// of them in a row are one separator; at the ends they are trimmed), so `PENDING_REVIEW`,
/// `Pending review` and `pending-review` are one word. An empty cell says nothing: the state
/// then comes from `completed` (true = completed, false or absent = open), so a file whose
/// exporter leaves `status` empty for finished work is not a conflict; likewise an empty
/// `completed` beside a state. A word of no state is `invalid_status`, with the accepted words
/// as its hint. With both values, `completed` true and a state of open or submitted, or
/// `completed` false and a state of completed, is `conflicting_status` naming both; an excused
/// task may say either (one LMS exports an excused submission as complete, another as not).
/// This type reads and decides; the normalizer turns its answers into row problems.
package enum SubmissionStateParser {
    /// The accepted words of each state, in SPEC §11's order (the hint lists them so).
    package static let words: [(state: SubmissionState, words: [String])] = [
        (.open, ["open", "assigned", "new", "created", "unsubmitted", "missing", "draft", "reopened", "reclaimed by student"]),
        (.submitted, ["submitted", "turned in", "handed in", "pending review", "needs grading"]),
        (.completed, ["completed", "complete", "graded", "marked", "returned", "done"]),
        (.excused, ["excused", "exempt", "excluded"]),
    ]

    /// Every accepted word (separators as one space) and its state.
    static let lookup: [String: SubmissionState] = {
        var table: [String: SubmissionState] = [:]
        for (state, list) in words { for word in list { table[word] = state } }
        return table
    }()

    /// The hint of `invalid_status`: the states and their words.
    package static let hint: String =
        "use one of: "
        + words.map { entry in "\(entry.state.rawValue) (\(entry.words.joined(separator: ", ")))" }.joined(separator: "; ")
        + "; empty takes the state from completed"

    /// The key a cell is looked up by: lowercase, each run of `_`, `-` and white space one
    /// space, none at the ends.
    package static func key(_ raw: String) -> String {
        var key = ""
        var pendingSpace = false
        for character in raw.lowercased() {
            if character == "_" || character == "-" || character.isWhitespace {
                pendingSpace = !key.isEmpty
                continue
            }
            if pendingSpace { key.append(" ") }
            pendingSpace = false
            key.append(character)
        }
        return key
    }

    /// What a `status` cell says.
    package enum Reading: Equatable, Sendable {
        /// Empty (after trimming): nothing; the state comes from `completed`.
        case empty
        case state(SubmissionState)
        /// A word of no state: `invalid_status` for the normalizer, with `hint`.
        case unknown
    }

    /// What the `status` cell `raw` says.
    package static func read(_ raw: String) -> Reading {
        let key = key(raw)
        if key.isEmpty { return .empty }
        return lookup[key].map(Reading.state) ?? .unknown
    }

    /// True when a state and a `completed` value contradict each other: completed true and a
    /// state of open or submitted, or completed false and a state of completed. An excused
    /// task may say either.
    package static func conflicts(_ status: SubmissionState, completed: Bool) -> Bool {
        switch status {
        case .open, .submitted: return completed
        case .completed: return !completed
        case .excused: return false
        }
    }

    /// The task's state from its two columns: `status` when it names one, else `completed`,
    /// else open; nil when they conflict (`conflicting_status`).
    ///
    /// - Parameters:
    ///   - status: the state the `status` cell named (nil: empty, or no such column).
    ///   - completed: the `completed` value (nil: an empty cell, or no such column; an empty
    ///     `completed` beside a state says nothing, as an empty `status` beside `completed`).
    package static func state(status: SubmissionState?, completed: Bool?) -> SubmissionState? {
        guard let status else { return SubmissionState(completed: completed ?? false) }
        guard let completed else { return status }
        return conflicts(status, completed: completed) ? nil : status
    }
}

/// Whether handed-in work came after its due (SPEC §11): a fact of the task, not a bucket.
///
/// Policy, in the course's time zone (DST-correct, through `LocalTime`): a date-only due means
/// the whole of that day, and a date-only `submitted_at` the whole of its day. So a date on
/// either side compares local dates (late when the hand-in's local date is after the due's);
/// two times compare instants (late when the hand-in is after the due, a second after
/// included). No due, or no hand-in time, is never late.
package enum Lateness {
    /// True when work handed in at `submitted` was late for `due`.
    package static func isLate(submitted: DueDate?, due: DueDate?, in zone: TimeZone) -> Bool {
        guard let submitted, let due else { return false }
        switch (submitted, due) {
        case (.date, _), (_, .date):
            return localDate(submitted, zone).daysSinceEpoch > localDate(due, zone).daysSinceEpoch
        default:
            return instant(submitted, zone) > instant(due, zone)
        }
    }

    /// Seconds handed in after the due (0 when on time): for words such as "2 days late".
    /// Dates on either side count whole days between the local dates.
    package static func secondsLate(submitted: DueDate?, due: DueDate?, in zone: TimeZone) -> Int64 {
        guard isLate(submitted: submitted, due: due, in: zone), let submitted, let due else { return 0 }
        switch (submitted, due) {
        case (.date, _), (_, .date):
            return Int64(localDate(submitted, zone).daysSinceEpoch - localDate(due, zone).daysSinceEpoch) * 86_400
        default:
            return instant(submitted, zone) - instant(due, zone)
        }
    }

    /// The local date of a value on the wall clock of `zone`.
    static func localDate(_ value: DueDate, _ zone: TimeZone) -> CivilDate {
        switch value {
        case .date(let day), .local(let day, _, _, _): return day
        case .instant(let seconds):
            let local = seconds + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
            return CivilDate(daysSinceEpoch: Int(floorDiv(local, 86_400)))
        }
    }

    /// The instant of a value with a time (a date stands for its local midnight).
    static func instant(_ value: DueDate, _ zone: TimeZone) -> Int64 {
        switch value {
        case .instant(let seconds): return seconds
        case .local(let day, let h, let m, let s):
            return Int64(LocalTime.instant(date: day, hour: h, minute: m, second: s, in: zone).timeIntervalSince1970)
        case .date(let day):
            return Int64(LocalTime.instant(date: day, hour: 0, minute: 0, second: 0, in: zone).timeIntervalSince1970)
        }
    }
}
