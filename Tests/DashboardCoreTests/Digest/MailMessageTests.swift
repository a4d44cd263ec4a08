import Foundation
import Testing

@testable import DashboardCore

/// The digest e-mail's text: encoded words, quoted-printable, dates, headers that cannot be
/// injected, a whole message byte for byte, and Python's `email` package reading it back.
@Suite("MailMessage: RFC 5322 and MIME text of the digest e-mails", .storeIndependent)
struct MailMessageTests {
    static func address(_ text: String) throws -> EmailAddress {
        try #require(EmailAddress(text))
    }

    /// The fixed message of the whole-message test and the Python round trip.
    static func digest() throws -> MailMessage {
        MailMessage(
            from: .init(name: "Dashboard, Riverside School", address: try address("digest@school.example")),
            to: [
                .init(name: "Jürgen Groß", address: try address("jg@school.example")),
                .init(name: nil, address: try address("office@school.example")),
            ],
            subject: "Morgenübersicht: 3 Aufgaben überfällig",
            date: Date(timeIntervalSince1970: 1_796_349_600),  // 2026-12-04T02:00:00Z
            messageID: MailMessage.messageID(seed: "t1|2026-12-04", domain: "school.example"),
            text: "Guten Morgen,\n\n3 Aufgaben sind überfällig.\n.\nFrom the dashboard: a=b \n",
            html: "<!DOCTYPE html>\n<html lang=\"de\"><body><p>3 Aufgaben sind überfällig: Essay (Biologie), "
                + "Referat (Geschichte) und Quiz.</p></body></html>\n")
    }

    /// The text of an encoded word, nil when its bytes are not valid UTF-8 on their own.
    static func decoded(_ word: String) -> String? {
        guard word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?="),
            let data = Data(base64Encoded: String(word.dropFirst(10).dropLast(2)))
        else { return nil }
        return String(validating: Array(data), as: UTF8.self)
    }

    /// Every word at most 75 octets and valid UTF-8 alone, the words together the text, and no
    /// grapheme cluster cut unless it is longer than a word.
    static func expectWellCut(_ text: String, clustersKept: Bool = true) {
        let words = MailMessage.encodedWords(text)
        let pieces = words.map { decoded($0) }
        for (word, piece) in zip(words, pieces) {
            #expect(word.utf8.count <= 75, "\(word)")
            #expect(piece != nil, "\(word) is not valid UTF-8 alone")
        }
        #expect(pieces.compactMap { $0 }.joined() == text)
        if clustersKept { #expect(pieces.compactMap { $0?.count }.reduce(0, +) == text.count) }
    }

    // MARK: - Encoded words

    @Test func aJapaneseNameIsOneEncodedWord() {
        #expect(MailMessage.encodedWords("山田 太郎") == ["=?UTF-8?B?5bGx55SwIOWkqumDjg==?="])
        #expect(MailMessage.encodedWords("") == [])
    }

    @Test func anEmojiHeavyNameIsCutBetweenWholeCharactersAndGraphemeClusters() {
        let name = String(repeating: "🎉 Team 👩‍👩‍👧‍👦 Familie 🇯🇵🇩🇪 👍🏽 ", count: 3)
        #expect(MailMessage.encodedWords(name).count > 2)
        Self.expectWellCut(name)
    }

    @Test func aClusterLongerThanAWordIsCutBetweenItsScalars() {
        let letter = "e" + String(repeating: "\u{301}", count: 30)  // 61 bytes, one grapheme cluster
        #expect(MailMessage.encodedWords(letter).map { Self.decoded($0)?.utf8.count } == [45, 16])
        Self.expectWellCut(letter, clustersKept: false)
    }

    @Test func aLongNameIsSeveralWordsOfAtMost75Octets() {
        let words = MailMessage.encodedWords(String(repeating: "é", count: 60))
        #expect(
            words == [
                "=?UTF-8?B?w6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6k=?=",
                "=?UTF-8?B?w6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6k=?=",
                "=?UTF-8?B?w6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6k=?=",
            ])
        #expect(words.allSatisfy { $0.utf8.count <= 75 })
        Self.expectWellCut(String(repeating: "é", count: 60))
    }

