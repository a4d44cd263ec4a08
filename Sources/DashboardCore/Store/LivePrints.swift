/// Every live task's print and slot, held in memory for one PostgreSQL import that skips its
/// unchanged rows (`UnchangedRows`): read in one COPY, found by a 64-bit hash of the task id's
/// bytes.
///
/// Why a hash and not the ids: 32 bytes a place whatever the ids' length (a million tasks:
/// 46 MiB with the table's free places). A hash two ids share cannot make a row pass for another
/// task: a row is skipped only when its print is the stored print of the one live task under
/// its hash, and the print covers the row's id; a hash several live tasks share decides
/// nothing (`find` says `several`: the row is normalized and staged). The hash is seeded per
/// process (`Hasher`), so no id can be chosen to collide on purpose.
struct LivePrints {
    /// One place of the table: a task's id hash (0: a free place; a hash of 0 is stored as 1),
    /// print and slot, in one cache line's half (a lookup reads one place, not four arrays).
    private struct Place {
        var key: UInt64 = 0
        var high: UInt64 = 0
        var low: UInt64 = 0
        /// The slot, and `noPrint` / `shared` in the top bits.
        var slot: UInt32 = 0
        static let noPrint: UInt32 = 1 << 31
        static let shared: UInt32 = 1 << 30
        var number: Int { Int(slot & ~(Self.noPrint | Self.shared)) }
        var print: RowPrint? { slot & Self.noPrint != 0 ? nil : RowPrint(high: high, low: low) }
    }

    /// Open addressing with linear probing, at most two thirds full (a lookup reads about two
    /// places). A hash met again when inserting marks every place of it `shared`, so that a
    /// lookup stops at the first place of its hash unless it is shared.
    private var places: [Place]
    private(set) var count = 0
    /// Slots that two live tasks share (a hand edit no trigger saw).
    private(set) var sharedSlots: [Int] = []
    /// The largest slot of any task, live or deleted (0 when none).
    private(set) var largestSlot = 0

    /// What `find` found for an id.
    enum Found: Equatable {
        case none
        /// One live task: its print (nil when it has none) and slot.
        case one(print: RowPrint?, slot: Int)
        /// Several live tasks under the same hash: their slots.
        case several([Int])
    }

    init(capacity: Int) {
        places = Array(repeating: Place(), count: max(16, capacity + capacity / 2 + 1))
    }

    /// Reads every task with a slot (one COPY, in the binary format: no text to print on the
    /// server or to parse here): the live ones with a slot in `SlotBitmap.range` into the
    /// table, every slot into `largestSlot`.
    static func load(_ database: Database) throws -> LivePrints {
        let range = SlotBitmap.range
        // The server's estimate of the rows (no scan: the table grows when it is short).
        var table = LivePrints(
            capacity: try database.int("SELECT greatest(reltuples, 0)::bigint FROM pg_class WHERE oid = to_regclass('tasks')"))
        var claimed = SlotBitmap()
        try database.copyOut(
            "COPY (SELECT slot, deleted_batch IS NULL, print, task_id FROM tasks WHERE slot IS NOT NULL) TO STDOUT (FORMAT binary)"
        ) { message in
            guard let row = BinaryRow(message) else { throw InternalError.unexpected("a row of tasks' prints that does not read") }
            guard case .row(let slot, let live, let print, let id) = row else { return }
            table.largestSlot = max(table.largestSlot, slot)
            guard live, range.contains(slot) else { return }
            if claimed.contains(slot) { table.sharedSlots.append(slot) }
            claimed.insert(slot)
            table.insert(key: Self.key(UnsafeRawBufferPointer(id)), print: print, slot: slot)
        }
        return table
    }

    /// The live tasks whose id is `taskID`'s bytes, by hash.
    func find(_ taskID: String) -> Found {
        var id = taskID
        return id.withUTF8 { find(key: Self.key(UnsafeRawBufferPointer($0))) }
    }

    /// Calls `body` with the slot of every live task in the table.
    func forEachSlot(_ body: (Int) throws -> Void) rethrows {
        for place in places where place.key != 0 { try body(place.number) }
    }

    // MARK: - The table

