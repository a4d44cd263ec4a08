/// Reads the common tasks row on its UTF-8 bytes (issue 26): ASCII values, a `due` in one of
/// the ISO forms, a priority and a completed word of the lists. For such a row it builds the
/// very `TaskRecord` `RowNormalizer` would, with a `String` only per stored value (most of them
/// small enough to live inside the string, without an allocation), instead of one per field
/// and the normalizer's Unicode-aware work on each.
///
/// Policy: the byte path only accepts; it never rejects. Any row it is not sure of returns nil
/// and goes to `RowNormalizer`, the oracle, which words every problem: a field count other
/// than the header's, a cell that could name `course_id` (the row may be a header again), a
/// stored value with a non-ASCII byte (Unicode white space, NFC, invisible characters) or over
/// 4 KiB, an empty required value, a due in any other form or out of range (slashed dates, a
/// one-digit month, a fraction of a second, `implausible_date`), a priority or completed word
/// it does not know. So the two paths cannot disagree on a problem's code, line or column, and
/// `ByteRowNormalizerTests` checks that every record it builds is the normalizer's.
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
    /// Every stored column's field index (checked for length and non-ASCII bytes).
    private let stored: [Int]

    /// nil for a courses file (small: read by the normalizer alone) and a file without a
    /// required column (its header is refused before any row).
    package init?(layout: HeaderLayout) {
        guard layout.kind == .tasks, let taskID = layout.indexes[.taskID], let courseID = layout.indexes[.courseID],
            let title = layout.indexes[.title]
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
        return raw.bytes.withUnsafeBufferPointer { all -> TaskRecord? in
            func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                let range = raw.range(index)
                return UnsafeBufferPointer(rebasing: all[range])
            }
            // A cell that could name course_id: maybe a header again, the normalizer's to say.
            if HeaderLayout.mayBeHeaderRow(raw) { return nil }
            for index in stored {
                let value = field(index)
                guard value.count <= RowNormalizer.maxFieldBytes, ASCIIBytes.all(value) else { return nil }
            }
            let taskIDValue = ASCIIBytes.trimmed(field(taskID))
            let courseIDValue = ASCIIBytes.trimmed(field(courseID))
            guard !taskIDValue.isEmpty, !courseIDValue.isEmpty, let titleText = ASCIIBytes.text(field(title)) else { return nil }
            var dueText = ""
            if due >= 0 {
                let text = ASCIIBytes.trimmed(field(due))
                if !text.isEmpty {
                    guard let parsed = ISODueBytes.parse(text) else { return nil }
                    dueText = parsed.storageText
                }
            }
            var priorityValue = Priority.normal
            if priority >= 0 {
                guard let word = WordKey(ASCIIBytes.trimmed(field(priority))), let value = Self.priorities[word] else { return nil }
                priorityValue = value
            }
            var completedValue = false
            if completed >= 0 {
                guard let word = WordKey(ASCIIBytes.trimmed(field(completed))), let value = Self.completedWords[word] else {
                    return nil
                }
                completedValue = value
            }
            func id(_ index: Int) -> String {
                index < 0 ? "" : ASCIIBytes.string(ASCIIBytes.trimmed(field(index)))
            }
            return TaskRecord(
                taskID: ASCIIBytes.string(taskIDValue), courseID: ASCIIBytes.string(courseIDValue), title: titleText,
                studentID: id(studentID), due: dueText, priority: priorityValue, completed: completedValue,
                assignmentID: id(assignmentID))
        }
    }

    /// `Priority.synonyms`' ASCII words by key.
    private static let priorities: [WordKey: Priority] = {
        var table: [WordKey: Priority] = [:]
        for (word, value) in Priority.synonyms {
            if let key = word.withUTF8Bytes({ WordKey($0) }) { table[key] = value }
        }
        return table
    }()

    /// `CompletedParser`'s ASCII words by key.
    private static let completedWords: [WordKey: Bool] = {
        var table: [WordKey: Bool] = [:]
        for word in CompletedParser.trueWords { if let key = word.withUTF8Bytes({ WordKey($0) }) { table[key] = true } }
        for word in CompletedParser.falseWords { if let key = word.withUTF8Bytes({ WordKey($0) }) { table[key] = false } }
        return table
    }()
}

/// A short ASCII word folded to lower case, packed 7 bits a byte (at most 9 bytes: the longest
/// priority and completed words), as a dictionary key that needs no `String`. Two words of
/// different lengths never collide: no ASCII byte a key holds is 0 (the reader refuses NUL).
struct WordKey: Hashable {
    let packed: UInt64
    let length: Int

    /// nil for a word over 9 bytes, with a non-ASCII byte or a NUL.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= 9 else { return nil }
        var packed: UInt64 = 0
        for byte in bytes {
            guard byte > 0, byte < 0x80 else { return nil }
            let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            packed = packed << 7 | UInt64(lower)
        }
        self.packed = packed
        length = bytes.count
    }
}

/// The text rules of `TextNormalizer` on ASCII bytes (callers checked that they are ASCII).
enum ASCIIBytes {
    /// True when every byte is below 0x80.
    @inline(__always)
    static func all(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var any: UInt8 = 0
        for byte in bytes { any |= byte }
        return any < 0x80
    }

    /// White space as `Unicode.Scalar.isUnicodeWhitespace` says for ASCII: tab, line feed,
    /// vertical tab, form feed, carriage return, space.
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// Without leading and trailing white space (`trimmingUnicodeWhitespace`).
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Free text (`TextNormalizer.text`): trimmed, each run of white space one space; nil when
    /// nothing is left (the normalizer's `missing_value`).
    static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let value = trimmed(bytes)
        if value.isEmpty { return nil }
        var clean = true
        var previousSpace = false
        for byte in value {
            let space = isSpace(byte)
            if space && (previousSpace || byte != 0x20) {
                clean = false
                break
            }
            previousSpace = space
        }
        if clean { return string(value) }
        var out: [UInt8] = []
        out.reserveCapacity(value.count)
        previousSpace = false
        for byte in value {
            if isSpace(byte) {
                previousSpace = true
                continue
            }
            if previousSpace { out.append(0x20) }
            previousSpace = false
            out.append(byte)
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
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for i in from..<(from + count) {
                let c = b[i]
                guard c >= 0x30, c <= 0x39 else { return nil }
                value = value * 10 + Int(c - 0x30)
            }
            return value
        }
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
