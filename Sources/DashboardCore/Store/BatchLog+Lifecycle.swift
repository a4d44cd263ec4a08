/// The changes of a batch's status after it began (approval, discard, revert), and the reads
/// of batch order that decide them: with `BatchLog`, the only code that writes `batches`.
extension BatchLog {
    /// Sets a batch's status and reason (its finish time stays).
    static func setStatus(_ database: Database, batchID: Int, _ status: BatchStatus, reason: String) throws {
        try database.run("UPDATE batches SET status = ?, reason = ? WHERE batch_id = ?", [status.rawValue, reason, batchID])
    }

    /// Records that batch `batchID` applies the held batch `heldBatchID` (`batches approve`).
    static func setApprovedFrom(_ database: Database, batchID: Int, heldBatchID: Int) throws {
        try database.run("UPDATE batches SET approved_from = ? WHERE batch_id = ?", [heldBatchID, batchID])
    }

    /// Records that batch `batchID` reverts `revertsBatch` (nil: a revert of one entry), and why.
    static func setReverts(_ database: Database, batchID: Int, revertsBatch: Int?, reason: String) throws {
        try database.run("UPDATE batches SET reverts_batch = ?, reason = ? WHERE batch_id = ?", [revertsBatch, reason, batchID])
    }

    /// The batch a revert batch reverted, if any.
    static func revertedBatch(_ database: Database, by batchID: Int) throws -> Int? {
        try database.scalar("SELECT reverts_batch FROM batches WHERE batch_id = ?", [batchID])?.integer.map { Int($0) }
    }

    /// The last batch that reverted `batchID`.
    static func lastRevert(_ database: Database, of batchID: Int) throws -> Int {
        try database.int("SELECT max(batch_id) FROM batches WHERE reverts_batch = ?", [batchID])
    }

    /// Batches that wrote data (committed or since reverted) after `batchID`, in order.
    static func dataBatches(_ database: Database, after batchID: Int) throws -> [Int] {
        var ids: [Int] = []
        try database.cached(
            "SELECT batch_id FROM batches WHERE batch_id > ? AND status IN ('committed', 'reverted') ORDER BY batch_id"
        ).forEachRow([batchID]) { ids.append($0.int(0)) }
        return ids
    }
}