    @Test func aWordOfTheTextThatFitsAnEncodedWordIsNotCut() {
        let name = "Ms Very Long School Name Umlaut Ä Very Long School Name Übersicht"
        #expect(
            MailMessage.encodedWords(name).map { Self.decoded($0) } == [
                "Ms Very Long School Name Umlaut Ä Very Long ", "School Name Übersicht",
            ])
    }

    // MARK: - Quoted-printable

    @Test func aLineOf200CharactersGetsSoftBreaksWithin76() {
        let encoded = MailMessage.quotedPrintable(String(repeating: "a", count: 200))
        let lines = encoded.components(separatedBy: "\r\n")
        #expect(
            lines == [
                String(repeating: "a", count: 75) + "=", String(repeating: "a", count: 75) + "=", String(repeating: "a", count: 50),
            ])
        #expect(lines.allSatisfy { $0.count <= 76 })
    }

    @Test(arguments: [
        ("a=b", "a=3Db"),
        ("trailing space ", "trailing space=20"),
        ("inner space", "inner space"),
        ("tab\tend\t", "tab=09end=09"),
        ("é", "=C3=A9"),
        ("a\nb\n", "a\r\nb\r\n"),
        ("a\r\nb", "a=0D\r\nb"),
        ("", ""),
        (".hidden\n..\na.b", "=2Ehidden\r\n=2E.\r\na.b"),
        ("From here\nFrom\nFromage\nSee From here", "=46rom here\r\nFrom\r\nFromage\r\nSee From here"),
    ])
    func quotedPrintableEncodesWhatIsNotSafeAsItIs(text: String, expected: String) {
        #expect(MailMessage.quotedPrintable(text) == expected)
    }

    @Test func aSoftBreakNeverCutsAnEscapeAndADotAfterItIsEncoded() {
        let a74 = String(repeating: "a", count: 74)
        #expect(MailMessage.quotedPrintable(a74 + "éb") == a74 + "=\r\n=C3=A9b")
        let a73 = String(repeating: "a", count: 73)
        #expect(MailMessage.quotedPrintable(a73 + "==") == a73 + "=\r\n=3D=3D")
        let a75 = String(repeating: "a", count: 75)
        #expect(MailMessage.quotedPrintable(a75 + ".x") == a75 + "=\r\n=2Ex")
        #expect(MailMessage.quotedPrintable(a75 + "From x") == a75 + "=\r\n=46rom x")
        // The last line of a hard line may use all 76 characters.
        #expect(MailMessage.quotedPrintable(a75 + "b") == a75 + "b")
    }

    // MARK: - Dates

    @Test(arguments: [
        (1_796_349_600.0, "Fri, 04 Dec 2026 02:00:00 +0000"),
        (951_868_799.9, "Tue, 29 Feb 2000 23:59:59 +0000"),
        (-1.0, "Wed, 31 Dec 1969 23:59:59 +0000"),
    ])
    func datesAreRFC5322InUTCWithEnglishNames(seconds: Double, expected: String) {
        #expect(MailMessage.date(Date(timeIntervalSince1970: seconds)) == expected)
    }

    // MARK: - Headers

    @Test func headerTextKeepsASCIIFoldsLongASCIIAndEncodesTheRest() {
        #expect(MailMessage.headerText("Morning digest") == "Morning digest")
        #expect(
            MailMessage.headerText(
                "Morning digest for Ms. Example: 12 overdue, 3 due today, 40 upcoming across 5 courses (Biology, History)")
                == "Morning digest for Ms. Example: 12 overdue, 3 due today, 40 upcoming\r\n across 5 courses (Biology, History)")
        #expect(
            MailMessage.headerText("Morgenübersicht: 3 Aufgaben überfällig")
                == "=?UTF-8?B?TW9yZ2Vuw7xiZXJzaWNodDogMyBBdWZnYWJlbiDDvGJlcmbDpGxsaWc=?=")
        // Text that looks like an encoded word is encoded, so a reader shows it as written.
        #expect(MailMessage.headerText("=?x?=") == "=?UTF-8?B?PT94Pz0=?=")
        // Line breaks and control characters become spaces.
        #expect(MailMessage.headerText("Hi\r\nBcc: x@y\u{0}") == "Hi  Bcc: x@y ")
    }

    @Test func mailboxesQuoteASCIINamesAndEncodeOthers() throws {
        let address = try Self.address("a@b.example")
        #expect(MailMessage.mailbox(.init(name: nil, address: address)) == "a@b.example")
        #expect(MailMessage.mailbox(.init(name: "  ", address: address)) == "a@b.example")
        #expect(MailMessage.mailbox(.init(name: "Ann Lee", address: address)) == "\"Ann Lee\" <a@b.example>")
        #expect(
            MailMessage.mailbox(.init(name: #"Lee, "Ann" \o/"#, address: address)) == #""Lee, \"Ann\" \\o/" <a@b.example>"#)
        #expect(MailMessage.mailbox(.init(name: "山田 太郎", address: address)) == "=?UTF-8?B?5bGx55SwIOWkqumDjg==?= <a@b.example>")
        #expect(MailMessage.mailbox(.init(name: "Eve\r\nBcc: x@y", address: address)) == "\"Eve  Bcc: x@y\" <a@b.example>")
        // A name whose quoted form would not fit a From line is encoded words, which can fold.
        let long = String(repeating: "x", count: 80)
        #expect(MailMessage.mailbox(.init(name: long, address: address)).hasPrefix("=?UTF-8?B?eHh4"))
    }

    @Test func aSubjectNameOrIdWithLineBreaksNeverStartsAHeaderOfItsOwn() throws {
        var message = try Self.digest()
        message.subject = "Hi\r\nBcc: x@y"
        message.from.name = "Eve\nBcc: evil@x"
        message.to[1].name = "\u{2028}Bcc: a@b\r"
        message.messageID = "id@x>\r\nBcc: z@w"
        let lines = message.rendered().components(separatedBy: "\r\n")
        #expect(!lines.contains { $0.hasPrefix("Bcc:") })
        #expect(lines.contains("Subject: Hi  Bcc: x@y"))
        #expect(lines.contains("Message-ID: <id@xBccz@w>"))
    }

    @Test func messageIDsAndBoundariesAreDeterministic() {
        let id = MailMessage.messageID(seed: "t1|2026-12-04", domain: "school.example")
        #expect(id == "a26686b07d4c4b23b0f0119288e56299@school.example")
        #expect(MailMessage.messageID(seed: "t2|2026-12-04", domain: "school.example") != id)
        let boundary = MailMessage.boundary(messageID: id)
        #expect(boundary == "=_284302d2f42b061511248409")
        #expect(boundary.hasPrefix("=_") && boundary.count <= 70)
    }

    // MARK: - The whole message

    @Test func theWholeMessageIsExactlyTheseLines() throws {
        let expected = [
            "Date: Fri, 04 Dec 2026 02:00:00 +0000",
            "From: \"Dashboard, Riverside School\" <digest@school.example>",
            "To: =?UTF-8?B?SsO8cmdlbiBHcm/Dnw==?= <jg@school.example>,",
            " office@school.example",
            "Subject: =?UTF-8?B?TW9yZ2Vuw7xiZXJzaWNodDogMyBBdWZnYWJlbiDDvGJlcmbDpGxsaWc=?=",
            "Message-ID: <a26686b07d4c4b23b0f0119288e56299@school.example>",
            "MIME-Version: 1.0",
            "Auto-Submitted: auto-generated",
            "X-Auto-Response-Suppress: All",
            "Content-Type: multipart/alternative; boundary=\"=_284302d2f42b061511248409\"",
            "",
            "This is a message in MIME format.",
            "",
            "--=_284302d2f42b061511248409",
            "Content-Type: text/plain; charset=UTF-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            "Guten Morgen,",
            "",
            "3 Aufgaben sind =C3=BCberf=C3=A4llig.",
            "=2E",
            "=46rom the dashboard: a=3Db=20",
            "",
            "--=_284302d2f42b061511248409",
            "Content-Type: text/html; charset=UTF-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            "<!DOCTYPE html>",
            "<html lang=3D\"de\"><body><p>3 Aufgaben sind =C3=BCberf=C3=A4llig: Essay (Bio=",
            "logie), Referat (Geschichte) und Quiz.</p></body></html>",
            "",
            "--=_284302d2f42b061511248409--",
        ]
        let message = try Self.digest()
        #expect(message.rendered() == expected.joined(separator: "\r\n") + "\r\n")
        #expect(message.rendered(lineEnding: "\n") == expected.joined(separator: "\n") + "\n")
    }

    @Test func everyLineFits78CharactersAnd7Bits() throws {
        var message = try Self.digest()
        message.subject = "Überfällig: " + String(repeating: "🎉👩‍👩‍👧‍👦 ", count: 12) + String(repeating: "x", count: 90)
        message.from.name = String(repeating: "Very Long School Name ", count: 5)
        message.to = try (1...12).map { index in
            .init(
                name: index % 2 == 0 ? "Lehrerin Nr. \(index) Müller-Lüdenscheidt" : nil,
                address: try Self.address("t\(index)@school.example"))
        }
        message.text = String(repeating: "Zeile mit Umlauten äöü und = Zeichen. ", count: 20) + "\n\tTab \n"
        message.html = "<p>" + String(repeating: "<b>fällig</b> ", count: 40) + "</p>"
        for subject in [message.subject, String(repeating: "word ", count: 40), String(repeating: "x", count: 100), ""] {
            message.subject = subject
            let rendered = message.rendered()
            #expect(rendered.utf8.allSatisfy { $0 < 128 })
            for line in rendered.components(separatedBy: "\r\n") {
                #expect(line.utf8.count <= 78, "\(line)")
            }
        }
    }

    @Test func lineEndsAreAllCRLFOrAllLF() throws {
        let message = try Self.digest()
        let crlf = Array(message.rendered().utf8)
        for (index, byte) in crlf.enumerated() {
            if byte == UInt8(ascii: "\n") { #expect(index > 0 && crlf[index - 1] == UInt8(ascii: "\r")) }
            if byte == UInt8(ascii: "\r") { #expect(index + 1 < crlf.count && crlf[index + 1] == UInt8(ascii: "\n")) }
        }
        #expect(crlf.suffix(2) == [13, 10])
        let lf = message.rendered(lineEnding: "\n")
        #expect(!lf.utf8.contains(13))
        #expect(lf.utf8.filter { $0 == 10 }.count == crlf.filter { $0 == 10 }.count)
    }

    // MARK: - Read back by Python's email package

    struct ParsedMessage: Decodable, Equatable {
        var subject: String
        var from: [[String]]
        var to: [[String]]
        /// The `To` names decoded by the legacy API (`getaddresses`, `decode_header`).
        var toDecoded: [[String]]
        var messageID: String
        var text: String
        var html: String
        var defects: [String]
    }

    static let pythonReader = """
        import email, email.header, email.policy, email.utils, json, sys
        m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
        parts = {p.get_content_type(): p.get_content().replace("\\r\\n", "\\n") for p in m.iter_parts()}
        headers = [m[name] for name in ("subject", "from", "to", "message-id")]
        print(json.dumps({
            "subject": str(m["subject"]),
            "from": [[a.display_name, a.addr_spec] for a in m["from"].addresses],
            "to": [[a.display_name, a.addr_spec] for a in m["to"].addresses],
            "toDecoded": [[str(email.header.make_header(email.header.decode_header(n))), a]
                for n, a in email.utils.getaddresses([v for k, v in m.raw_items() if k == "To"])],
            "messageID": str(m["message-id"]),
            "text": parts["text/plain"],
            "html": parts["text/html"],
            "defects": [repr(d) for part in m.walk() for d in part.defects] + [repr(d) for h in headers for d in h.defects],
        }))
        """

    /// The message as Python's `email` package reads it from a file.
    static func parsedByPython(_ rendered: String) throws -> ParsedMessage {
        let folder = TestFolders.path("mail-message")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/digest.eml"
        try Data(rendered.utf8).write(to: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", pythonReader, file]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try JSONDecoder().decode(ParsedMessage.self, from: data)
    }

    /// Python 3.11's address parser keeps the space between two adjacent encoded words of a
    /// display name (CPython gh-128110; RFC 2047 §6.2 says it is ignored), so a name of several
    /// words is checked through the legacy decoder, which follows the RFC, and the names of one
    /// word through both.
    @Test(arguments: ["\r\n", "\n"])
    func pythonsEmailPackageReadsBackEveryInput(lineEnding: String) throws {
        var message = try Self.digest()
        let longName = "🎉 Team 👩‍👩‍👧‍👦 " + String(repeating: "Ä", count: 40)
        message.to.append(.init(name: longName, address: try Self.address("team@school.example")))
        message.subject = "Morgenübersicht 🎉: " + String(repeating: "überfällig ", count: 8) + "(Jürgen)"
        #expect(MailMessage.encodedWords(longName).count == 3)
        let parsed = try Self.parsedByPython(message.rendered(lineEnding: lineEnding))
        let to = [["Jürgen Groß", "jg@school.example"], ["", "office@school.example"], [longName, "team@school.example"]]
        #expect(parsed.subject == message.subject)
        #expect(parsed.from == [["Dashboard, Riverside School", "digest@school.example"]])
        #expect(parsed.to.prefix(2) == to.prefix(2))
        #expect(parsed.toDecoded == to)
        #expect(parsed.messageID == "<" + message.messageID + ">")
        #expect(parsed.text == message.text)
        #expect(parsed.html == message.html)
        #expect(parsed.defects == [])
    }
}
