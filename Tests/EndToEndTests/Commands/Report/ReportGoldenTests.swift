import Foundation
import Testing

/// Every report format on one fixed dataset: the shipped sample imports/ imported and reported
/// as of 2026-11-29T08:00:00Z (the dataset the docs use), compared byte for byte with the
/// files in Goldens/. `UPDATE_GOLDENS=1` rewrites them (see `GoldenFile`).
@Suite struct ReportGoldenTests {
    static let asOf = "2026-11-29T08:00:00Z"

    /// One report printed on stdout and the golden it must equal.
    struct Case: Sendable, CustomTestStringConvertible {
        let golden: String
        let arguments: [String]
        var testDescription: String { golden }
    }

    static let essay = ["list", "--format", "text", "--search", "essay", "--bucket", "upcoming", "--sort", "priority", "--limit", "2"]

    static let cases: [Case] = [
        Case(golden: "grid-text-width-40.txt", arguments: ["grid", "--format", "text", "--width", "40"]),
        Case(golden: "grid-text-width-80.txt", arguments: ["grid", "--format", "text", "--width", "80"]),
        Case(golden: "grid-text-width-120.txt", arguments: ["grid", "--format", "text", "--width", "120"]),
        Case(golden: "grid-text-width-200.txt", arguments: ["grid", "--format", "text", "--width", "200"]),
        Case(golden: "list-text-width-100.txt", arguments: ["list", "--format", "text", "--width", "100"]),
        Case(golden: "list-text-width-40.txt", arguments: ["list", "--format", "text", "--width", "40"]),
        Case(golden: "grid.md", arguments: ["grid", "--format", "markdown"]),
        Case(golden: "list.md", arguments: ["list", "--format", "markdown"]),
        Case(golden: "grid.json", arguments: ["grid", "--format", "json"]),
        Case(golden: "list.json", arguments: ["list", "--format", "json"]),
        Case(golden: "grid.csv", arguments: ["grid", "--format", "csv"]),
        Case(golden: "list.csv", arguments: ["list", "--format", "csv"]),
        Case(golden: "list-essay-upcoming-by-priority-page-1.txt", arguments: essay + ["--page", "1"]),
        Case(golden: "list-essay-upcoming-by-priority-page-2.txt", arguments: essay + ["--page", "2"]),
    ]

