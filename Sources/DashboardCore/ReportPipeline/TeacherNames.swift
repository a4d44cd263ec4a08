import Foundation

/// The one rule for which courses a teacher's name matches: a course matches NAME when its
/// `teacher` holds every word of NAME, compared folded (case, diacritics, width: `TextFold`),
/// words split at every character that is not a letter or a digit. `report --teacher NAME`
/// (`ReportMatcher`), `reclassify --teacher NAME` and a grant of `dashboard access grant-teacher
/// ROLE --teacher NAME` (`PGAccess`) all use it: "Nguyen" matches "Nguyễn Văn An" and "Ms.
/// Olivia Nguyen", "okafor" and "David Okafor" match "Mr. David Okafor", "oka" matches nobody,
/// and "Lee" matches both "Ann Lee" and "Bruce Lee".
///
/// On PostgreSQL the row-level-security policies must decide in SQL what this decides in Swift.
/// They apply `characterTable`, which this type computes from the same folding: each character's
/// fold as the rule reads it (its letters and digits, a space for anything that splits words).
/// `PGTeacherNamesTests` compares both on every character of the table's planes and on a
/// table of names (accents, case, several words, several scripts).
package enum TeacherNames {
    /// A name's words, folded: split at every character that is not a letter or a digit ("Mr.
    /// D'Arcy-Smith" → mr, d, arcy, smith). Empty for a name with no letter or digit.
    package static func words(_ name: String) -> [String] {
        TextFold.fold(name).split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }

    /// True when `teacher` (a course's) holds every one of `words` (a name's, from `words(_:)`);
    /// false for no words at all (a name without a letter or a digit matches nobody).
    package static func matches(_ words: [String], teacher: String) -> Bool {
        guard !words.isEmpty else { return false }
        let held = Set(Self.words(teacher))
        return words.allSatisfy(held.contains)
    }

    /// The planes the character table covers: the Basic Multilingual Plane and the
    /// Supplementary Multilingual Plane (a name's characters beyond them — CJK extensions B and
    /// later — are letters that fold to themselves, which is what the server assumes for a
    /// character the table does not hold).
    static let tablePlanes: ClosedRange<UInt32> = 0x01...0x1_FFFF

    /// Each character whose fold, as `words` reads it, is not the character itself: its folded
    /// letters and digits, a space where it splits words, "" where the fold drops it (a
    /// combining accent after a letter). Every other character stays as it is in the server's
    /// reading. Characters no version of Unicode this program knows assigns are left out (they
    /// stay as they are on the server; `words` splits at them), and so are the surrogates.
    ///
    /// How: a character is read after a letter ("a"), as a name holds it: the fold of "a" and
    /// the character, whatever of it joins the "a" into one character staying in the word (an
    /// accent the fold keeps), the rest letter by letter.
    package static func characterTable() -> [(character: String, fragment: String)] {
        var table: [(character: String, fragment: String)] = []
        for value in tablePlanes {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = scalar.properties.generalCategory
            if category == .unassigned || category == .surrogate { continue }
            let character = String(scalar)
            let fragment = Self.fragment(of: scalar)
            if fragment != character { table.append((character, fragment)) }
        }
        return table
    }

    /// What `character` becomes in a name's reading, after a letter.
    static func fragment(of scalar: Unicode.Scalar) -> String {
        let folded = TextFold.fold("a" + String(scalar))
        var characters = Array(folded)
        guard let first = characters.first, first.unicodeScalars.first == "a" else {
            // The fold did not keep the letter in front (no scalar this program knows does that):
            // the character alone.
            return TextFold.fold(String(scalar)).map { $0.isLetter || $0.isNumber ? String($0) : " " }.joined()
        }
        var fragment = String(String.UnicodeScalarView(first.unicodeScalars.dropFirst()))
        characters.removeFirst()
        for character in characters { fragment += character.isLetter || character.isNumber ? String(character) : " " }
        return fragment
    }

    /// A digest of `table` (SHA-256 of its rows) and of the statements that read it: the server's
    /// copy is written again only when it differs (another version of this program, another
    /// Unicode).
    package static func digest(_ table: [(character: String, fragment: String)], definitions: [String] = []) -> String {
        let hash = SHA256()
        for row in table { hash.update(Array((row.character + "\t" + row.fragment + "\n").utf8)) }
        for statement in definitions { hash.update(Array((statement + ";\n").utf8)) }
        return hash.finalizeHex()
    }
}
