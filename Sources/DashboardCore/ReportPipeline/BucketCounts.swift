/// A count per bucket, held inline (seven integers, no heap storage): a grid holds one per
/// course and card, so a dictionary per course would cost a heap allocation each (docs/
/// performance.md, "Memory of reports").
public struct BucketCounts: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private var overdue = 0
    private var today = 0
    private var upcoming = 0
    private var undated = 0
    private var completed = 0
    private var toGrade = 0
    private var excused = 0

    public init() {}

    public init(dictionaryLiteral elements: (Bucket, Int)...) {
        for (bucket, count) in elements { self[bucket] = count }
    }

    public subscript(bucket: Bucket) -> Int {
        get {
            switch bucket {
            case .overdue: return overdue
            case .today: return today
            case .upcoming: return upcoming
            case .undated: return undated
            case .completed: return completed
            case .toGrade: return toGrade
            case .excused: return excused
            }
        }
        set {
            switch bucket {
            case .overdue: overdue = newValue
            case .today: today = newValue
            case .upcoming: upcoming = newValue
            case .undated: undated = newValue
            case .completed: completed = newValue
            case .toGrade: toGrade = newValue
            case .excused: excused = newValue
            }
        }
    }

    /// The sum over every bucket.
    public var total: Int { overdue + today + upcoming + undated + completed + toGrade + excused }
}
