/// The JUnit XML report of an import or a check (`--format junit`): CI systems show the
/// problems of an export like failing tests. Documented in docs/formats.md ("JUnit XML for CI").
///
/// Shape (valid against Jenkins xunit's `junit-10.xsd`, the schema the tests check it with):
/// - `<testsuites name="dashboard check">` holds one `<testsuite>` per input file, named by the
///   file as given, in the order the files were read;
/// - each suite has `<properties>` (the run's outcome and counts, the file's kind, size, hash
///   and numbers of problems), then one `<testcase>` per rule the file is checked against
///   (`ProblemCode.rules(for:)`), named by the rule's code, its `classname` the file;
/// - a rule a row broke has one `<failure>` per problem of that code in that file, in file
///   order: `type` is the code, `message` the one-line form (`file:line: column: message
///   [code]`), the text that line again, the hint, then file, line, row, column, code and value
///   one per line, so that a CI page that shows either shows everything;
/// - a warning is not a failure: a warning rule's case passes and lists its warnings in its
///   `<system-out>`, in the form of the text summary on stderr;
/// - `--mode sync` adds a `max_delete` case (the delete guard) to the suite of each file of a
///   known kind: it fails when the run is held, or a check or dry run would be, in the files
///   of every kind the sync would delete from, its message the guard's reason;
/// - a file-level error is one failure of its rule, and every other rule of the run is
///   `<skipped>`, saying why it was not checked (`JUnitReport+Failures.swift`).
///
/// Counts: a suite's `tests` is its number of rules; `failures`, `errors` and `skipped` count
/// test cases (a rule with 3 rejected rows is one failed test with 3 `<failure>` elements),
/// so `tests − failures − errors − skipped` is the number of rules that passed. `time` is 0
/// (rules are checked together, row by row, not one after the other) and `timestamp` the
/// run's as-of instant: the report of the same files, database and `--as-of` is the same
/// bytes. User data (file names, columns, values, messages, hints, reasons) is shown with
/// control, bidi and invisible characters made visible (`VisibleText`), as on stderr.
package enum JUnitReport {
    /// The rule of the delete guard of a sync (SPEC §5), a test case beside the problem codes.
    package static let deleteGuardRule = "max_delete"

    /// One test case: a rule and what became of it.
    struct TestCase {
        enum Outcome {
            case passed
            /// `count` problems of the rule in the suite's file, read from the result's spool.
            case rejected(count: Int)
            /// `count` warnings of the rule in the suite's file, read from the result's spool.
            case warned(count: Int)
            /// The file-level problem that stopped the run.
            case failed(ImportProblem)
            /// The delete guard held the sync (or would): its reason and what to do.
            case held(reason: String, hint: String)
            /// Not checked, and why.
            case skipped(String)
            /// The run failed for a reason that is not the data's (the store).
            case error(message: String, hint: String)
        }

        var name: String
        var code: ProblemCode?
        var outcome: Outcome

        var isFailure: Bool {
            switch outcome {
            case .rejected, .failed, .held: return true
            default: return false
            }
        }

        var isError: Bool {
            if case .error = outcome { return true }
            return false
        }

        var isSkipped: Bool {
            if case .skipped = outcome { return true }
            return false
        }
    }

    /// One test suite: a file (as given), its properties and its rules.
    struct Suite {
        /// The file's path exactly, to find its problems in the spool.
        var file: String
        var properties: [(String, String)]
        var cases: [TestCase]

        var failures: Int { cases.filter(\.isFailure).count }
        var errors: Int { cases.filter(\.isError).count }
        var skipped: Int { cases.filter(\.isSkipped).count }
    }

    /// Writes the whole document to `sink` in pieces; the problems of `.rejected` and `.warned`
    /// cases are streamed from `spool` one at a time (bounded memory whatever their number).
    static func write(
        _ suites: [Suite], command: String, timestamp: String, spool: ProblemSpool?, to sink: @escaping (String) throws -> Void
    ) throws {
        let xml = XMLStreamWriter(sink: sink)
        let sum = { (count: (Suite) -> Int) in suites.reduce(0) { $0 + count($1) } }
        try xml.start(
            "testsuites",
            [
                ("name", "dashboard \(command)"), ("tests", String(sum { $0.cases.count })), ("failures", String(sum(\.failures))),
                ("errors", String(sum(\.errors))), ("time", "0"),
            ])
        for suite in suites {
            let shownFile = shown(suite.file)
            try xml.start(
                "testsuite",
                [
                    ("name", shownFile), ("tests", String(suite.cases.count)), ("failures", String(suite.failures)),
                    ("errors", String(suite.errors)), ("skipped", String(suite.skipped)), ("time", "0"), ("timestamp", timestamp),
                ])
            try xml.start("properties")
            for (name, value) in suite.properties { try xml.element("property", [("name", name), ("value", value)]) }
            try xml.end()
            for testCase in suite.cases {
                try xml.start("testcase", [("name", testCase.name), ("classname", shownFile), ("time", "0")])
                try writeOutcome(testCase, file: suite.file, spool: spool, xml)
                try xml.end()
            }
            try xml.end()
        }
        try xml.finish()
    }

    private static func writeOutcome(_ testCase: TestCase, file: String, spool: ProblemSpool?, _ xml: XMLStreamWriter) throws {
        switch testCase.outcome {
        case .passed:
            break
        case .rejected:
            guard let spool, let code = testCase.code else { return }
            try spool.forEachProblem(file: file, code: code) { try writeFailure($0, xml) }
        case .warned:
            guard let spool, let code = testCase.code else { return }
            try xml.start("system-out")
            try spool.forEachProblem(file: file, code: code) { try xml.text(warningLines($0)) }
            try xml.end()
        case .failed(let problem):
            try writeFailure(problem, xml)
        case .held(let reason, let hint):
            try xml.element(
                "failure", [("type", deleteGuardRule), ("message", VisibleText.of(reason))],
                text: VisibleText.of(reason) + "\nhint: \(VisibleText.of(hint))\n")
        case .skipped(let why):
            try xml.element("skipped", [("message", VisibleText.of(why))])
        case .error(let message, let hint):
            try xml.element(
                "error", [("type", "run_failed"), ("message", VisibleText.of(message))],
                text: VisibleText.of(message) + (hint.isEmpty ? "" : "\nhint: \(VisibleText.of(hint))") + "\n")
        }
    }

    // MARK: - How a problem reads

    /// `VisibleText.of(text)`, skipping its work for text of printable ASCII only (most text:
    /// a report of a million rows shows several fields of each).
    static func shown(_ text: String) -> String {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? text : VisibleText.of(text)
    }

    /// A problem's fields made visible once, for the lines that show them.
    struct ShownProblem {
        let problem: ImportProblem
        let file, column, value, hint: String

        init(_ problem: ImportProblem) {
            self.problem = problem
            (file, column) = (shown(problem.file), shown(problem.column))
            (value, hint) = (shown(problem.value), shown(problem.hint))
        }

        /// `file:line: column: message [code]`, and ` value: "…"` (whole) when the message does
        /// not quote the value: the `message` of a failure (and, with `warning: `, a warning's
        /// line in `<system-out>`): `ImportProblem.headline`, the layout of stderr's line.
        func headline(label: String = "") -> String {
            problem.headline(label: label, shown: JUnitReport.shown)
        }
    }

    /// `<failure type="code" message="headline">` with the headline, the hint and every field.
    static func writeFailure(_ problem: ImportProblem, _ xml: XMLStreamWriter) throws {
        let shown = ShownProblem(problem)
        let headline = shown.headline()
        var text = headline + "\n"
        if !shown.hint.isEmpty { text += "hint: \(shown.hint)\n" }
        text += "file: \(shown.file)\nline: \(problem.line)\n"
        if problem.row > 0 { text += "row: \(problem.row)\n" }
        if !shown.column.isEmpty { text += "column: \(shown.column)\n" }
        text += "code: \(problem.code.rawValue)\n"
        if !problem.value.isEmpty { text += "value: \"\(shown.value)\"\n" }
        try xml.element("failure", [("type", problem.code.rawValue), ("message", headline)], text: text)
    }

    /// A warning as the text summary on stderr shows it: its line, then its hint indented.
    static func warningLines(_ problem: ImportProblem) -> String {
        let shown = ShownProblem(problem)
        var text = shown.headline(label: "warning: ") + "\n"
        if !shown.hint.isEmpty { text += "    hint: \(shown.hint)\n" }
        return text
    }

    // MARK: - Properties

    /// The run's outcome, as in the JSON result (docs/json.md): command, status, mode, as_of,
    /// then batch_id, reason and unchanged_since when they have a value.
    static func runProperties(
        command: String, status: BatchStatus, mode: ImportMode, asOf: String, batchID: Int?, reason: String, unchangedSince: Int? = nil
    ) -> [(String, String)] {
        var properties = [("command", command), ("status", status.rawValue), ("mode", mode.rawValue), ("as_of", asOf)]
        if let batchID { properties.append(("batch_id", String(batchID))) }
        if !reason.isEmpty { properties.append(("reason", VisibleText.of(reason))) }
        if let unchangedSince { properties.append(("unchanged_since", String(unchangedSince))) }
        return properties
    }

    /// `counts.<name>.read`, `.inserted`, … `.warnings`, as the JSON result's `counts` object.
    static func countProperties(_ name: String, _ counts: ImportCounts) -> [(String, String)] {
        counts.jsonPairs.map { key, value in
            guard case .int(let number) = value else { return ("counts.\(name).\(key)", "") }
            return ("counts.\(name).\(key)", String(number))
        }
    }
}
