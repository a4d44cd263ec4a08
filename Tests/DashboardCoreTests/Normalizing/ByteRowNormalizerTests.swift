import Foundation
import Testing

@testable import DashboardCore

/// The byte path (`ByteRowNormalizer`, the reader's `FieldBytes`) against its oracle
/// (`RowNormalizer` on the reader's strings): every record the byte path builds must be the one
/// the normalizer builds from the same fields, and every row it leaves goes to the normalizer,
/// which words every problem (so problems cannot differ in code, line or column). Fed the
/// contract's patterns (`InputContractPatternTests`), generated values of every field kind,
/// the third-party CSV suites and the hostile corpus.
///
/// `DASHBOARD_DIFFERENTIAL_VALUES` sets how many generated values of each field kind are
/// checked (20,000 by default; `make differential` runs 1,000,000 on a release build).
@Suite("ByteRowNormalizer: the byte path builds exactly the normalizer's records", .storeIndependent)
struct ByteRowNormalizerTests {
    static let generated = ProcessInfo.processInfo.environment["DASHBOARD_DIFFERENTIAL_VALUES"].flatMap { Int($0) } ?? 20_000

    /// Counts of one comparison run (a test fails when the byte path took too few rows: a
    /// differential test of a path that always defers would prove nothing).
    struct Tally {
        var rows = 0
        var byBytes = 0
        var mismatches: [String] = []
    }

    /// Compares both paths on one row of `layout`.
    static func compare(_ fields: [String], layout: HeaderLayout, dateOrder: DateOrder? = nil, into tally: inout Tally) {
        tally.rows += 1
        let record = CSVRecord(fields: fields, line: 7)
        let oracle = RowNormalizer(layout: layout, dateOrder: dateOrder).normalize(record)
        guard let byteNormalizer = ByteRowNormalizer(layout: layout), let task = byteNormalizer.task(FieldBytes(fields)) else {
            return
        }
        tally.byBytes += 1
        if oracle != .task(task), tally.mismatches.count < 20 {
            tally.mismatches.append("\(fields.debugDescription): bytes \(task), normalizer \(oracle)")
        }
    }

    static let fullHeader = ["task_id", "course_id", "title", "student_id", "due", "priority", "completed", "assignment_id"]
    static let fullLayout = try! HeaderLayout(header: fullHeader, file: "tasks.csv", fileNameHint: .tasks)

    /// A valid row of `fullLayout` with `value` in field `index`.
    static func row(_ value: String, at index: Int) -> [String] {
        var fields = ["T1", "C1", "Essay 1", "S1", "2026-11-29", "high", "no", "A1"]
        fields[index] = value
        return fields
    }

    // MARK: - The contract's patterns

