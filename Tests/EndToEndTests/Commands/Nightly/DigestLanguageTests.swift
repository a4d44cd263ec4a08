import Foundation
import Testing

/// Issue 29, item 4: the morning digest speaks the language its teacher's courses share (the
/// tag they all name, else their language by itself), else the database's default, else
/// English; its subject, text and HTML parts alike, read back with Python's `email` package.
@Suite struct DigestLanguageTests {
    /// DigestDeliveryTests' school with a language per course: Amaka Okafor's two courses speak
    /// German (de and de-AT: German by itself), Tomás Reyes's Japanese, Lee Chen's nothing.
    static let courses = """
        course_id,title,code,teacher,timezone,teacher e-mail,language
        bio,Biology,BIO 1,Amaka Okafor,Europe/Berlin,amaka.okafor@school.example,de
        his,History,HIS 2,Amaka Okafor,America/New_York,a.okafor@school.example,de-AT
        art,"Art, 美術",ART 3,Tomás Reyes,,tomas.reyes@school.example,ja-JP
        geo,Geography,GEO 4,Lee Chen,,lee.chen@school.example,

        """

    /// Night 2 of the school with `--digest` (no sending): each teacher's digest.eml as read back.
    static func digests(default language: String? = nil) throws -> [String: [String: Any]] {
        let sandbox = try Sandbox()
        try sandbox.write("drop/courses.csv", courses)
        try sandbox.write("drop/tasks.csv", DigestDeliveryTests.tasks)
        let night = ["--db", "db.sqlite", "nightly", "--reports", "reports", "--imports", "drop"]
        let first = try sandbox.run(["--as-of", "2026-12-03T02:00:00Z"] + night)
        #expect(first.exitCode == 0, "\(first)")
        var settings = [["mail-from", "dashboard@school.example"], ["base-url", "https://reports.school.example/"]]
        if let language { settings.append(["language", language]) }
        for setting in settings {
            #expect(try sandbox.run(["--db", "db.sqlite", "settings"] + setting).exitCode == 0)
        }
        try sandbox.write("drop/tasks.csv", DigestDeliveryTests.tasks + "b6,bio,Essay,s4,2026-12-02T09:00,,A1\n")
        let second = try sandbox.run(["--as-of", "2026-12-04T02:00:00Z"] + night + ["--digest"])
        #expect(second.exitCode == 0, "\(second)")
        let folder = sandbox.path("reports/latest/teachers")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { "\(folder)/\($0)/digest.eml" }.filter {
            FileManager.default.fileExists(atPath: $0)
        }
        #expect(files.count == 3, "\(files)")
        let messages = try DigestDeliveryTests.read(sandbox, files)
        return Dictionary(uniqueKeysWithValues: messages.values.map { (($0["to_names"] as? [String])?.first ?? "", $0) })
    }

    @Test func eachDigestSpeaksItsTeachersLanguageAndEnglishWhereTheyNameNone() throws {
        let byTeacher = try Self.digests()
        let okafor = try #require(byTeacher["Amaka Okafor"])
        #expect(okafor["subject"] as? String == "Ihre Kurse am 4. Dez. 2026: 3 Aufgaben überfällig, 1 Aufgabe heute fällig")
        let text = okafor["text"] as? String ?? ""
        #expect(text.hasPrefix("Guten Morgen, Amaka Okafor.\n"), "\(text)")
        #expect(text.contains("BIO 1 — Biology: 3 Aufgaben überfällig, 1 Aufgabe heute fällig\n"), "\(text)")
        #expect(text.contains("- Essay (fällig 2. Dez. 2026, 09:00): 3 von 4 überfällig, 1 Aufgabe erledigt\n"), "\(text)")
        #expect(text.contains("Nichts überfällig oder heute fällig in: HIS 2 — History.\n"), "\(text)")
        #expect(text.contains("- BIO 1 — Biology: seit gestern: 1 neu\n"), "\(text)")
        #expect(text.contains("Stand 4. Dez. 2026, 02:00 UTC"), "\(text)")
        #expect((okafor["html"] as? String ?? "").contains("<html lang=\"de\">"))
        // The mail's own header fields stay the protocol's: an RFC 5322 date in English.
        #expect(okafor["date"] as? String == "Fri, 04 Dec 2026 02:00:00 +0000")
        #expect((okafor["longest_line"] as? Int ?? 99) <= 78)

        let reyes = try #require(byTeacher["Tomás Reyes"])
        #expect(reyes["subject"] as? String == "2026年12月4日 のコース：期限切れ\u{A0}1\u{A0}件")
        let japanese = reyes["text"] as? String ?? ""
        #expect(japanese.hasPrefix("Tomás Reyes さん、おはようございます。\n"), "\(japanese)")
        #expect(japanese.contains("- Sketch; 写生（期限 2026年12月1日）：1\u{A0}件中 1\u{A0}件期限切れ\n"), "\(japanese)")
        #expect((reyes["html"] as? String ?? "").contains("<html lang=\"ja-JP\">"))

        let chen = try #require(byTeacher["Lee Chen"])
        #expect(chen["subject"] as? String == "Your courses on 2026-12-04: 1 overdue")
        #expect((chen["text"] as? String ?? "").hasPrefix("Good morning, Lee Chen.\n"))
    }

    @Test func theDatabasesDefaultSpeaksForATeacherWhoseCoursesNameNone() throws {
        let byTeacher = try Self.digests(default: "fr")
        let chen = try #require(byTeacher["Lee Chen"])
        #expect(chen["subject"] as? String == "Vos cours le 4 déc. 2026 : 1 en retard", "\(chen["subject"] ?? "")")
        #expect((chen["html"] as? String ?? "").contains("<html lang=\"fr\">"))
        // A course's own language still wins over the default.
        #expect((byTeacher["Tomás Reyes"]?["subject"] as? String ?? "").hasPrefix("2026年12月4日"))
    }
}
