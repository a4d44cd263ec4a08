import Foundation

/// Where a task stands relative to the as-of instant (SPEC §6). `BucketPolicy` decides which.
public enum Bucket: String, Sendable, CaseIterable, Codable {
    case overdue
    case today
    case upcoming
    case undated
    case completed

    /// The four buckets of open tasks, in report order.
    public static let open: [Bucket] = [.overdue, .today, .upcoming, .undated]

    /// Report order: overdue, today, upcoming, undated, completed.
    public var order: Int {
        switch self {
        case .overdue: return 0
        case .today: return 1
        case .upcoming: return 2
        case .undated: return 3
        case .completed: return 4
        }
    }
}
