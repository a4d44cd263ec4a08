import Foundation

/// How far the store's logs reached at one moment: the last audit entry and the last batch.
/// A bulk `reclassify` preview records them in its token, so that a refused `--confirm` can
/// name the tasks changed since.
package struct ChangeMarks: Sendable, Equatable {
    package var lastEntry: Int
    package var lastBatch: Int

    package init(lastEntry: Int, lastBatch: Int) {
        self.lastEntry = lastEntry
        self.lastBatch = lastBatch
    }
}

/// The read side of "what changed since": values only.
package protocol ChangeMarksReading: SnapshotReading {
    /// The last audit entry and the last batch (0 when there is none).
    func changeMarks() throws -> ChangeMarks

    /// The tasks an audit entry after `marks.lastEntry` or a batch after `marks.lastBatch`
    /// changed (their data, bucket or override), by id, at most `limit` of them.
    func tasksChanged(since marks: ChangeMarks, limit: Int) throws -> [String]
}
