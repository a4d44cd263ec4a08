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
        case .notPinnable(let bucket):
            return "--to \(bucket.rawValue) is not a bucket to pin: it comes from the task's status (handed in), never by hand"
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
        case .bulkTooLarge(let count, let limit):
            return "the selection holds \(count) tasks; one bulk change pins at most \(limit)"
        case .selectionChanged(let confirm, let now, _):
            return "the selection changed since the preview (--confirm \(confirm), now \(now.token))"
        case .unknownGroup(let id): return "there is no group \(id)"
        case .groupAlreadyReverted(let group, let by):
            let list = by.map(String.init).joined(separator: ", ")
            return
                "group \(group) was already reverted (by entr\(by.count == 1 ? "y" : "ies") \(list)); revert the group that reverted it to re-apply it"
        case .blockedGroup(let group, let blocked):
            let list = blocked.map { block in
                let later = zip(block.blocking, block.causes).map { "\($0) (\($1.rawValue))" }.joined(separator: ", ")
                return "entry \(block.entry) (task \"\(block.task)\"): \(later)"
            }.joined(separator: "; ")
            return "group \(group) has later changes to its tasks: \(list); revert those first, or pass --force"
        case .store(let error): return error.description
        }
    }
}
