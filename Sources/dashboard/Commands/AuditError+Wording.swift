import DashboardCore

/// The command line's words for a refused reclassification or revert: the library's
/// `AuditError` is a typed value, and only the executable names flags (`--reason`, `--until`,
/// `--force`).
extension AuditError {
    /// The error line `dashboard reclassify` and `dashboard revert` print.
    var message: String {
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
            let list = blocking.map(String.init).joined(separator: ", ")
            return "batch \(batch) has later changes to the same rows: batches \(list); revert those first, or pass --force"
        case .store(let error): return error.description
        }
    }
}
