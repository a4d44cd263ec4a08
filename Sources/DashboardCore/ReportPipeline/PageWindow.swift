import Foundation

/// The first `keep` tasks of a list in the report's order, kept by sort key while the list is
/// streamed: in memory while the keys fit in `ReportStream.inMemoryKeyBytes` (a buffer sorted
/// and cut back to `keep` keys whenever it doubles, so memory is O(keep)), else in the store's
/// `PageKeys` (SQLite: a TEMP table on disk, indexed on the key once every task is in).
/// Either way the page is then read with one selection (`TaskSelection.keptPage`) of the page
/// keys, and put back in key order by the caller.
final class PageWindow {
    private let keep: Int
    private let keys: any PageKeys
    /// The bytes of keys kept in memory before they go to the store.
    private let memory: Int
    private var buffer: [(key: [UInt8], id: String)] = []
    private var bytes = 0
    /// The largest of `keep` kept keys: a key at or above it cannot be in the window.
    private var threshold: [UInt8]?
    /// True once the keys went to the store: every later key goes there too.
    private var spilled = false

    /// - Parameter keys: the read's empty page keys (`ReportReading.pageKeys`).
    init(keep: Int, keys: any PageKeys, memory: Int = ReportStream.inMemoryKeyBytes) {
        self.keep = keep
        self.keys = keys
        self.memory = memory
    }

    /// Lets the store's keys go.
    func finish() {
        keys.drop()
    }

    /// False when a key starting with `prefix` cannot be in the window (it sorts after the
    /// largest kept key): the caller need not compute the rest of the key.
    func mayKeep(prefix: [UInt8]) -> Bool {
        guard keep > 0 else { return false }
        guard !spilled, let threshold else { return true }
        return !threshold.prefix(prefix.count).lexicographicallyPrecedes(prefix)
    }

    /// Offers one listed task.
    func add(_ key: [UInt8], _ id: String) throws {
        guard keep > 0 else { return }
        if spilled {
            try keys.add(key, taskID: id)
            return
        }
        if let threshold, !key.lexicographicallyPrecedes(threshold) { return }
        buffer.append((key, id))
        bytes += key.count + id.utf8.count + 64
        if buffer.count >= keep.multipliedReportingOverflow(by: 2).partialValue || bytes > memory {
            try compact()
        }
    }

    /// Sorts the buffer and keeps its first `keep` keys; moves them to the store when even
    /// those do not fit in half the memory allowed.
    private func compact() throws {
        buffer.sort { $0.key.lexicographicallyPrecedes($1.key) }
        if buffer.count >= keep {
            buffer.removeLast(buffer.count - keep)
            threshold = buffer.last?.key
        }
        bytes = buffer.reduce(0) { $0 + $1.key.count + $1.id.utf8.count + 64 }
        guard bytes > memory / 2 else { return }
        for item in buffer { try keys.add(item.key, taskID: item.id) }
        buffer = []
        bytes = 0
        spilled = true
    }

    /// The selection that reads the tasks `offset + 1 … offset + count` of the order; the
    /// caller puts them back in key order.
    func page(offset: Int, count: Int) throws -> TaskSelection {
        var skip = offset
        if spilled {
            try keys.prepareOrderedReading()
        } else {
            buffer.sort { $0.key.lexicographicallyPrecedes($1.key) }
            for item in buffer.dropFirst(offset).prefix(count) { try keys.add(item.key, taskID: item.id) }
            buffer = []
            skip = 0
        }
        return .keptPage(offset: skip, count: count)
    }
}
