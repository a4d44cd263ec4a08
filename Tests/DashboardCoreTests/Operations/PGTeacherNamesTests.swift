import Foundation
import PostgresTestSupport
import Testing

@testable import DashboardCore

/// One rule for a teacher's name (`TeacherNames`), decided twice: in Swift by `report --teacher`,
/// in SQL by the row-level-security policies of `dashboard access` (`dashboard_name_words`, fed
/// the character table Swift computes). Both must agree on every name, or a grant would give
/// other courses than the report of the same name shows.
@Suite("PostgreSQL: the server reads teachers' names as report --teacher does", .postgresPass)
struct PGTeacherNamesTests {
    /// A database with the dashboard's schema and the access layout (the fold table written).
    static func prepared() throws -> PGStore {
        let server = try PostgresTestServer.shared()
        let store = try PGStore(uri: server.url(try server.database()), create: true)
        try store.connection.inTransaction { try PGAccess.prepare(store.connection) }
        return store
    }

    /// Each name's words as the server reads them, joined by spaces (a word holds none).
    static func serverWords(_ store: PGStore, _ names: [String]) throws -> [String] {
        try store.connection.query(
            """
            SELECT array_to_string(dashboard_name_words(x), ' ') FROM unnest(CAST($1 AS text[])) WITH ORDINALITY AS t(x, n)
            ORDER BY n
            """, [PGDialect.arrayLiteral(names)]
        ).map { $0[0] ?? "" }
    }

    /// Whether the server's policy reading grants `grant` the courses of `teacher`.
    static func serverMatches(_ store: PGStore, grant: String, teacher: String) throws -> Bool {
        let words = TeacherNames.words(grant)
        guard !words.isEmpty else { return false }
        return try store.connection.scalar(
            "SELECT CASE WHEN CAST($1 AS text[]) <@ dashboard_name_words($2) THEN 1 ELSE 0 END",
            [PGDialect.arrayLiteral(words), teacher]) == "1"
    }

