import Foundation

/// Where a task stands (SPEC §6, §11). `BucketPolicy` decides which.
///
/// An open task is in one of the four buckets of open work, relative to the as-of instant;
/// a task in another state is in its state's place: `toGrade` (submitted, waiting for the
/// teacher's grading), `completed` or `excused` (SPEC §11: "only open tasks get a bucket").
/// The cases are declared in the order machine formats list them: the five of the first
/// version, then those §11 added, so that JSON keys and CSV columns only grow at the end.
public enum Bucket: String, Sendable, CaseIterable, Codable {
    case overdue
    case today
    case upcoming
    case undated
    case completed
    case toGrade = "to_grade"
    case excused

    /// The four buckets of open tasks, in report order.
    public static let open: [Bucket] = [.overdue, .today, .upcoming, .undated]

    /// The buckets every report showed before SPEC §11: the places of the states §11 added
    /// (`added`) are shown only where a report has such a task, so that a database without
    /// them gives the reports it gave before, byte for byte.
    public static let original: [Bucket] = [.overdue, .today, .upcoming, .undated, .completed]

    /// The places SPEC §11 added: to grade and excused.
    public static let added: [Bucket] = [.toGrade, .excused]

    /// The buckets an override (`reclassify --to`) may name: the original five and `excused`
    /// (SPEC §11: a teacher excuses a task by hand). `to_grade` comes from the task's own
    /// state (handed in), never from a pin.
    public static let pinnable: [Bucket] = original + [.excused]

    /// The place of a task in state `state` that is not open (nil for an open task: its
    /// bucket depends on its due).
    public static func closed(_ state: SubmissionState) -> Bucket? {
        switch state {
        case .open: return nil
        case .submitted: return .toGrade
        case .completed: return .completed
        case .excused: return .excused
        }
    }

    /// Report order: overdue, today, to grade (the teacher's own to-do, after the students'
    /// urgent work), upcoming, undated, completed, excused.
    public var order: Int {
        switch self {
        case .overdue: return 0
        case .today: return 1
        case .toGrade: return 2
        case .upcoming: return 3
        case .undated: return 4
        case .completed: return 5
        case .excused: return 6
        }
    }

    /// Every place in report order (`order`): the sections of a list.
    public static let inReportOrder: [Bucket] = allCases.sorted { $0.order < $1.order }

    /// True for the places of finished work that lists leave out unless asked
    /// (`--include-completed`, or a filter that names them): completed and excused.
    public var isClosed: Bool { self == .completed || self == .excused }
}
