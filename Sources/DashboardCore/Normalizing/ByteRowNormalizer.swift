/// Reads the common tasks row on its UTF-8 bytes (issue 26): values whose characters need no
/// Unicode work beyond trimming and collapsing white space (`UTF8Text`), a `due` in one of the
/// ISO forms, a priority and a completed word of the lists. For such a row it builds the very
/// `TaskRecord` `RowNormalizer` would, with a `String` only per stored value (most of them small
/// enough to live inside the string, without an allocation), instead of one per field and the
/// normalizer's Unicode-aware work on each.
///
/// Policy: the byte path only accepts; it never rejects. Any row it is not sure of returns nil
/// and goes to `RowNormalizer`, the oracle, which words every problem: a field count other
/// than the header's, a cell that could name `course_id` (the row may be a header again), a
/// stored value over 4 KiB, a character that NFC could change or that is invisible (`UTF8Text`
/// lists what it reads), an empty required value, a due in any other form or out of range
/// (slashed dates, a one-digit month, a fraction of a second, `implausible_date`), a priority or
/// completed word it does not know. So the two paths cannot disagree on a problem's code, line
/// or column, and `ByteRowNormalizerTests` checks that every record it builds is the
/// normalizer's.
package struct ByteRowNormalizer: Sendable {
    private let fieldCount: Int
    private let taskID: Int
    private let courseID: Int
    private let title: Int
    private let studentID: Int
    private let due: Int
    private let priority: Int
    private let completed: Int
    private let assignmentID: Int
    /// Every stored column's field index (checked for length).
    private let stored: [Int]

    /// nil for a courses file (small: read by the normalizer alone) and a file without a
    /// required column (its header is refused before any row);
    /// nil too for a file with SPEC §11's `status` or `submitted_at`: the normalizer reads
    /// those rows (the fast path knows today's columns only).
    package init?(layout: HeaderLayout) {
        guard layout.kind == .tasks, let taskID = layout.indexes[.taskID], let courseID = layout.indexes[.courseID],
            let title = layout.indexes[.title], layout.indexes[.status] == nil, layout.indexes[.submittedAt] == nil
        else { return nil }
        fieldCount = layout.fieldCount
        self.taskID = taskID
        self.courseID = courseID
        self.title = title
        studentID = layout.indexes[.studentID] ?? -1
        due = layout.indexes[.due] ?? -1
        priority = layout.indexes[.priority] ?? -1
        completed = layout.indexes[.completed] ?? -1
        assignmentID = layout.indexes[.assignmentID] ?? -1
        stored = layout.indexes.values.sorted()
    }

    /// The task of a row, or nil when `RowNormalizer` must read it (see the type's policy).
    package func task(_ raw: FieldBytes) -> TaskRecord? {
        guard raw.count == fieldCount else { return nil }
        // A cell that could name course_id: maybe a header again, the normalizer's to say.
        if HeaderLayout.mayBeHeaderRow(raw) { return nil }
        return raw.bytes.withUnsafeBufferPointer { all -> TaskRecord? in
            func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: all[raw.range(index)])
            }
            for index in stored where field(index).count > RowNormalizer.maxFieldBytes { return nil }
            guard let taskIDValue = UTF8Text.id(field(taskID)), !taskIDValue.isEmpty, let courseIDValue = UTF8Text.id(field(courseID)),
                !courseIDValue.isEmpty, let titleText = UTF8Text.text(field(title)), !titleText.isEmpty
            else { return nil }
            var dueText = ""
            if due >= 0 {
                let text = UTF8Text.trimmedASCII(field(due))
                if !text.isEmpty {
                    guard let parsed = ISODueBytes.parse(text) else { return nil }
                    dueText = parsed.storageText
                }
            }
            var priorityValue = Priority.normal
            if priority >= 0 {
                guard let word = WordKey(UTF8Text.trimmedASCII(field(priority))), let value = Self.priorities[word] else { return nil }
                priorityValue = value
            }
            var completedValue = false
            if completed >= 0 {
                guard let word = WordKey(UTF8Text.trimmedASCII(field(completed))), let value = Self.completedWords[word] else {
                    return nil
                }
                completedValue = value
            }
            var studentIDValue = ""
            if studentID >= 0 {
                guard let value = UTF8Text.id(field(studentID)) else { return nil }
                studentIDValue = value
            }
            var assignmentIDValue = ""
            if assignmentID >= 0 {
                guard let value = UTF8Text.id(field(assignmentID)) else { return nil }
                assignmentIDValue = value
            }
            return TaskRecord(
                taskID: taskIDValue, courseID: courseIDValue, title: titleText, studentID: studentIDValue, due: dueText,
                priority: priorityValue, completed: completedValue, assignmentID: assignmentIDValue)
        }
    }

    /// `Priority.synonyms`' words by key.
    private static let priorities: [WordKey: Priority] = {
        var table: [WordKey: Priority] = [:]
        for (word, value) in Priority.synonyms {
            if let key = WordKey(listed: word) { table[key] = value }
        }
        return table
    }()

    /// `CompletedParser`'s words by key.
    private static let completedWords: [WordKey: Bool] = {
        var table: [WordKey: Bool] = [:]
        for word in CompletedParser.trueWords { if let key = WordKey(listed: word) { table[key] = true } }
        for word in CompletedParser.falseWords { if let key = WordKey(listed: word) { table[key] = false } }
        return table
    }()
}

