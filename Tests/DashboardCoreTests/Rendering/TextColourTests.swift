import Foundation
import Testing

@testable import DashboardCore

/// Colour in text reports (`TextStyle.terminal`): each bucket's SGR code around its words and
/// marks, a card that needs attention in bold red, none at all in `.plain`, and a layout that
/// colour never changes (`DisplayWidth` gives an SGR sequence no column).
@Suite("Text reports: colour on a terminal", .storeIndependent)
struct TextColourTests {
    static let esc = "\u{1B}"

    /// `text` in SGR `code`, as `TextStyle` writes it.
    static func sgr(_ code: String, _ text: String) -> String { "\u{1B}[\(code)m\(text)\u{1B}[0m" }

    /// `text` without any SGR sequence (`ESC [ digits and ; m`).
    static func stripped(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index] == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "[" {
                var end = index + 2
                while end < scalars.count, scalars[end] == ";" || ("0"..."9").contains(scalars[end]) { end += 1 }
                if end < scalars.count, scalars[end] == "m" {
                    index = end + 1
                    continue
                }
            }
            result.append(scalars[index])
            index += 1
        }
        return String(result)
    }

    /// The SGR codes of `line` in order (`["31", "0", "1;31", "0"]`).
    static func codes(_ line: String) -> [String] {
        line.components(separatedBy: "\u{1B}[").dropFirst().map { String($0.prefix { $0 != "m" }) }
    }

    @Test(
        "an SGR sequence takes no column",
        arguments: [
            ("\u{1B}[31moverdue\u{1B}[0m", 7),
            ("\u{1B}[1;31mneeds attention\u{1B}[0m", 15),
            ("\u{1B}[2m日本\u{1B}[0m", 4),
            ("a\u{1B}[32mb\u{1B}[0mc", 3),
            ("\u{1B}[0m", 0),
            ("\u{1B}[31m\u{1B}[0m", 0),
            ("\u{1B}[36m? 1 no date\u{1B}[0m  \u{1B}[2m. 3 of 4 completed\u{1B}[0m", 31),
        ])
    func widthIgnoresColour(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test("padding and flowing measure coloured text by what it shows")
    func padAndFlowIgnoreColour() {
        #expect(DisplayWidth.pad(Self.sgr("32", "ok"), to: 5) == Self.sgr("32", "ok") + "   ")
        let parts = [Self.sgr("31", "! 1 overdue"), Self.sgr("33", "* 1 today"), Self.sgr("32", "+ 1 upcoming")]
        #expect(DisplayWidth.flow(parts, separator: "  ", width: 22) == [parts[0] + "  " + parts[1], parts[2]])
    }

    @Test(
        "a balanced flow keeps the number of lines with the narrowest longest line; one line stays one line",
        arguments: [
            (["Bar:", "a1", "b2", "c3", "d4"], 14, ["Bar:  a1", "b2  c3  d4"]),
            (["Bar:", "a1", "b2", "c3", "d4"], 40, ["Bar:  a1  b2  c3  d4"]),
            (["aaaa", "bb", "cc", "dd", "e"], 16, ["aaaa  bb", "cc  dd  e"]),
            (["a", "b", "c"], 1, ["a", "b", "c"]),
            (["wide part", "x"], 5, ["wide", "part", "x"]),
        ])
    func balancedFlow(parts: [String], width: Int, lines: [String]) {
        #expect(DisplayWidth.balancedFlow(parts, separator: "  ", width: width) == lines)
        #expect(
            DisplayWidth.balancedFlow(parts, separator: "  ", width: width).count
                == DisplayWidth.flow(parts, separator: "  ", width: width).count)
    }

    @Test("TextStyle wraps words in the bucket's code, and plain leaves them as they are")
    func styleCodes() {
        let cases: [(Bucket, String)] = [(.overdue, "31"), (.today, "33"), (.upcoming, "32"), (.undated, "36"), (.completed, "2")]
        for (bucket, code) in cases {
            #expect(TextStyle.terminal.bucket("x", bucket) == Self.sgr(code, "x"))
            #expect(TextStyle.plain.bucket("x", bucket) == "x")
        }
        #expect(TextStyle.terminal.attention("x") == Self.sgr("1;31", "x"))
        #expect(TextStyle.terminal.strong("x") == Self.sgr("1", "x"))
        #expect(TextStyle.terminal.muted("x") == Self.sgr("2", "x"))
        #expect(TextStyle.terminal.bucket("", .overdue) == "")
        #expect(TextStyle.plain.attention("x") == "x")
    }

    // MARK: - Reports

    /// BIO 101: one task in each bucket (T1 8 days late); ENG 105: one upcoming task, pinned
    /// there by hand, and one completed; HIS 200: one upcoming task.
    static let courses = [
        ReportCourse(
            course: ReportSample.course("C1", code: "BIO 101", title: "Biology", teacher: "Dr. Alvarez"),
            tasks: [
                ReportSample.task("T1", "C1", "Reading quiz", student: "s1", due: "2026-11-21", bucket: .overdue),
                ReportSample.task("T2", "C1", "Lab report", student: "s2", due: "2026-11-29T18:00:00", priority: .high, bucket: .today),
                ReportSample.task("T3", "C1", "Poster", student: "s3", due: "2026-12-01", bucket: .upcoming),
                ReportSample.task("T4", "C1", "Journal", student: "s1", bucket: .undated),
                ReportSample.task("T5", "C1", "Field trip", student: "s2", due: "2026-11-20", bucket: .completed),
            ]),
        ReportCourse(
            course: ReportSample.course("C2", code: "ENG 105", title: "Academic Writing"),
            tasks: [
                ReportTask(
                    task: TaskRecord(taskID: "T6", courseID: "C2", title: "Essay draft", studentID: "s4", due: "2026-11-27"),
                    bucket: .upcoming, pinned: true,
                    override: StoredOverride(bucket: "upcoming", until: "2026-12-06", reason: "extension granted", actor: "adams")),
                ReportSample.task("T7", "C2", "Outline", student: "s4", due: "2026-11-10", bucket: .completed),
            ]),
        ReportCourse(
            course: ReportSample.course("C3", code: "HIS 200", title: "History"),
            tasks: [ReportSample.task("T8", "C3", "Timeline", student: "s5", due: "2026-12-03", bucket: .upcoming)]),
    ]

    static func build(_ kind: Report.Kind, _ courses: [ReportCourse] = courses, _ change: (inout ReportQuery) -> Void = { _ in })
        -> Report
    {
        ReportBuilder.build(
            kind, courses: courses, facts: ReportSample.freshFacts, query: ReportSample.query(change), asOf: ReportSample.asOf,
            defaultTimeZone: ReportSample.utc)
    }

    @Test("a grid card on a terminal: every piece in its colour, the card that needs attention framed in bold red")
    func gridCardColours() {
        let report = Self.build(.grid, [Self.courses[0]])
        let e = Self.esc
        let frame = Self.sgr("1;31", "+" + String(repeating: "=", count: 38) + "+")
        let expected = [
            "Courses as of 2026-11-29 08:00 UTC",
            "1 course, 1 needs attention: 1 overdue,",
            "1 due today, 1 upcoming, 1 no due date;",
            "1 of 5 completed",
            "",
            "Bar:  \(e)[31m! overdue\(e)[0m  \(e)[33m* due today\(e)[0m  \(e)[32m+ upcoming\(e)[0m",
            "\(e)[36m? no due date\(e)[0m  \(e)[2m. completed\(e)[0m",
            "\(e)[1;31mA card framed with = needs attention.\(e)[0m",
            "",
            frame,
            "| \(e)[1mBIO 101\(e)[0m                              |",
            "| Biology                              |",
            "| \(e)[1;31mneeds attention: 1 overdue,\(e)[0m          |",
            "| \(e)[1;31m1 due today\(e)[0m                          |",
            "| \(e)[31m!!!!!!!!\(e)[0m\(e)[33m*******\(e)[0m\(e)[32m+++++++\(e)[0m\(e)[36m???????\(e)[0m\(e)[2m.......\(e)[0m |",
            "| \(e)[31m! 1 overdue\(e)[0m  \(e)[33m* 1 today\(e)[0m  \(e)[32m+ 1 upcoming\(e)[0m |",
            "| \(e)[36m? 1 no date\(e)[0m                          |",
            "| \(e)[2m. 1 of 5 completed\(e)[0m                   |",
            frame,
        ]
        #expect(TextRenderer.render(report, width: 40, style: .terminal) == expected.joined(separator: "\n") + "\n")
        #expect(TextRenderer.render(report, width: 40, style: .plain) == Self.stripped(expected.joined(separator: "\n") + "\n"))
    }

    @Test("a card that needs nothing keeps a plain frame, next to one framed in bold red")
    func gridPlainFrame() {
        let output = TextRenderer.render(Self.build(.grid), width: 100, style: .terminal)
        let red = Self.sgr("1;31", "+" + String(repeating: "=", count: 30) + "+")
        let plain = "+" + String(repeating: "-", count: 30) + "+"
        #expect(output.contains("\n" + red + "  " + plain + "  " + plain + "\n"))
        // Cards of 32 columns: 28 inside.
        #expect(output.contains("| " + Self.sgr("1", "ENG 105") + String(repeating: " ", count: 21) + " |"))
        #expect(output.contains("| " + Self.sgr("2", ". 1 of 2 completed") + String(repeating: " ", count: 10) + " |"))
    }

    @Test("a list on a terminal: section headings and statuses in their bucket's colour, course headings strong")
    func listColours() {
        let output = TextRenderer.render(Self.build(.list) { $0.includeCompleted = true }, width: 100, style: .terminal)
        let lines = output.components(separatedBy: "\n")
        let expectedLines = [
            Self.sgr("1", "BIO 101 — Biology"),
            "  " + Self.sgr("31", "Overdue (1)"),
            "  " + Self.sgr("33", "Due today (1)"),
            "  " + Self.sgr("32", "Upcoming (1)"),
            "  " + Self.sgr("36", "No due date (1)"),
            "  " + Self.sgr("2", "Completed (1)"),
            "    T1  Reading quiz  s1       2026-11-21        normal    " + Self.sgr("31", "8 days late"),
            "    T2  Lab report    s2       2026-11-29 18:00  high      " + Self.sgr("33", "due today"),
            "    T3  Poster        s3       2026-12-01        normal    " + Self.sgr("32", "upcoming"),
            "    T4  Journal       s1       -                 normal    " + Self.sgr("36", "no due date"),
            "    T5  Field trip    s2       2026-11-20        normal    " + Self.sgr("2", "completed"),
            "    ID  TITLE         STUDENT  DUE               PRIORITY  STATUS",
            Self.sgr("1", "ENG 105 — Academic Writing"),
            "    T6  Essay draft  s4       2026-11-27  normal    " + Self.sgr("32", "upcoming (set by hand)"),
            "        set by hand until 2026-12-06: extension granted",
        ]
        for line in expectedLines {
            #expect(lines.contains(line), "no line \(line.debugDescription) in\n\(output)")
        }
    }

    static let widths = [20, 24, 30, 40, 52, 60, 80, 100, 120, 200]

    /// Reports of every shape: grids (with and without a --bucket filter, paged), lists
    /// (whole, with completed tasks, paged), and a report that matches nothing.
    static let reports: [(String, Report)] = [
        ("grid", build(.grid)),
        ("grid --bucket overdue --bucket upcoming", build(.grid) { $0.buckets = [.overdue, .upcoming] }),
        (
            "grid --limit 2 --page 2",
            build(.grid) {
                $0.limit = 2; $0.page = 2
            }
        ),
        ("list", build(.list)),
        ("list --include-completed", build(.list) { $0.includeCompleted = true }),
        (
            "list --limit 3 --page 2",
            build(.list) {
                $0.limit = 3; $0.page = 2
            }
        ),
        ("list --search zzz", build(.list) { $0.search = "zzz" }),
    ]

    @Test("plain text holds no ESC at all, at any width")
    func plainHasNoEscape() {
        for (name, report) in Self.reports {
            for width in Self.widths {
                #expect(!TextRenderer.render(report, width: width, style: .plain).contains(Self.esc), "\(name) at \(width)")
                #expect(TextRenderer.render(report, width: width) == TextRenderer.render(report, width: width, style: .plain))
            }
        }
    }

    @Test("colour changes no layout: without its SGR sequences the coloured text is the plain text, byte for byte")
    func colourKeepsTheLayout() {
        for (name, report) in Self.reports {
            for width in Self.widths {
                let coloured = TextRenderer.render(report, width: width, style: .terminal)
                let plain = TextRenderer.render(report, width: width, style: .plain)
                #expect(Self.stripped(coloured) == plain, "\(name) at \(width)")
                if report.state == .ok { #expect(coloured.contains(Self.esc), "\(name) at \(width) has no colour") }
            }
        }
    }

    @Test("every coloured line resets what it sets before it ends, so no colour runs on to the next line")
    func everyLineClosesItsColour() {
        for (name, report) in Self.reports {
            for width in Self.widths {
                for line in TextRenderer.render(report, width: width, style: .terminal).components(separatedBy: "\n") {
                    let codes = Self.codes(line)
                    // Pairs: a code that sets, then 0.
                    let paired =
                        codes.count % 2 == 0 && codes.enumerated().allSatisfy { $0.offset % 2 == 0 ? $0.element != "0" : $0.element == "0" }
                    #expect(paired, "\(name) at \(width): \(line.debugDescription)")
                }
            }
        }
    }

    @Test("a status wrapped onto two lines in the narrow list layout is coloured line by line")
    func aWrappedStatusIsColouredLineByLine() {
        let report = Self.build(.list, [Self.courses[1]])
        let plain = TextRenderer.render(report, width: 20, style: .plain)
        #expect(plain.contains("\n      upcoming (set\n      by hand)\n"))
        let coloured = TextRenderer.render(report, width: 20, style: .terminal)
        #expect(coloured.contains("\n      " + Self.sgr("32", "upcoming (set") + "\n      " + Self.sgr("32", "by hand)") + "\n"))
    }

    @Test("the data's own ESC is shown as ␛ and never taken for a colour")
    func dataEscapeStaysVisible() {
        let hostile = [
            ReportCourse(
                course: ReportSample.course("C9", code: "X\u{1B}[31m", title: "T\u{1B}[2Jitle"),
                tasks: [ReportSample.task("T9", "C9", "Lab\u{1B}[0m", bucket: .overdue)])
        ]
        for kind in [Report.Kind.grid, .list] {
            let coloured = TextRenderer.render(Self.build(kind, hostile), width: 80, style: .terminal)
            let plain = TextRenderer.render(Self.build(kind, hostile), width: 80, style: .plain)
            #expect(!plain.contains(Self.esc))
            #expect(plain.contains("X␛[31m"))
            #expect(Self.stripped(coloured) == plain)
        }
    }
}