    /// A sandbox holding `db.sqlite` with imports/ imported (exit 65: the sample has invalid
    /// rows on purpose; the valid ones are committed).
    static func imported() throws -> Sandbox {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["--db", "db.sqlite", "--as-of", asOf, "import", SampleImportsTests.folder])
        guard result.exitCode == 65, sandbox.exists("db.sqlite") else { throw HarnessError("importing imports/ failed\n\(result)") }
        return sandbox
    }

    /// `dashboard report ARGS` on the imported sample; expects exit 0 and nothing on stderr.
    static func report(_ arguments: [String], in sandbox: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> String
    {
        let result = try sandbox.run(["--db", "db.sqlite", "--as-of", asOf, "report"] + arguments)
        #expect(result.exitCode == 0, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr == "", sourceLocation: sourceLocation)
        return result.stdout
    }

    static func report(_ arguments: [String]) throws -> String { try report(arguments, in: try imported()) }

    // MARK: - Goldens of stdout

    @Test(arguments: cases) func reportOnStdoutMatchesItsGolden(_ testCase: Case) throws {
        let output = try Self.report(testCase.arguments)
        GoldenFile.expectMatch(output, golden: testCase.golden)
    }

    // MARK: - Text

    /// A grid course as the JSON grid gives it: its code and the count lines its card must show.
    static func expectedCards() throws -> [(code: String, counts: [String])] {
        let json = try JSON.object(try report(["grid", "--format", "json"]))
        return JSON.objects(json["courses"]).map { course in
            let counts = course["counts"] as? [String: Any] ?? [:]
            func n(_ key: String) -> String { "\(counts[key] as? Int ?? -1)" }
            return (
                course["code"] as? String ?? "?",
                [
                    "! \(n("overdue")) overdue", "* \(n("today")) today", "+ \(n("upcoming")) upcoming", "? \(n("undated")) no date",
                    ". \(n("completed")) of \(course["total"] as? Int ?? -1) completed",
                ]
            )
        }
    }

    @Test(arguments: [40, 80, 120, 200]) func textGridFitsTheWidthAndCutsNoCodeOrCount(width: Int) throws {
        let output = try Self.report(["grid", "--format", "text", "--width", "\(width)"])
        for line in output.split(separator: "\n") {
            #expect(TerminalColumns.of(line) <= width, "\(TerminalColumns.of(line)) columns: \(line)")
        }
        let cards = TextGridCard.parse(output)
        let expected = try Self.expectedCards()
        #expect(expected.count == 5)
        // One card per course, in order of need (as the JSON grid), each line ending exactly at
        // the card's edge.
        #expect(cards.map { $0.lines.first ?? "" } == expected.map(\.code))
        for card in cards {
            #expect(card.misaligned == [], "a line of card \(card.lines.first ?? "?") does not end at its right edge")
        }
        for (card, course) in zip(cards, expected) {
            for count in course.counts {
                #expect(card.lines.contains { $0.contains(count) }, "card \(course.code) lacks \"\(count)\" on one line: \(card.lines)")
            }
        }
    }

    @Test(arguments: [100, 40]) func textListFitsTheWidthAndKeepsItsColumnsAligned(width: Int) throws {
        let output = try Self.report(["list", "--format", "text", "--width", "\(width)"])
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for line in lines {
            #expect(TerminalColumns.of(line) <= width, "\(TerminalColumns.of(line)) columns: \(line)")
        }
        // Under each header, every cell starts in its header's column (wide characters count 2).
        var columns: [Int] = []
        var headers = 0
        for line in lines {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("ID ") {
                columns = ["TITLE", "STUDENT", "DUE", "PRIORITY", "STATUS"].compactMap { TerminalColumns.column(of: $0, in: line) }
                #expect(columns.count == 5, "\(line)")
                headers += 1
                continue
            }
            guard !columns.isEmpty else { continue }
            guard line.hasPrefix("    ") else {
                columns = []
                continue
            }
            for column in columns {
                let before = TerminalColumns.slice(line, (column - 2)..<column)
                let at = TerminalColumns.slice(line, column..<(column + 1))
                #expect(before == "  " && at != " " && at != "", "a cell is not in column \(column): \(line)")
            }
        }
        #expect(headers == (width == 40 ? 0 : 17), "one header per section")
        if width == 40 {
            #expect(!output.contains("TITLE"), "the narrow layout has no table header")
            #expect(!output.contains("…"), "the narrow layout cuts nothing")
        }
    }

    // MARK: - JSON, CSV, Markdown

    @Test func jsonGridAndListParseAndAgreeOnTheCounts() throws {
        let sandbox = try Self.imported()
        let gridText = try Self.report(["grid", "--format", "json"], in: sandbox)
        let listText = try Self.report(["list", "--format", "json"], in: sandbox)
        #expect(JSON.duplicateKeys(gridText) == [])
        #expect(JSON.duplicateKeys(listText) == [])
        let grid = try JSON.object(gridText)
        let list = try JSON.object(listText)
        for (json, kind) in [(grid, "grid"), (list, "list")] {
            #expect(json["schema"] as? Int == 2)
            #expect(json["kind"] as? String == kind)
            #expect(json["as_of"] as? String == Self.asOf)
            #expect(json["state"] as? String == "ok")
            #expect(json["stale"] is NSNull)
            #expect(json["total_tasks"] as? Int == 98)
        }
        // The list's sections hold exactly the open tasks the grid counts, course by course.
        let cards = JSON.objects(grid["courses"])
        let groups = JSON.objects(list["courses"])
        // Cards by need (overdue, then due today, then code); lists by code.
        #expect(cards.map { $0["code"] as? String ?? "?" } == ["BIO 101", "HIST 220", "ENG 105", "JPN 150", "MAT 210"])
        #expect(groups.map { $0["code"] as? String ?? "?" } == ["BIO 101", "ENG 105", "HIST 220", "JPN 150", "MAT 210"])
        let byCode = Dictionary(uniqueKeysWithValues: groups.map { ($0["code"] as? String ?? "?", $0) })
        for card in cards {
            let group = byCode[card["code"] as? String ?? "?"] ?? [:]
            let counts = card["counts"] as? [String: Any] ?? [:]
            var listed: [String: Int] = [:]
            for section in JSON.objects(group["sections"]) {
                let bucket = section["bucket"] as? String ?? "?"
                listed[bucket] = section["count"] as? Int ?? -1
                #expect(JSON.objects(section["tasks"]).count == listed[bucket])
            }
            for bucket in ["overdue", "today", "upcoming", "undated"] {
                #expect((listed[bucket] ?? 0) == counts[bucket] as? Int, "\(card["code"] ?? "?") \(bucket)")
            }
            #expect(listed["completed"] == nil)
            #expect(group["live_tasks"] as? Int == card["total"] as? Int)
        }
        #expect(
            list["matching_tasks"] as? Int == groups.flatMap { JSON.objects($0["sections"]) }.map { $0["count"] as? Int ?? 0 }.reduce(0, +))
    }

    @Test(arguments: [("grid", 23, 6), ("list", 18, 55)]) func csvHasOneHeaderAndCRLFLineEnds(kind: String, fields: Int, records: Int)
        throws
    {
        let output = try Self.report([kind, "--format", "csv"])
        #expect(output.hasSuffix("\r\n"))
        let bytes = Array(output.utf8)
        let bareNewlines = bytes.indices.filter { bytes[$0] == 0x0A && ($0 == 0 || bytes[$0 - 1] != 0x0D) }
        #expect(bareNewlines == [], "every line ends in CRLF")
        let parsed = CSVRecords.parse(output)
        #expect(parsed.count == records)
        #expect(parsed.filter { $0.first == "course_id" }.count == 1, "one header line")
        for record in parsed { #expect(record.count == fields, "\(record)") }
        if kind == "list" {
            #expect(parsed.contains { $0[3] == "Essay: \"Dulce et Decorum Est\", a close reading" })
        }
    }

    @Test(arguments: ["grid", "list"]) func markdownTableRowsHaveTheirHeadersCellCount(kind: String) throws {
        let output = try Self.report([kind, "--format", "markdown"])
        var cells: Int? = nil
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                cells = nil
                continue
            }
            // Unescaped pipes only: `\|` is a pipe inside a cell.
            var pipes = 0
            var escaped = false
            for character in line {
                if character == "|", !escaped { pipes += 1 }
                escaped = character == "\\" && !escaped
            }
            if let cells {
                #expect(pipes == cells, "\(line)")
            } else {
                cells = pipes
            }
        }
    }
}
