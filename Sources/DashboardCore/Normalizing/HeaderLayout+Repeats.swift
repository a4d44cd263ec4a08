/// Data rows that are a header: what `cat a.csv b.csv` leaves in the middle of a file.
extension HeaderLayout {
    /// What a data row that reads as a header is to the file.
    package enum HeaderRow: Equatable, Sendable {
        /// The file's own header again (its columns where the file has them): not data.
        case same
        /// A header of another layout: the rows after it cannot be read with the file's.
        case other(HeaderLayout)
    }

    /// Whether `fields`, a data row, reads as a header, and whose.
    ///
    /// Policy: the row reads as a header when, read as a header line is (each cell trimmed and
    /// matched ignoring case, spaces, `_`, `-` and invisible format characters such as a
    /// second BOM, through the aliases), it names every required column of a kind of file
    /// with no column twice, and its cell under this file's id column (`task_id`, or
    /// `course_id` in a courses file) names a column too, or every cell that is not empty
    /// does. A real task whose course is called `course` and titled `Name` is still data.
    /// - It is `same` when it gives this file's layout: the same kind, every column the file
    ///   reads at the same place, the same number of fields (the names of ignored columns are
    ///   not compared: nothing is read from them).
    /// - Else it is `other`: other columns, another order, another number of fields or the
    ///   header of the other kind of file.
    /// Cheap for data: a row is looked at only when one of its cells could name `course_id`,
    /// which every header has, checked on the bytes first.
    package func headerRow(_ fields: [String]) -> HeaderRow? {
        // The first byte inline (most cells start with a digit or another letter than c), then
        // the rest of the check for the few others.
        let candidate = fields.contains { field in
            switch field.utf8.first {
            case 0x43?, 0x63?, 0x09?, 0x0A?, 0x0B?, 0x0C?, 0x0D?, 0x20?, 0x2D?, 0x5F?: return Column.mayNameCourseID(field)
            case let byte? where byte >= 0x80: return Column.mayNameCourseID(field)
            default: return false
            }
        }
        guard candidate else { return nil }
        guard let read = (try? HeaderLayout(header: fields, file: "", fileNameHint: kind)) ?? (try? HeaderLayout(header: fields, file: ""))
        else { return nil }
        let idColumn: Column = kind == .courses ? .courseID : .taskID
        let idCellNames =
            indexes[idColumn].map { $0 < fields.count && Column.named(fields[$0].trimmingUnicodeWhitespace()) != nil } ?? false
        guard idCellNames || fields.allSatisfy({ Column.isEmptyOrName($0) }) else { return nil }
        if read.kind == kind, read.indexes == indexes, read.fieldCount == fieldCount { return .same }
        return .other(read)
    }

    /// False when no cell of a row read as bytes could name `course_id`, which every header has:
    /// then `headerRow` is nil without a look at the strings (true also when only they can tell).
    static func mayBeHeaderRow(_ raw: FieldBytes) -> Bool {
        raw.bytes.withUnsafeBufferPointer { all in
            for index in 0..<raw.count {
                // Most cells end at their first byte: a digit, or a letter other than c.
                let range = raw.range(index)
                if let first = range.first.map({ all[$0] }), first >= 0x30, first < 0x80, first != 0x43, first != 0x63, first != 0x2D,
                    first != 0x5F
                {
                    continue
                }
                if Column.mayNameCourseID(bytes: UnsafeBufferPointer(rebasing: all[range])) != false { return true }
            }
            return false
        }
    }

    /// The columns of the layout in field order, canonical names (`task_id, course_id, title`),
    /// with `(N more fields)` for the ignored ones.
    package var columnList: String {
        let named = indexes.sorted { $0.value < $1.value }.map(\.key.rawValue).joined(separator: ", ")
        let ignored = fieldCount - indexes.count
        return ignored == 0 ? named : "\(named) and \(ignored) ignored field\(ignored == 1 ? "" : "s")"
    }
}

extension Column {
    /// The `course_id` aliases as ASCII letters packed 7 bits each (at most 9 letters), for
    /// `mayNameCourseID`; empty when an alias does not fit, which turns the shortcut off.
    private static let courseIDKeys: [UInt64] = {
        var keys: [UInt64] = []
        for alias in Column.courseID.aliases {
            guard alias.utf8.count <= 9, alias.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return [] }
            keys.append(alias.utf8.reduce(0) { $0 << 7 | UInt64($1) })
        }
        return keys
    }()

    /// True when `field` names `course_id` (as `named` says), looked at byte by byte first.
    ///
    /// Runs on the fields of every data row, so it reads bytes: most cells end at their first
    /// byte (a digit, a letter other than c), the others at the first ASCII character a column
    /// name cannot hold or at a tenth letter; text with non-ASCII bytes goes to `named`.
    static func mayNameCourseID(_ field: String) -> Bool {
        if let decided = field.withUTF8Bytes({ mayNameCourseID(bytes: $0) }) { return decided }
        return named(field.trimmingUnicodeWhitespace()) == .courseID
    }

    /// `mayNameCourseID` on a field's bytes; nil when only `named` can tell (a non-ASCII
    /// character other than those `UTF8Text.stableLength` reads, or an alias too long for the
    /// packed keys).
    static func mayNameCourseID(bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        let keys = courseIDKeys
        guard !keys.isEmpty else { return nil }
        var packed: UInt64 = 0
        var letters = 0
        var nonASCII = false
        var first = true
        for (i, byte) in bytes.enumerated() {
            if first {
                first = false
                switch byte {
                case 0x43, 0x63, 0x09...0x0D, 0x20, 0x2D, 0x5F, 0x80...: break
                default: return false
                }
            }
            switch byte {
            case 0x41...0x5A, 0x61...0x7A:
                letters += 1
                if letters > 9 { return false }
                packed = packed << 7 | UInt64(byte | 0x20)
            case 0x09...0x0D, 0x20, 0x2D, 0x5F: continue
            case 0x80...0xBF: continue  // inside a character looked at from its first byte
            case 0xC0...:
                // A character that lower-casing leaves outside ASCII and `matchingKey` keeps (not
                // white space, not a format character): no alias holds it.
                if UTF8Text.stableLength(bytes, at: i) > 0 || isSymbol(bytes, at: i) { return false }
                nonASCII = true
            default: return false
            }
        }
        if nonASCII { return nil }
        return letters > 0 && keys.contains(packed)
    }

    /// True for a character of U+2190–U+2BFF (arrows, mathematical and technical signs, box
    /// drawing, shapes, dingbats such as ✓ and ✗): none is white space or a format character,
    /// and lower-casing leaves each outside ASCII.
    private static func isSymbol(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard b[i] == 0xE2, i + 2 < b.count else { return false }
        let scalar = (UInt32(b[i + 1] & 0x3F) << 6) | UInt32(b[i + 2] & 0x3F) | 0x2000
        return (0x2190...0x2BFF).contains(scalar)
    }

    /// True when a cell of a header-like row is empty or names a column.
    static func isEmptyOrName(_ field: String) -> Bool {
        let name = field.trimmingUnicodeWhitespace()
        return name.isEmpty || named(name) != nil
    }
}