    @Test(
        "a grant matches the teachers report --teacher matches, and only those",
        arguments: [
            // (a course's teacher, the name granted, matches)
            ("Nguyễn Văn An", "Nguyen", true),
            ("Ms. Olivia Nguyen", "Nguyen", true),
            ("Nguyễn Văn An", "nguyễn VĂN", true),
            ("Nguyễn Văn An", "An Nguyen Van", true),
            ("Nguyễn Văn An", "Nguy", false),
            ("Nguyễn Văn An", "Nguyen Van Anh", false),
            ("Ann Lee", "Lee", true),
            ("Bruce Lee", "Lee", true),
            ("Ann Lee", "ANN lee", true),
            ("Ann Lee", "Ann Leed", false),
            ("Ann Lee-Smith", "Ann Lee", true),
            ("Mr. David Okafor", "okafor", true),
            ("Mr. David Okafor", "David Okafor", true),
            ("Mr. David Okafor", "oka", false),
            ("Prof. Jürgen Müller", "jurgen MULLER", true),
            ("Prof. Jürgen Müller", "Müller-Jürgen", true),
            ("Mr. D'Arcy-Smith", "darcy", false),
            ("Mr. D'Arcy-Smith", "d arcy smith", true),
            ("Hannah Straße", "strasse", true),
            ("田中 美咲 (Tanaka Misaki)", "田中", true),
            ("田中 美咲 (Tanaka Misaki)", "tanaka misaki", true),
            ("Ｌｅｅ Ｍｉｎ", "lee min", true),
            ("Adébáyọ̀ Ọlá", "adebayo ola", true),
            ("Σωκράτης Παπαδόπουλος", "σωκρατης παπαδοπουλος", true),
            ("김민수", "김민수", true),
            ("Đặng Thị Hoa", "đặng hoa", true),
            // Foundation does not fold Đ to D (a stroke is no diacritic): neither does the report.
            ("Đặng Thị Hoa", "Dang", false),
            ("", "Lee", false),
            ("Ann Lee", "—", false),
        ])
    func grantMatchesAsTheReport(teacher: String, grant: String, matches: Bool) throws {
        let store = try Self.prepared()
        let words = TeacherNames.words(grant)
        #expect(TeacherNames.matches(words, teacher: teacher) == matches)
        var query = ReportQuery()
        query.teachers = [grant]
        #expect(
            ReportMatcher(query).allows(CourseRecord(courseID: "c", code: "c", title: "t", teacher: teacher)) == (matches || words.isEmpty))
        #expect(try Self.serverMatches(store, grant: grant, teacher: teacher) == matches)
    }

    /// The characters whose reading depends on the next one, which the server reads alone:
    /// Unicode's Prepend signs that are no letters (Arabic number signs, the Syriac abbreviation
    /// mark, Kaithi's number signs) join the character after them into one that is no letter.
    /// `misreadNames` and a grant's check name a teacher whose name holds one.
    static let prependSigns: Set<UInt32> = [
        0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD,
    ]

    @Test("the server splits and folds every character of the table's planes as Swift does, after a letter and before one")
    func everyCharacterAgrees() throws {
        let store = try Self.prepared()
        var names: [String] = []
        for value in TeacherNames.tablePlanes where !Self.prependSigns.contains(value) {
            guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .unassigned else { continue }
            names.append("a" + String(scalar) + "b")
        }
        var disagree: [String] = []
        for start in stride(from: 0, to: names.count, by: 8192) {
            let chunk = Array(names[start..<min(start + 8192, names.count)])
            for (name, server) in zip(chunk, try Self.serverWords(store, chunk))
            where server != TeacherNames.words(name).joined(separator: " ") {
                disagree.append(name.unicodeScalars.dropFirst().first.map { String($0.value, radix: 16) } ?? "?")
            }
        }
        #expect(disagree.isEmpty, "U+\(disagree.prefix(40).joined(separator: ", U+")) (\(disagree.count) in all)")
    }

    @Test("random names of a school's scripts, accents and punctuation read the same on both sides")
    func randomNamesAgree() throws {
        let store = try Self.prepared()
        // Letters that take an accent the export did not compose (Latin, Greek, Cyrillic), and
        // letters that never do here (a half-width katakana keeps a mark after it in Foundation's
        // fold and drops it after a Latin letter: `misreadNamesAreNamedAndRefuseAGrant`).
        let accented = Array(
            "aeiouAEIOUnmlkqwzÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿßẞĐđƠơƯưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ"
                + "ΑΒΓΔΣΩαβγδσςωάέήίόύώЖжЁёЙйЩщİıÆæŒœØøĳ"
        ).map(String.init)
        let plain = Array("田中美咲김민수ｱｲｳｶｻﾀＡＢＣａｂｃ０１２ﬁﬂŉǰ").map(String.init)
        let letters = accented + plain
        let accents = ["\u{301}", "\u{300}", "\u{323}", "\u{308}", "\u{303}"]
        let separators = [" ", " ", " ", "-", "'", "’", ". ", ", ", " (", ") ", "\u{00A0}", "/", "&"]
        var generator = SeededGenerator(state: 27)
        var names: [String] = []
        for _ in 0..<4000 {
            var name = ""
            for word in 0..<Int.random(in: 1...4, using: &generator) {
                if word > 0 { name += separators[Int.random(in: 0..<separators.count, using: &generator)] }
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    let letter = Int.random(in: 0..<letters.count, using: &generator)
                    name += letters[letter]
                    // An accent the exports did not compose, on a letter that takes one.
                    if letter < accented.count, Int.random(in: 0..<12, using: &generator) == 0 {
                        name += accents[Int.random(in: 0..<accents.count, using: &generator)]
                    }
                }
            }
            names.append(name)
        }
        let server = try Self.serverWords(store, names)
        var disagree: [String] = []
        for (name, words) in zip(names, server) where words != TeacherNames.words(name).joined(separator: " ") {
            disagree.append(name.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
        }
        #expect(disagree.isEmpty, "\(disagree.prefix(10)) (\(disagree.count) in all)")
    }

    @Test("a name the server cannot read as the report does is named, and a grant that would read it is refused whole")
    func misreadNamesAreNamedAndRefuseAGrant() throws {
        let store = try Self.prepared()
        let connection = store.connection
        // Half-width katakana with a voiced mark: Foundation keeps the mark after a katakana and
        // drops it after a Latin letter; the server reads each character alone.
        try connection.execute(
            """
            INSERT INTO courses (course_id, code, title, teacher) VALUES
                ('c1', 'C1', 'One', 'Nguyễn Văn An'), ('c2', 'C2', 'Two', 'ｶﾞｸ Nguyen'), ('c3', 'C3', 'Three', 'Ann Lee')
            """)
        #expect(try PGAccess.misreadNames(store) == ["ｶﾞｸ Nguyen"])
        let role = "t_" + UUID().uuidString.lowercased().prefix(12).replacingOccurrences(of: "-", with: "")
        try connection.execute("CREATE ROLE \(role)")
        #expect(throws: PGAccess.Failure.rulesDisagree(["ｶﾞｸ Nguyen"])) { try PGAccess.grant(store, role: role, teacher: "ｶﾞｸ") }
        #expect(try connection.scalar("SELECT count(*) FROM teacher_access") == "0")
        // A grant that both read alike for every name is made: "Nguyen" is a word of the misread
        // name on both sides.
        let outcome = try PGAccess.grant(store, role: role, teacher: "Nguyen")
        #expect(outcome.teachers.map(\.name) == ["Nguyễn Văn An", "ｶﾞｸ Nguyen"] && outcome.courses == 2)
        try connection.execute("DROP OWNED BY \(role); DROP ROLE \(role)")
    }

}