    @Test("the contract's dates and times: every due the byte path reads is the parser's")
    func contractDues() {
        var tally = Tally()
        let values =
            InputContractPatternTests.dates + InputContractPatternTests.times.map { "2024-02-29" + $0 }
            + InputContractPatternTests.times.map { "2026-11-29" + $0 }
            + InputContractPatternTests.padding.flatMap { pad in
                ["2024-02-29", "2026-11-29T14:30", "2026-11-29T14:30:00Z"].map { pad + $0 + pad }
            }
        for value in values {
            for order in [nil, DateOrder.mdy, .dmy] {
                Self.compare(Self.row(value, at: 4), layout: Self.fullLayout, dateOrder: order, into: &tally)
            }
        }
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches.joined(separator: "\n"))")
        #expect(
            tally.rows > 90_000 && tally.byBytes > 1_000 && tally.rows - tally.byBytes > 50_000,
            "\(tally.byBytes) of \(tally.rows) by bytes")
    }

    @Test("the contract's priority and completed words, in any case and padding")
    func contractWords() {
        var tally = Tally()
        let words = Array(Priority.synonyms.keys) + CompletedParser.trueWords + CompletedParser.falseWords
        var values = ["hig", "highh", "h i", "asap", "2", "yes!", "ye s", "İ", "\u{212A}", "✓✓", "nope", "HIGH HIGH", "hİgh"]
        for word in words {
            values += [word, word.uppercased(), word.capitalized, String(word.reversed())]
            values += InputContractPatternTests.padding.map { $0 + word + $0 }
        }
        for value in values {
            Self.compare(Self.row(value, at: 5), layout: Self.fullLayout, into: &tally)
            Self.compare(Self.row(value, at: 6), layout: Self.fullLayout, into: &tally)
        }
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches.joined(separator: "\n"))")
        #expect(tally.byBytes > 200 && tally.rows - tally.byBytes > 100, "\(tally.byBytes) of \(tally.rows) by bytes")
    }

    // MARK: - Generated values of every field kind

    /// Pieces values are made of: ASCII text, every white space the normalizer trims (ASCII
    /// and not), NFC pairs, invisible and control characters, quotes, header words.
    static let pieces = [
        "a", "Z", "7", "0", "-", "_", ".", ":", "/", "+", "T", "Z", "x", " ", "  ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}",
        "\u{A0}", "\u{3000}", "\u{2007}", "\u{85}", "\u{1680}", "e\u{301}", "é", "\u{212B}", "Å", "\u{200B}", "\u{FEFF}", "\u{AD}",
        "\u{1}", "\u{1F}", "\u{7F}", "\"", ",", ";", "course", "course_id", "C", "c", "Course ID", "task", "İ", "ß", "日本",
        "👩‍💻", "high", "HIGH", "done", "✓", "2026", "-11-29",
    ]

    static func generatedValue(_ rng: inout SeededGenerator) -> String {
        switch rng.below(20) {
        case 0: return ""
        case 1: return String(repeating: "a", count: 4090 + rng.below(12))
        default:
            var value = ""
            for _ in 0..<(1 + rng.below(6)) { value += pieces[rng.below(pieces.count)] }
            return value
        }
    }

    /// Dues in the ISO forms and around them: each part valid, out of range or of another width.
    static func generatedDue(_ rng: inout SeededGenerator) -> String {
        func digits(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let years = [1899, 1900, 1904, 2000, 2024, 2026, 2100, 2200, 2201, 999, 9999]
        if rng.below(2) == 0 {
            // The forms the byte path reads, every part in range but the day for the month.
            var due = "\(1900 + rng.below(301))-\(digits(1 + rng.below(12), 2))-\(digits(1 + rng.below(31), 2))"
            if rng.below(3) > 0 { due += "T\(digits(rng.below(24), 2)):\(digits(rng.below(60), 2))" }
            if due.count > 10, rng.below(2) == 0 { due += ":\(digits(rng.below(60), 2))" }
            if due.count > 10 {
                due += ["", "Z", "+\(digits(rng.below(15), 2)):\(digits(rng.below(60), 2))", "-14:00", "+00:00"][rng.below(5)]
            }
            return due
        }
        var due = digits(rng.below(3) == 0 ? rng.below(10_000) : years[rng.below(years.count)], rng.below(12) == 0 ? 3 : 4)
        let separator = ["-", "-", "-", "/", ".", ""][rng.below(6)]
        due += separator + digits(rng.below(14), rng.below(8) == 0 ? 1 : 2)
        due += separator + digits(rng.below(33), rng.below(8) == 0 ? 1 : 2)
        if rng.below(3) > 0 {
            due += ["T", "T", "t", " ", "  "][rng.below(5)] + digits(rng.below(26), rng.below(8) == 0 ? 1 : 2)
            due += ":" + digits(rng.below(62), rng.below(10) == 0 ? 1 : 2)
            if rng.below(2) == 0 { due += ":" + digits(rng.below(62), rng.below(10) == 0 ? 1 : 2) }
            if rng.below(8) == 0 { due += [".5", ",123", "."][rng.below(3)] }
            switch rng.below(6) {
            case 0: due += ["Z", "z", " Z"][rng.below(3)]
            case 1, 2:
                due += ["+", "-"][rng.below(2)] + digits(rng.below(16), 2)
                due += [":", ":", "", ":"][rng.below(4)] + digits(rng.below(62), rng.below(10) == 0 ? 1 : 2)
            case 3: due += ["+05", "-0530", "X", "+14:00", "-14:00", "+14:01"][rng.below(6)]
            default: break
            }
        }
        let pads = ["", "", "", " ", "\t", "\u{A0}", "\n"]
        return pads[rng.below(pads.count)] + due + pads[rng.below(pads.count)]
    }

    /// Priority and completed words: the lists' words in mixed case and padding, and near misses.
    static func generatedWord(_ rng: inout SeededGenerator) -> String {
        let words = Array(Priority.synonyms.keys) + CompletedParser.trueWords + CompletedParser.falseWords + ["hig", "yess", "✓", "İ"]
        var word = words[rng.below(words.count)]
        if rng.below(3) == 0 {
            word = String(word.map { rng.below(2) == 0 ? Character($0.uppercased()) : $0 })
        }
        if rng.below(5) == 0 { word += pieces[rng.below(pieces.count)] }
        let pads = ["", "", " ", "\t", "\u{A0}", "\r\n"]
        return pads[rng.below(pads.count)] + word + pads[rng.below(pads.count)]
    }

    @Test("generated values of every field kind", arguments: [0, 1, 2, 3, 4, 5, 6, 7])
    func generated(field index: Int) {
        var rng = SeededGenerator(state: UInt64(index) &* 0x9E37_79B9 &+ 26)
        var tally = Tally()
        for _ in 0..<Self.generated {
            let value: String
            switch index {
            case 4: value = Self.generatedDue(&rng)
            case 5, 6: value = Self.generatedWord(&rng)
            default: value = rng.below(2) == 0 ? Self.generatedValue(&rng) : "X\(rng.below(1000))" + Self.generatedValue(&rng)
            }
            Self.compare(Self.row(value, at: index), layout: Self.fullLayout, into: &tally)
        }
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches.joined(separator: "\n"))")
        #expect(tally.rows == Self.generated)
        #expect(
            tally.byBytes > tally.rows / 10 && tally.rows - tally.byBytes > tally.rows / 10, "\(tally.byBytes) of \(tally.rows) by bytes")
    }

    @Test("whole generated rows in layouts with fewer, reordered, aliased and ignored columns")
    func generatedRows() throws {
        let headers = [
            ["task_id", "course_id", "title"],
            ["title", "due", "course_id", "notes", "task_id"],
            ["task", "course", "name", "student", "deadline", "importance", "done", "assignment_id"],
            ["task_id", "course_id", "title", "priority", "completed", "extra1", "extra2"],
        ]
        var rng = SeededGenerator(state: 2026)
        var tally = Tally()
        for header in headers {
            let layout = try HeaderLayout(header: header, file: "tasks.csv", fileNameHint: .tasks)
            for _ in 0..<(Self.generated / 4) {
                var fields: [String] = []
                for name in header {
                    switch rng.below(3) {
                    case 0: fields.append(Self.generatedValue(&rng))
                    default:
                        switch name {
                        case "due", "deadline": fields.append(Self.generatedDue(&rng))
                        case "priority", "importance", "completed", "done": fields.append(Self.generatedWord(&rng))
                        default: fields.append("V\(rng.below(100))")
                        }
                    }
                }
                if rng.below(20) == 0 { fields.append("surplus") }
                if rng.below(20) == 0 { fields.removeLast() }
                Self.compare(fields, layout: layout, dateOrder: [nil, .mdy, .dmy][rng.below(3)], into: &tally)
            }
        }
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches.joined(separator: "\n"))")
        #expect(
            tally.byBytes > tally.rows / 20 && tally.rows - tally.byBytes > tally.rows / 10, "\(tally.byBytes) of \(tally.rows) by bytes")
    }

    @Test("the byte look for a header cell agrees with Column.named, also for the characters it now decides")
    func headerCellShortcut() {
        var rng = SeededGenerator(state: 32)
        var values = [
            "✓", "✗", "日本", "カタカナ", "Ü", "Course", "course_id", "COURSE-ID", "c\u{200B}ourse", "\u{212A}", "İd", "ⓒourse", "course\u{A0}",
            "\u{3000}course", "c✓", "cöurse", "\u{2329}", "\u{2BFF}", "\u{218F}course",
        ]
        for _ in 0..<Self.generated { values.append(Self.generatedValue(&rng)) }
        for value in values {
            let named = Column.named(value.trimmingUnicodeWhitespace()) == .courseID
            #expect(Column.mayNameCourseID(value) == named, "\(value.debugDescription)")
        }
    }

    // MARK: - Files nobody on the team wrote

    /// Reads `bytes` with strings and with bytes: the events must be equal (`CSVRecord` compares
    /// its fields, decoded), and the rows of a tasks header go through both normalizers.
    static func compareFile(_ bytes: [UInt8], encoding: InputEncoding = .utf8, delimiter: UInt8? = nil, into tally: inout Tally) -> Bool {
        func read(_ fieldBytes: Bool) -> Result<[CSVEvent], CSVFileError> {
            var events: [CSVEvent] = []
            let options = CSVReaderOptions(delimiter: delimiter, encoding: encoding, chunkSize: 4096, fieldBytes: fieldBytes)
            let reader = CSVReader(source: MemoryByteSource(bytes, chunkLimit: 1 << 20), options: options)
            do {
                try reader.read { event in
                    if events.count < 50_000 { events.append(event) }
                }
            } catch let error as CSVFileError {
                return .failure(error)
            } catch {
                return .failure(.readFailed(reason: "\(error)"))
            }
            return .success(events)
        }
        let (strings, fields) = (read(false), read(true))
        guard strings == fields else { return false }
        guard case .success(let events) = fields else { return true }
        var layout: HeaderLayout?
        for case .record(let record) in events {
            guard let known = layout else {
                layout = try? HeaderLayout(header: record.fields, file: "tasks.csv", fileNameHint: .tasks)
                if layout == nil {
                    // Any other header: its rows as the fields of a tasks file of as many columns.
                    let names = fullHeader + (0..<max(0, record.fieldCount - fullHeader.count)).map { "extra\($0)" }
                    layout = try? HeaderLayout(
                        header: Array(names.prefix(max(3, record.fieldCount))), file: "tasks.csv", fileNameHint: .tasks)
                }
                continue
            }
            guard known.kind == .tasks, let raw = record.raw, record.droppedFields == 0 else { continue }
            tally.rows += 1
            let oracle = RowNormalizer(layout: known).normalize(record.materialized())
            if let task = ByteRowNormalizer(layout: known)?.task(raw) {
                tally.byBytes += 1
                if oracle != .task(task) { tally.mismatches.append("line \(record.line): bytes \(task), normalizer \(oracle)") }
            }
        }
        return true
    }

    @Test("the third-party CSV suites: same events read as bytes, same records")
    func thirdParty() {
        var tally = Tally()
        var files = 0
        for suiteCase in ThirdPartySuite.all where suiteCase.csvBytesBase64 != nil {
            guard let encoding = suiteCase.inputEncoding else { continue }
            files += 1
            #expect(
                Self.compareFile(suiteCase.bytes, encoding: encoding, delimiter: suiteCase.delimiterByte, into: &tally),
                "\(suiteCase.name): the byte reader's events differ")
        }
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches.joined(separator: "\n"))")
        #expect(files > 100 && tally.rows > 500 && tally.byBytes > 50, "\(files) files, \(tally.byBytes) of \(tally.rows) rows by bytes")
    }

    @Test("the hostile corpus: same events read as bytes, same records")
    func hostileCorpus() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/hostile")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".csv") }.sorted()
        var tally = Tally()
        for name in names {
            let bytes = try Array(Data(contentsOf: folder.appendingPathComponent(name)))
            #expect(Self.compareFile(bytes, into: &tally), "\(name): the byte reader's events differ")
        }
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches.joined(separator: "\n"))")
        #expect(
            names.count > 60 && tally.byBytes > 50 && tally.rows > tally.byBytes,
            "\(names.count) files, \(tally.byBytes) of \(tally.rows) rows")
    }

    // MARK: - Exact records

    @Test("what the byte path builds: trimmed ids, collapsed titles, canonical dues, words")
    func exactRecords() throws {
        let byteNormalizer = try #require(ByteRowNormalizer(layout: Self.fullLayout))
        let task = try #require(
            byteNormalizer.task(
                FieldBytes([" T1\t", "C1 ", "  Essay \t\r\n one  ", "", "2026-03-29T01:30+02:00", " HI ", "Done", " A 1 "])))
        #expect(
            task
                == TaskRecord(
                    taskID: "T1", courseID: "C1", title: "Essay one", studentID: "", due: "2026-03-28T23:30:00Z", priority: .high,
                    completed: true, assignmentID: "A 1"))
        // Characters that need no Unicode table: Latin letters below U+0300, kana and CJK, white
        // space of any kind in free text, a no-break space inside an id, ✓.
        let unicode = try #require(
            byteNormalizer.task(
                FieldBytes(["Ü\u{A0}1", "日本", "\u{3000} Übungsblatt\u{A0}\u{2003} 日本語の宿題 ", "Zoë", "", "", "✓", "カタカナ"])))
        #expect(
            unicode
                == TaskRecord(
                    taskID: "Ü\u{A0}1", courseID: "日本", title: "Übungsblatt 日本語の宿題", studentID: "Zoë", completed: true,
                    assignmentID: "カタカナ"))
        // Left to the normalizer: a header again, white space other than ASCII around an id, a
        // soft hyphen, a combining mark, a slashed date, a fraction, a word off the lists, an
        // empty title, a cell that could name course_id, a field too many.
        for fields in [
            Self.fullHeader, Self.row("\u{A0}T1", at: 0), Self.row("T1\u{3000}", at: 0), Self.row("T\u{AD}1", at: 0),
            Self.row("e\u{301}", at: 2), Self.row("11/29/2026", at: 4), Self.row("2026-11-29T10:00:00.5", at: 4),
            Self.row("asap", at: 5), Self.row(" \t", at: 2), Self.row("course", at: 3),
        ] {
            #expect(byteNormalizer.task(FieldBytes(fields)) == nil, "\(fields)")
        }
        #expect(byteNormalizer.task(FieldBytes(Self.row("x", at: 0) + ["surplus"])) == nil)
    }

    @Test("a byte record reads as the same fields, one field or all, and materializes once")
    func fieldBytesRecord() {
        let fields = ["", "a", "日本\u{200B}", "x,y", String(repeating: "z", count: 5000)]
        let record = CSVRecord(raw: FieldBytes(fields), line: 3)
        #expect(record.fields == fields)
        #expect(record.fieldCount == 5)
        #expect((0..<5).map(record.field) == fields)
        #expect(record.materialized().raw == nil && record.materialized() == record)
        #expect(record == CSVRecord(fields: fields, line: 3))
        #expect(record != CSVRecord(fields: fields, line: 4))
    }
}
