import Foundation

/// PostgreSQL's side of `UnchangedRows`: the same decisions as SQLite's, on the live tasks'
/// prints and slots read once at the start of the run (`LivePrints`) instead of a lookup per
/// row, which over the wire (a round trip each, 30–50 µs) would cost more than staging and
/// comparing every row.
///
/// Decided by measurement (docs/performance.md): a million live tasks are read in one COPY in
/// about 0.4 s and take 28 bytes each in memory; the other designs considered were the print of
/// every row sent to the server and compared there in one join (the rows that differ are known
/// only once the whole file was read: each would have to be read a second time), and a lookup
/// per row (a million round trips).
extension UnchangedRows {
    /// Keeps every other writer from changing `tasks` until the run commits (readers are never
    /// kept out): the prints were read at the start, so a hand edit committed in the middle of
    /// the run must wait for its end, as SQLite's lock makes it. A writer holding `tasks` for
    /// longer than 3 s (an open psql transaction) is not waited for: the run then compares every
    /// row. The wait (not NOWAIT) lets an autovacuum of `tasks` give way: the server cancels
    /// one that blocks a lock request for a second.
    static func lockTasks(_ database: Database) throws -> Bool {
        try database.execute("SAVEPOINT print_lock; SET LOCAL lock_timeout = '3s'")
        do {
            try database.execute("LOCK TABLE tasks IN SHARE ROW EXCLUSIVE MODE")
        } catch {
            try database.execute("ROLLBACK TO print_lock; RELEASE print_lock")
            return false
        }
        // The rest of the run waits for locks as before.
        try database.execute("SET LOCAL lock_timeout TO DEFAULT; RELEASE print_lock")
        return true
    }

    /// `match` on PostgreSQL: the live task of the row's raw id, found by its id's hash; a
    /// hash two live tasks share is decided by normalizing the row (it is staged and compared).
    func matchLive(taskID: String, print: RowPrint) -> Match {
        guard let live, case .one(let stored, let slot) = live.find(taskID) else { return .differs }
        guard let stored, stored == print, SlotBitmap.range.contains(slot) else { return .differs }
        if seen.contains(slot) || staged.contains(slot) { return .differs }
        seen.insert(slot)
        skipped += 1
        return .unchanged
    }

    /// `noteStaged` on PostgreSQL. An id whose hash several live tasks share is a repeat of a
    /// skipped row when any of their slots was seen (the importer then finds the skipped row
    /// by its exact id, `skippedTask`, and goes back to the full path when there is none).
    func noteStagedLive(taskID: String) -> Bool {
        guard let live else { return true }
        let slots: [Int]
        switch live.find(taskID) {
        case .none: return true
        case .one(_, let slot): slots = [slot]
        case .several(let found): slots = found
        }
        let inRange = slots.filter { SlotBitmap.range.contains($0) }
        if inRange.contains(where: { seen.contains($0) && !staged.contains($0) }) { return false }
        for slot in inRange { staged.insert(slot) }
        return true
    }

    /// `markUnseen` on PostgreSQL: the slots of the live tasks not seen are sent in one COPY,
    /// and one statement lists those tasks, and every live task without a usable slot, in
    /// `unseen_tasks`.
    func markUnseenLive() throws -> Bool {
        guard let live else { return false }
        let start = DispatchTime.now().uptimeNanoseconds
        defer { steps.append(("unseen tasks listed", DispatchTime.now().uptimeNanoseconds - start)) }
        if live.sharedSlots.contains(where: { seen.contains($0) }) { return false }
        var data: [UInt8] = []
        live.forEachSlot { slot in
            guard !seen.contains(slot) else { return }
            data.append(contentsOf: String(slot).utf8)
            data.append(0x0A)
        }
        try database.execute(PostgreSQLStoreSQL.unseenSlotsTable)
        if !data.isEmpty { try database.copyIn("COPY unseen_slots (slot) FROM STDIN", data: data) }
        try database.run(
            """
            INSERT INTO unseen_tasks (task_id)
            SELECT task_id FROM tasks
            WHERE deleted_batch IS NULL AND (slot IS NULL OR slot < ?1 OR slot > ?2 OR slot IN (SELECT slot FROM unseen_slots))
            ON CONFLICT DO NOTHING
            """, [SlotBitmap.range.lowerBound, SlotBitmap.range.upperBound])
        largestSlot = live.largestSlot
        return true
    }
}
