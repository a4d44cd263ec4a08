/// Unicode format characters (general category Cf) in ids: the BOM a second export leaves in
/// the middle of a concatenated file (U+FEFF), zero-width spaces and joiners (U+200B–U+200D,
/// U+2060–U+2064), bidi controls (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, U+061C), the
/// soft hyphen (U+00AD), the tag characters (U+E0001, U+E0020–U+E007F) and the rest of Cf.
///
/// Policy: an id (`course_id`, `task_id`, `student_id`, `assignment_id`) holding one is an
/// `invisible_character` error: the row is rejected, the message names each character (its
/// code point, its Unicode name and its position in the cell, counting code points from 1)
/// and the hint says to remove it, because `C1` and `C1` + U+200B print alike and would be two
/// courses. White space is not Cf (it is trimmed, and kept inside an id as written); control
/// characters (Cc) are not Cf either, and stay (stored exactly, shown escaped). Free text
/// (titles, teacher, term, code) keeps its format characters: a zero-width joiner draws
/// `👩‍💻` and shapes Persian and Indic names.
package enum InvisibleCharacters {
    /// True for a format character (Cf). Nothing below U+00AD is one.
    @inline(__always)
    package static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0xAD && scalar.properties.generalCategory == .format
    }

    /// The format characters of `text` with their 1-based positions in code points; empty for
    /// ASCII text without a look at its scalars.
    package static func find(in text: String) -> [(scalar: Unicode.Scalar, position: Int)] {
        if text.isASCII { return [] }
        var found: [(scalar: Unicode.Scalar, position: Int)] = []
        for (offset, scalar) in text.unicodeScalars.enumerated() where isInvisible(scalar) {
            found.append((scalar, offset + 1))
        }
        return found
    }

    /// `text` without its format characters: what an id was meant to be (a rejected row's id
    /// for a sync, the course a rejected task names).
    package static func removed(from text: String) -> String {
        if text.isASCII { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isInvisible(scalar) { out.append(scalar) }
        return String(out)
    }

    /// `U+200B (ZERO WIDTH SPACE) at position 3`.
    static func described(_ scalar: Unicode.Scalar, at position: Int) -> String {
        let name = scalar.properties.name.map { " (\($0))" } ?? ""
        return "U+\(hex(scalar))\(name) at position \(position)"
    }

    /// The `invisible_character` problem of the id `raw` of `column`, or nil when it has none.
    ///
    /// The message names up to three characters and counts the rest; the hint says what the id
    /// reads without them.
    /// - Parameter id: the id after trimming and NFC (`TextNormalizer.id`).
    static func problem(_ column: Column, raw: String, id: String) -> FieldProblem? {
        let found = find(in: raw)
        guard let first = found.first else { return nil }
        let shown = found.prefix(3).map { described($0.scalar, at: $0.position) }.joined(separator: ", ")
        let more = found.count > 3 ? " and \(found.count - 3) more" : ""
        let meant = TextNormalizer.id(removed(from: id))
        let message =
            found.count == 1
            ? "\(column.rawValue) holds an invisible character: \(shown)"
            : "\(column.rawValue) holds \(found.count) invisible characters: \(shown)\(more)"
        let which = found.count == 1 ? "U+\(hex(first.scalar)) at position \(first.position)" : "them"
        return FieldProblem(
            code: .invisibleCharacter, column: column.rawValue, value: raw, message: message,
            hint: "remove \(which) from the \(column.rawValue) in the export (it reads \"\(meant)\" without "
                + "\(found.count == 1 ? "it" : "them")): an invisible character makes an id look like another one")
    }

    /// `problem` (a value a parser refused) with its hint saying which invisible characters
    /// the value holds, when it holds any: `2026-11-29` + U+200B is not a date, and the
    /// reader cannot see why.
    static func noted(_ problem: FieldProblem) -> FieldProblem {
        let found = find(in: problem.value)
        guard !found.isEmpty else { return problem }
        var noted = problem
        let listed = found.prefix(3).map { "U+\(hex($0.scalar)) at position \($0.position)" }.joined(separator: ", ")
        let more = found.count > 3 ? " and \(found.count - 3) more" : ""
        noted.hint =
            "the value holds \(found.count == 1 ? "an invisible character" : "\(found.count) invisible characters") "
            + "(\(listed)\(more)): remove \(found.count == 1 ? "it" : "them"); " + problem.hint
        return noted
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