/// A short word as a dictionary key that needs no `String`: its bytes with ASCII letters in
/// lower case, packed 8 bits a byte up to 8 bytes, or 7 bits a byte for a 9-byte ASCII word
/// (`important`, `completed`). The length is part of the key, so no two words collide.
///
/// A listed word is keyed only when lower-casing does not change it (`✓` is; a word with an
/// upper-case letter outside ASCII would not be), so an input whose bytes, ASCII letters
/// lowered, equal a listed word lowers to that word as `String.lowercased()` does: its other
/// characters are the listed word's own, which lower-casing keeps.
struct WordKey: Hashable {
    let packed: UInt64
    let length: Int

    /// nil for a word over 9 bytes, or of 9 bytes with one outside ASCII.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= 9 else { return nil }
        let shift: UInt64 = bytes.count == 9 ? 7 : 8
        var packed: UInt64 = 0
        for byte in bytes {
            if shift == 7, byte >= 0x80 { return nil }
            let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            packed = packed << shift | UInt64(lower)
        }
        self.packed = packed
        length = bytes.count
    }

    /// The key of a listed word; nil when lower-casing would change it or it does not fit.
    init?(listed word: String) {
        guard word.lowercased() == word, let key = word.withUTF8Bytes({ WordKey($0) }) else { return nil }
        self = key
    }
}