    static func key(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        let key = UInt64(bitPattern: Int64(hasher.finalize()))
        return key == 0 ? 1 : key
    }

    private func start(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: key.multipliedFullWidth(by: UInt64(places.count)).high)
    }

    private func next(_ index: Int) -> Int { index + 1 == places.count ? 0 : index + 1 }

    private func find(key: UInt64) -> Found {
        var index = start(key)
        while places[index].key != 0 {
            let place = places[index]
            if place.key == key {
                guard place.slot & Place.shared != 0 else { return .one(print: place.print, slot: place.number) }
                // Every place of a shared hash, to the end of its run.
                var slots: [Int] = []
                while places[index].key != 0 {
                    if places[index].key == key { slots.append(places[index].number) }
                    index = next(index)
                }
                return .several(slots)
            }
            index = next(index)
        }
        return .none
    }

    private mutating func insert(key: UInt64, print: RowPrint?, slot: Int) {
        if (count + 1) * 3 > places.count * 2 { grow() }
        var flags: UInt32 = print == nil ? Place.noPrint : 0
        var index = start(key)
        while places[index].key != 0 {
            if places[index].key == key {
                places[index].slot |= Place.shared
                flags |= Place.shared
            }
            index = next(index)
        }
        places[index] = Place(key: key, high: print?.high ?? 0, low: print?.low ?? 0, slot: UInt32(slot) | flags)
        count += 1
    }

    /// Twice the places (a task committed between the estimate and the COPY).
    private mutating func grow() {
        var bigger = LivePrints(capacity: places.count * 2)
        for place in places where place.key != 0 { bigger.insert(key: place.key, print: place.print, slot: place.number) }
        (places, count) = (bigger.places, bigger.count)
    }

    // MARK: - One message of the COPY

    /// One message of `COPY … TO STDOUT (FORMAT binary)` of `slot, live, print, task_id`: a row
    /// (the first one after the format's header), or the trailer (or the header alone).
    private enum BinaryRow {
        case row(slot: Int, live: Bool, print: RowPrint?, id: UnsafeBufferPointer<UInt8>)
        case end

        static let signature: [UInt8] = [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00]

        init?(_ message: UnsafeBufferPointer<UInt8>) {
            var index = 0
            func integer(_ width: Int) -> Int64? {
                guard index + width <= message.count else { return nil }
                var value: Int64 = 0
                for offset in 0..<width { value = value << 8 | Int64(message[index + offset]) }
                index += width
                // Sign-extended from `width` bytes.
                let shift = Int64(64 - 8 * width)
                return (value << shift) >> shift
            }
            if message.count >= 19, message.starts(with: Self.signature) {
                index = 15
                guard let extensionLength = integer(4), extensionLength >= 0 else { return nil }
                index += Int(extensionLength)
                // The header alone (a server may send it by itself).
                if index == message.count {
                    self = .end
                    return
                }
            }
            guard let fields = integer(2) else { return nil }
            if fields == -1 {
                self = .end
                return
            }
            guard fields == 4 else { return nil }
            // slot: bigint, never NULL here.
            guard integer(4) == 8, let slot = integer(8) else { return nil }
            // live: boolean.
            guard integer(4) == 1, index < message.count else { return nil }
            let live = message[index] != 0
            index += 1
            // print: bytea or NULL; a print of any other length is no print of this program's.
            guard let printLength = integer(4) else { return nil }
            var print: RowPrint?
            if printLength >= 0 {
                guard index + Int(printLength) <= message.count else { return nil }
                if printLength == 16 {
                    let high = integer(8).map { UInt64(bitPattern: $0) } ?? 0
                    let low = integer(8).map { UInt64(bitPattern: $0) } ?? 0
                    print = RowPrint(high: high, low: low)
                } else {
                    index += Int(printLength)
                }
            }
            // task_id: text, its bytes as stored.
            guard let idLength = integer(4), idLength >= 0, index + Int(idLength) <= message.count else { return nil }
            self = .row(
                slot: Int(slot), live: live, print: print,
                id: UnsafeBufferPointer(rebasing: message[index..<(index + Int(idLength))]))
        }
    }
}
