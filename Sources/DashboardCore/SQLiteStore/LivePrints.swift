/// Every live task's print and slot, held in memory for one PostgreSQL import that skips its
/// unchanged rows (`UnchangedRows`): read in one COPY, found by a 64-bit hash of the task id's
/// bytes.
///
/// Why a hash and not the ids: 28 bytes a task (a million tasks: 37 MiB with the table's free
/// places) whatever the ids' length. A hash two ids share cannot make a row pass for another
/// task: a row is skipped only when its print is the stored print of the one live task under
/// its hash, and the print covers the row's id; a hash several live tasks share decides
/// nothing (`find` says `several`: the row is normalized and staged). The hash is seeded per
/// process (`Hasher`), so no id can be chosen to collide on purpose.
struct LivePrints {
    /// Open addressing with linear probing; a key of 0 is a free place (a hash of 0 is stored as 1).
    private var keys: [UInt64]
    private var highs: [UInt64]
    private var lows: [UInt64]
    /// The slot of each place, with the sign bit set when the task has no print.
    private var slots: [Int32]
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
        let places = max(16, capacity + capacity / 3 + 1)
        keys = Array(repeating: 0, count: places)
        highs = Array(repeating: 0, count: places)
        lows = Array(repeating: 0, count: places)
        slots = Array(repeating: 0, count: places)
    }

    /// Reads every task with a slot (one COPY): the live ones with a slot in `SlotBitmap.range`
    /// into the table, every slot into `largestSlot`.
    static func load(_ database: Database) throws -> LivePrints {
        let range = SlotBitmap.range
        // The server's estimate of the rows (no scan: the table grows when it is short).
        var table = LivePrints(
            capacity: try database.int("SELECT greatest(reltuples, 0)::bigint FROM pg_class WHERE oid = to_regclass('tasks')"))
        var claimed = SlotBitmap()
        var id: [UInt8] = []
        try database.copyOut(
            "COPY (SELECT slot, deleted_batch IS NULL, encode(print, 'hex'), task_id FROM tasks WHERE slot IS NOT NULL) TO STDOUT"
        ) { line in
            guard let row = Row(line, id: &id) else { throw InternalError.unexpected("a row of tasks' prints that does not read") }
            table.largestSlot = max(table.largestSlot, row.slot)
            guard row.live, range.contains(row.slot) else { return }
            if claimed.contains(row.slot) { table.sharedSlots.append(row.slot) }
            claimed.insert(row.slot)
            id.withUnsafeBytes { table.insert(key: Self.key($0), print: row.print, slot: row.slot) }
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
        for place in keys.indices where keys[place] != 0 { try body(Int(slots[place] & Int32.max)) }
    }

    // MARK: - The table

    static func key(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        let key = UInt64(bitPattern: Int64(hasher.finalize()))
        return key == 0 ? 1 : key
    }

    private func start(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: key.multipliedFullWidth(by: UInt64(keys.count)).high)
    }

    private func find(key: UInt64) -> Found {
        var place = start(key)
        var found = Found.none
        while keys[place] != 0 {
            if keys[place] == key {
                let slot = Int(slots[place] & Int32.max)
                switch found {
                case .none:
                    let print = slots[place] < 0 ? nil : RowPrint(high: highs[place], low: lows[place])
                    found = .one(print: print, slot: slot)
                case .one(_, let first): found = .several([first, slot])
                case .several(let more): found = .several(more + [slot])
                }
            }
            place = place + 1 == keys.count ? 0 : place + 1
        }
        return found
    }

    private mutating func insert(key: UInt64, print: RowPrint?, slot: Int) {
        if (count + 1) * 4 > keys.count * 3 { grow() }
        var place = start(key)
        while keys[place] != 0 { place = place + 1 == keys.count ? 0 : place + 1 }
        keys[place] = key
        highs[place] = print?.high ?? 0
        lows[place] = print?.low ?? 0
        slots[place] = Int32(slot) | (print == nil ? Int32.min : 0)
        count += 1
    }

    /// Twice the places (a task committed between the count and the COPY).
    private mutating func grow() {
        var bigger = LivePrints(capacity: keys.count * 2)
        for place in keys.indices where keys[place] != 0 {
            let print = slots[place] < 0 ? nil : RowPrint(high: highs[place], low: lows[place])
            bigger.insert(key: keys[place], print: print, slot: Int(slots[place] & Int32.max))
        }
        (keys, highs, lows, slots, count) = (bigger.keys, bigger.highs, bigger.lows, bigger.slots, bigger.count)
    }

    // MARK: - One line of the COPY

    /// A line of `slot, live, print as hex, task_id` in COPY's text format; the id's bytes,
    /// unescaped, are left in `id`.
    private struct Row {
        var slot: Int
        var live: Bool
        var print: RowPrint?

        init?(_ line: UnsafeBufferPointer<UInt8>, id: inout [UInt8]) {
            var end = line.count
            if end > 0, line[end - 1] == 0x0A { end -= 1 }
            var index = 0
            // The slot: a bigint (a hand may have written a negative one).
            var negative = false
            if index < end, line[index] == 0x2D {
                negative = true
                index += 1
            }
            var slot = 0
            while index < end, line[index] != 0x09 {
                let digit = Int(line[index]) - 0x30
                guard (0...9).contains(digit) else { return nil }
                let (times, overflow) = slot.multipliedReportingOverflow(by: 10)
                slot = overflow ? Int.max : times &+ digit
                index += 1
            }
            self.slot = negative ? -slot : slot
            guard index + 2 < end, line[index + 2] == 0x09 else { return nil }
            live = line[index + 1] == 0x74
            index += 3
            // The print: 32 hex digits, or \N.
            if index + 2 <= end, line[index] == 0x5C, line[index + 1] == 0x4E {
                print = nil
                index += 2
            } else {
                var words: (UInt64, UInt64) = (0, 0)
                var digits = 0
                while index < end, line[index] != 0x09 {
                    guard let value = Self.hex(line[index]) else { return nil }
                    if digits < 16 { words.0 = words.0 << 4 | value } else { words.1 = words.1 << 4 | value }
                    digits += 1
                    index += 1
                }
                // A print of any other length is no print of this program's.
                print = digits == 32 ? RowPrint(high: words.0, low: words.1) : nil
            }
            guard index < end, line[index] == 0x09 else { return nil }
            index += 1
            id.removeAll(keepingCapacity: true)
            while index < end {
                var byte = line[index]
                if byte == 0x5C, index + 1 < end {
                    index += 1
                    switch line[index] {
                    case 0x62: byte = 0x08
                    case 0x66: byte = 0x0C
                    case 0x6E: byte = 0x0A
                    case 0x72: byte = 0x0D
                    case 0x74: byte = 0x09
                    case 0x76: byte = 0x0B
                    default: byte = line[index]
                    }
                }
                id.append(byte)
                index += 1
            }
        }

        private static func hex(_ byte: UInt8) -> UInt64? {
            switch byte {
            case 0x30...0x39: return UInt64(byte - 0x30)
            case 0x61...0x66: return UInt64(byte - 0x61 + 10)
            case 0x41...0x46: return UInt64(byte - 0x41 + 10)
            default: return nil
            }
        }
    }
}
