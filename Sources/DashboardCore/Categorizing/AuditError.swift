/// Why a reclassification or a revert was refused.
public enum AuditError: Error, Equatable, CustomStringConvertible {
    case unknownTask(String)
    case deletedTask(String)
    case emptyReason
    /// Longer than `ManualOverride.reasonCharacterLimit`.
    case reasonTooLong(characters: Int)
    case expiryPassed(until: String, asOf: String)
    case invalidExpiry(String)
    case unknownEntry(Int)
    /// A `time` entry records the clock moving on; there is nothing to undo.
    case timeEntry(Int)
    case alreadyReverted(entry: Int, by: Int)
    /// Later entries changed the same task; `--force` reverts anyway.
    case blockedEntry(entry: Int, task: String, blocking: [(id: Int, cause: AuditCause)])
    case unknownBatch(Int)
    case batchNotRevertible(Int, BatchStatus)
    case batchAlreadyReverted(batch: Int, by: Int)
    /// Later batches changed rows this batch changed; `--force` reverts anyway.
    case blockedBatch(batch: Int, blocking: [Int])
    case store(StoreError)

    public static func == (lhs: AuditError, rhs: AuditError) -> Bool { lhs.description == rhs.description }

    public var description: String {
        switch self {
        case .unknownTask(let id): return "there is no task \"\(id)\""
        case .deletedTask(let id): return "task \"\(id)\" is deleted; restore it before reclassifying it"
        case .emptyReason: return "--reason must say why the task is reclassified"
        case .reasonTooLong(let count):
            return "--reason must be at most \(ManualOverride.reasonCharacterLimit) characters, not \(count)"
        case .expiryPassed(let until, let asOf): return "--until \(until) is not after the as-of time \(asOf)"
        case .invalidExpiry(let text): return "cannot read --until \"\(text)\""
        case .unknownEntry(let id): return "there is no audit entry \(id)"
        case .timeEntry(let id):
            return "entry \(id) records the clock moving on (cause time); there is nothing to revert"
        case .alreadyReverted(let entry, let by):
            return "entry \(entry) was already reverted by entry \(by); revert \(by) to re-apply it"
        case .blockedEntry(let entry, let task, let blocking):
            let list = blocking.map { "\($0.id) (\($0.cause.rawValue))" }.joined(separator: ", ")
            return "entry \(entry) has later changes to task \"\(task)\": entries \(list); revert those first, or pass --force"
        case .unknownBatch(let id): return "there is no batch \(id)"
        case .batchNotRevertible(let id, let status):
            return "batch \(id) is \(status.rawValue): it wrote no data, so there is nothing to revert"
        case .batchAlreadyReverted(let batch, let by):
            return "batch \(batch) was already reverted by batch \(by); revert batch \(by) to re-apply it"
        case .blockedBatch(let batch, let blocking):
            return
                "batch \(batch) has later changes to the same rows: batches \(blocking.map(String.init).joined(separator: ", ")); revert those first, or pass --force"
        case .store(let error): return error.description
        }
    }
}