/// The text rules of `TextNormalizer` on UTF-8 bytes, for the characters whose treatment needs
/// no Unicode table: ASCII, white space (trimmed, and in free text each run one space), and
/// characters NFC keeps as they are whatever follows them (`stableLength`). Anything else is
/// nil: the caller leaves the row to the normalizer.
enum UTF8Text {
    /// White space as `Unicode.Scalar.isUnicodeWhitespace` says for ASCII: tab, line feed,
    /// vertical tab, form feed, carriage return, space.
    @inline(__always)
    static func isASCIISpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// The byte length of the white space character at `i` (`isUnicodeWhitespace`), 0 when
    /// there is none.
    @inline(__always)
    static func spaceLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let byte = b[i]
        if byte < 0x80 { return isASCIISpace(byte) ? 1 : 0 }
        switch byte {
        case 0xC2:  // U+0085, U+00A0
            return i + 1 < b.count && (b[i + 1] == 0x85 || b[i + 1] == 0xA0) ? 2 : 0
        case 0xE1:  // U+1680
            return i + 2 < b.count && b[i + 1] == 0x9A && b[i + 2] == 0x80 ? 3 : 0
        case 0xE2:  // U+2000–U+200A, U+2028, U+2029, U+202F, U+205F
            guard i + 2 < b.count else { return 0 }
            if b[i + 1] == 0x80 {
                let c = b[i + 2]
                return (c >= 0x80 && c <= 0x8A) || c == 0xA8 || c == 0xA9 || c == 0xAF ? 3 : 0
            }
            return b[i + 1] == 0x81 && b[i + 2] == 0x9F ? 3 : 0
        case 0xE3:  // U+3000
            return i + 2 < b.count && b[i + 1] == 0x80 && b[i + 2] == 0x80 ? 3 : 0
        default:
            return 0
        }
    }

    /// The byte length of the non-ASCII character at `i` when NFC keeps it as it is, next to
    /// anything (its canonical combining class is 0 and it is NFC_Quick_Check=Yes), it is not a
    /// format character and not white space; 0 otherwise. Read: U+0080–U+02FF (no character
    /// before the combining marks composes or decomposes, as `TextNormalizer.nfc` says) but the
    /// soft hyphen U+00AD (a format character) and the white space U+0085, U+00A0; hiragana and
    /// katakana U+3041–U+3096, U+309B–U+30FF (not the combining sound marks U+3099, U+309A);
    /// CJK U+4E00–U+9FFF.
    @inline(__always)
    static func stableLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let lead = b[i]
        if lead >= 0xC2 && lead <= 0xCB {
            guard i + 1 < b.count else { return 0 }
            if lead == 0xC2 && (b[i + 1] == 0x85 || b[i + 1] == 0xA0 || b[i + 1] == 0xAD) { return 0 }
            return 2
        }
        guard i + 2 < b.count else { return 0 }
        let scalar = (UInt32(lead & 0x0F) << 12) | (UInt32(b[i + 1] & 0x3F) << 6) | UInt32(b[i + 2] & 0x3F)
        switch lead {
        case 0xE3:
            return (0x3041...0x3096).contains(scalar) || (0x309B...0x30FF).contains(scalar) ? 3 : 0
        case 0xE4...0xE9:
            return (0x4E00...0x9FFF).contains(scalar) ? 3 : 0
        default:
            return 0
        }
    }

    /// Without leading and trailing ASCII white space (enough for a due or a word: any other
    /// white space leaves a value the byte path does not read).
    static func trimmedASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, isASCIISpace(bytes[start]) { start += 1 }
        while end > start, isASCIISpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// An id (`TextNormalizer.id`): trimmed, kept as written inside. nil when it holds a
    /// character the byte path does not read, or white space other than ASCII at either end.
    static func id(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let value = trimmedASCII(bytes)
        var i = 0
        while i < value.count {
            if value[i] < 0x80 {
                i += 1
                continue
            }
            let space = spaceLength(value, at: i)
            if space > 0 {
                // Inside an id white space stays as written; below U+0300 NFC keeps it.
                guard space == 2, i > 0, i + space < value.count else { return nil }
                i += space
                continue
            }
            let stable = stableLength(value, at: i)
            guard stable > 0 else { return nil }
            i += stable
        }
        return String(decoding: value, as: UTF8.self)
    }

    /// Free text (`TextNormalizer.text`): trimmed, each run of white space one space. nil when
    /// it holds a character the byte path does not read.
    static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var clean = true
        var previousSpace = true  // a space first is one to trim
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte < 0x80 {
                let space = isASCIISpace(byte)
                if space && (previousSpace || byte != 0x20) { clean = false }
                previousSpace = space
                i += 1
                continue
            }
            let space = spaceLength(bytes, at: i)
            if space > 0 {
                clean = false
                previousSpace = true
                i += space
                continue
            }
            let stable = stableLength(bytes, at: i)
            guard stable > 0 else { return nil }
            previousSpace = false
            i += stable
        }
        if clean && !previousSpace { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var pendingSpace = false
        i = 0
        while i < bytes.count {
            let space = spaceLength(bytes, at: i)
            if space > 0 {
                pendingSpace = !out.isEmpty
                i += space
                continue
            }
            if pendingSpace {
                out.append(0x20)
                pendingSpace = false
            }
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The due forms of nearly every export, on bytes: `YYYY-MM-DD`, then optionally `T` and
/// `HH:MM` or `HH:MM:SS`, then optionally `Z` or `±HH:MM`. Every value it accepts reads to the
/// same `DueDate` in `DueDateParser`; anything else (other forms, out of range) is nil and left
/// to that parser, which accepts more and words the problems.
enum ISODueBytes {
    static func parse(_ b: UnsafeBufferPointer<UInt8>) -> DueDate? {
        let n = b.count
        guard n == 10 || n == 16 || n == 17 || n == 19 || n == 20 || n == 22 || n == 25 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? { DueDate.decimal(b, from, count) }
        guard b[4] == 0x2D, b[7] == 0x2D, let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            DueDateParser.plausibleYears.contains(year), (1...12).contains(month), day >= 1,
            day <= CivilDate.daysIn(month: month, year: year)
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        if n == 10 { return .date(date) }
        guard b[10] == UInt8(ascii: "T"), b[13] == 0x3A, let hour = number(11, 2), let minute = number(14, 2), hour <= 23,
            minute <= 59
        else { return nil }
        var second = 0
        var zoneAt = 16
        if n >= 19, b[16] == 0x3A {
            guard let s = number(17, 2), s <= 59 else { return nil }
            second = s
            zoneAt = 19
        }
        if zoneAt == n { return .local(date, hour: hour, minute: minute, second: second) }
        let local = Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        if zoneAt + 1 == n, b[zoneAt] == UInt8(ascii: "Z") { return .instant(local) }
        guard zoneAt + 6 == n, b[zoneAt] == 0x2B || b[zoneAt] == 0x2D, b[zoneAt + 3] == 0x3A, let oh = number(zoneAt + 1, 2),
            let om = number(zoneAt + 4, 2), om <= 59, oh * 3600 + om * 60 <= DueDateParser.maxOffsetHours * 3600
        else { return nil }
        let offset = oh * 3600 + om * 60
        return .instant(local - Int64(b[zoneAt] == 0x2D ? -offset : offset))
    }
}
