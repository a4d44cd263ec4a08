/// Why a reclassification or a revert was refused.
///
/// Policy (issue 12, part 3): a typed value only. The library holds no words of the command
/// line (no flag, no command line); the executable words each case
/// (`Sources/dashboard/Commands/AuditError+Wording.swift`).
package enum AuditError: Error, Equatable {
    case unknownTask(String)
    case deletedTask(String)
    /// The reason is empty or only whitespace.
    case emptyReason
    /// Longer than `ManualOverride.reasonCharacterLimit`.
    case reasonTooLong(characters: Int)
    case expiryPassed(until: String, asOf: String)
    /// A bucket no override may name (`Bucket.pinnable`): `to_grade` is the place of
    /// handed-in work, from the task's own state.
    case notPinnable(Bucket)
    case invalidExpiry(String)
    case unknownEntry(Int)
    /// A `time` entry records the clock moving on; there is nothing to undo.
    case timeEntry(Int)
    case alreadyReverted(entry: Int, by: Int)
    /// Later entries changed the same task; a forced revert goes past them.
    case blockedEntry(entry: Int, task: String, blocking: [(id: Int, cause: AuditCause)])
    case unknownBatch(Int)
    case batchNotRevertible(Int, BatchStatus)
    case batchAlreadyReverted(batch: Int, by: Int)
    /// Later batches changed rows this batch changed; a forced revert goes past them.
    case blockedBatch(batch: Int, blocking: [Int])
    /// A bulk selection of more tasks than `BulkReclassify.taskLimit`.
    case bulkTooLarge(count: Int, limit: Int)
    /// `--confirm TOKEN` is not the selection's token now: `now` is the selection as it is;
    /// `changed`: the tasks changed since the preview (by the marks in TOKEN; nil when TOKEN
    /// carries none), at most `BulkReclassify.changedLimit`.
    case selectionChanged(confirm: String, now: BulkPlan, changed: [String]?)
    case unknownGroup(Int)
    /// Every entry of the group is already reverted (`by`: the reverting entries).
    case groupAlreadyReverted(group: Int, by: [Int])
    /// Later entries changed tasks of the group: each blocked entry, its task and what blocks it.
    case blockedGroup(group: Int, blocked: [GroupBlock])
    case store(StoreError)

    /// An entry of a group that later changes to its task block (`blockedGroup`).
    package struct GroupBlock: Sendable, Equatable {
        package var entry: Int
        package var task: String
        package var blocking: [Int]
        package var causes: [AuditCause]

        package init(entry: Int, task: String, blocking: [(id: Int, cause: AuditCause)]) {
            self.entry = entry
            self.task = task
            self.blocking = blocking.map(\.id)
            self.causes = blocking.map(\.cause)
        }
    }

    package static func == (lhs: AuditError, rhs: AuditError) -> Bool {
        switch (lhs, rhs) {
        case (.unknownTask(let a), .unknownTask(let b)), (.deletedTask(let a), .deletedTask(let b)),
            (.invalidExpiry(let a), .invalidExpiry(let b)):
            return a == b
        case (.emptyReason, .emptyReason): return true
        case (.reasonTooLong(let a), .reasonTooLong(let b)), (.unknownEntry(let a), .unknownEntry(let b)),
            (.timeEntry(let a), .timeEntry(let b)), (.unknownBatch(let a), .unknownBatch(let b)):
            return a == b
        case (.expiryPassed(let u1, let a1), .expiryPassed(let u2, let a2)): return u1 == u2 && a1 == a2
        case (.alreadyReverted(let e1, let b1), .alreadyReverted(let e2, let b2)),
            (.batchAlreadyReverted(let e1, let b1), .batchAlreadyReverted(let e2, let b2)):
            return e1 == e2 && b1 == b2
        case (.blockedEntry(let e1, let t1, let l1), .blockedEntry(let e2, let t2, let l2)):
            return e1 == e2 && t1 == t2 && l1.map(\.id) == l2.map(\.id) && l1.map(\.cause) == l2.map(\.cause)
        case (.batchNotRevertible(let i1, let s1), .batchNotRevertible(let i2, let s2)): return i1 == i2 && s1 == s2
        case (.blockedBatch(let b1, let l1), .blockedBatch(let b2, let l2)): return b1 == b2 && l1 == l2
        case (.bulkTooLarge(let c1, let l1), .bulkTooLarge(let c2, let l2)): return c1 == c2 && l1 == l2
        case (.selectionChanged(let c1, let n1, let x1), .selectionChanged(let c2, let n2, let x2)):
            return c1 == c2 && n1 == n2 && x1 == x2
        case (.unknownGroup(let a), .unknownGroup(let b)): return a == b
        case (.notPinnable(let a), .notPinnable(let b)): return a == b
        case (.groupAlreadyReverted(let g1, let b1), .groupAlreadyReverted(let g2, let b2)): return g1 == g2 && b1 == b2
        case (.blockedGroup(let g1, let b1), .blockedGroup(let g2, let b2)): return g1 == g2 && b1 == b2
        case (.store(let a), .store(let b)): return a.description == b.description
        default: return false
        }
    }
}
