import DashboardCore
import Foundation

/// The options `import` and `check` share, and turning PATH arguments into input files.
enum ImportInputs {
    static let readingOptions: [OptionSpec] = [
        .value(
            "mode", "merge|sync", "merge (default) inserts and updates; sync also deletes rows missing from the files", kind: modeKind),
        .value("encoding", "NAME", "utf-8 (default), windows-1252 or latin1", suggestions: ["utf-8", "windows-1252", "latin1"]),
        .value(
            "delimiter", "CHAR", "field delimiter: , ; tab or | (default: detected from the header)",
            suggestions: ["comma", "semicolon", "tab", "pipe"]),
        .value(
            "date-order", "mdy|dmy", "how to read slashed dates like 11/29/2026 (default: refuse them)",
            kind: .choice(DateOrder.allCases.map(\.rawValue), wording: .list)),
        .value(
            "rejects", "FILE",
            "write every rejected row to FILE as CSV (file,line,column,code,value,message); FILE is replaced, mode from the umask without others (022: 0640)"
        ),
        .value(
            "format", "text|json|junit",
            "text (default): a summary on stderr; json: the batch result on stdout; junit: a JUnit XML report on stdout (one test suite per file, one test case per rule)"
        ),
    ]

    /// `--mode`: "must be merge or sync".
    static let modeKind = OptionValueKind.choice(ImportMode.allCases.map(\.rawValue), wording: .list)

    /// Builds the import options from the arguments.
    static func options(_ invocation: Invocation, command: String) throws -> ImportOptions {
        let args = invocation.arguments
        var options = ImportOptions()
        options.wording = .commandLine
        options.asOf = invocation.global.asOf
        options.timeZone = invocation.global.timeZone
        options.overrideManual = args.has("override-manual")
        options.actor = try GlobalOptions.actor(args, environment: invocation.environment)
        if let mode = args.choice("mode", as: ImportMode.self) { options.mode = mode }
        if let encoding = try encoding(args, command: command) { options.encoding = encoding }
        options.delimiter = try delimiter(args, command: command)
        if let order = args.choice("date-order", as: DateOrder.self) { options.dateOrder = order }
        if let limit = args.deleteLimit("max-delete") { options.maxDelete = limit }
        options.strict = args.has("strict")
        options.dryRun = args.has("dry-run")
        return options
    }

    /// `--encoding`, nil when not given.
    static func encoding(_ args: ParsedArguments, command: String) throws -> InputEncoding? {
        guard let name = args.value("encoding") else { return nil }
        guard let encoding = InputEncoding(name: name) else {
            throw CommandError.usage("unsupported --encoding \"\(name)\" (use utf-8, windows-1252 or latin1)", command: command)
        }
        return encoding
    }

    /// `--delimiter`, nil when not given (the reader detects it).
    static func delimiter(_ args: ParsedArguments, command: String) throws -> UInt8? {
        guard let text = args.value("delimiter") else { return nil }
        switch text {
        case ",", "comma": return UInt8(ascii: ",")
        case ";", "semicolon": return UInt8(ascii: ";")
        case "\t", "tab", "\\t": return 9
        case "|", "pipe": return UInt8(ascii: "|")
        default: throw CommandError.usage("--delimiter must be , ; tab or |, not \"\(text)\"", command: command)
        }
    }

    /// Whether a file found in an input folder is read: `*.csv` (any case), not hidden. The one
    /// rule for `InputPaths.files` and the output guard.
    static func isInputName(_ name: String) -> Bool {
        name.lowercased().hasSuffix(".csv") && !name.hasPrefix(".")
    }

    // MARK: - Reporting a result

    /// How many problems the text summary lists before pointing at the full list.
    static let textProblemLimit = 20

    /// Prints the problems (first 20) and the one-line summary on stderr, writes `--rejects`,
    /// prints JSON or the JUnit XML report on stdout when asked.
    static func report(_ result: ImportResult, invocation: Invocation, format: String, verb: String) throws {
        let console = invocation.console
        if let path = invocation.arguments.value("rejects") {
            try writeRejects(result.problemSpool, to: path, invocation: invocation)
        }
        if format == "json" {
            // Streamed: a million problems never become one string (docs/reliability.md).
            try spoolRead { try result.writeJSON { console.out($0) } }
        }
        if format == "junit" {
            // Streamed too: the problems are read from the spool rule by rule (JUnitReport).
            try spoolRead { try result.writeJUnit(command: verb, wording: .commandLine) { console.out($0) } }
        }
        let clean = result.problemCount == 0 && result.status != .held && result.status != .failed
        if console.quiet && clean { return }
        if format == "text" {
            for problem in try spoolRead({ try result.problemSpool.first(textProblemLimit) }) {
                console.err(styledProblem(problem, console: console) + "\n")
            }
            if result.problemCount > textProblemLimit {
                console.err(
                    "… and \(result.problemCount - textProblemLimit) more problems (all of them: --format json or --rejects FILE)\n")
            }
        }
        console.err("dashboard: " + summary(result, verb: verb) + "\n")
    }

    /// `file:line: error: column: message [code] value: "…"` and its hint on a second line.
    /// Every part but the coloured label and the layout comes from the data (the file name, the
    /// header's column name, the value, messages that quote it), so each is made visible
    /// (`VisibleText`) before it meets the label's colour codes.
    static func styledProblem(_ problem: ImportProblem, console: Console) -> String {
        let label = problem.severity == .error ? console.styled("error", "31") : console.styled("warning", "33")
        var text = problem.headline(label: label + ": ", valueLimit: 60, shown: VisibleText.of)
        if !problem.hint.isEmpty { text += "\n    hint: \(VisibleText.of(problem.hint))" }
        return text
    }

    /// `batch 3 committed (merge): 104 read, 97 inserted, …` — one line; `would insert 97, …`
    /// for a batch that changed nothing.
    static func summary(_ result: ImportResult, verb: String) -> String {
        // A dry run, a held or a failed batch changed nothing: "would insert …" (BatchCountWords).
        let counts = BatchCountWords.summary(result.total, happened: BatchCountWords.happened(result.status))
        let batch = result.batchID.map { "batch \($0) " } ?? ""
        // The reason may name a file or quote a value: shown visible, like every message.
        let reason = VisibleText.of(result.reason)
        switch result.status {
        case .committed:
            var text = "\(verb) \(batch)committed (\(result.mode.rawValue)): \(counts)"
            // The rows were not compared: the data is proven unchanged since that import.
            if let earlier = result.unchangedSince {
                text += "; the same files as batch \(earlier) into unchanged data: not compared again"
            }
            // Overrides are a teacher's decisions: say when the import touched one.
            if let c = result.categorized, c.conflicts > 0 {
                text +=
                    "; \(c.conflicts) task\(c.conflicts == 1 ? "" : "s") changed under a manual override (kept; see dashboard audit --conflicts)"
            }
            if let c = result.categorized, c.clearedOverrides > 0 {
                text += "; \(c.clearedOverrides) manual override\(c.clearedOverrides == 1 ? "" : "s") cleared by --override-manual"
            }
            return text
        case .dryRun:
            let held = reason.isEmpty ? "" : "; \(reason)"
            return "\(verb) \(batch)dry run (\(result.mode.rawValue)), nothing written: \(counts)\(held)"
        case .held:
            return "error: \(batch)held: \(reason). Counts: \(counts)"
        default:
            return "error: \(batch)\(result.status.rawValue): \(reason). Counts: \(counts)"
        }
    }

    /// Runs a read of the problem spool; a failure of its temporary database (a full or
    /// vanished temp folder) is an I/O error, exit 74.
    static func spoolRead<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(
                .ioError, "cannot read the list of problems from its temporary file: \(error)",
                hint: "check the free space of the temporary folder (TMPDIR)")
        }
    }

    /// Maps an import failure to an error for the user (the batch, when recorded, is named).
    /// With `--format json` or `junit`, a failure that JSON describes is also written on stdout.
    /// - Parameters:
    ///   - inputs: the input files' paths, for the JUnit report's suites.
    ///   - command: `import` or `check`, for the JUnit report.
    static func failure(
        _ failure: ImportFailure, invocation: Invocation, format: String, inputs: [String] = [], command: String = "import"
    ) throws -> CommandError {
        switch failure {
        case .fileProblem(let problem, let batchID):
            if format == "json" { printFailureJSON(invocation, batchID: batchID, reason: problem.formatted, problem: problem) }
            if format == "junit" {
                let run = junitRun(invocation, command: command)
                try JUnitReport.writeFileFailure(
                    problem, inputs: inputs, command: run.command, mode: run.mode, asOf: run.asOf, batchID: batchID,
                    to: { invocation.console.out($0) })
            }
            let recorded = batchID.map { " (recorded as failed batch \($0))" } ?? ""
            return CommandError(
                .dataError,
                "\(problem.file):\(problem.line): \(problem.message) [\(problem.code.rawValue)]; nothing was imported\(recorded)",
                hint: problem.hint)
        case .strictRejected(let result):
            try report(result, invocation: invocation, format: format, verb: "import")
            return CommandError(
                .dataError, "--strict: \(result.total.rejected) row(s) rejected, nothing was imported",
                hint: "fix the rows listed above, or run without --strict to import the valid rows")
        case .inputMissing(let path, let reason):
            return CommandError(.noInput, "cannot open \(path): \(reason)", hint: "check the path and its permissions")
        case .inputUnreadable(let path, let reason, _):
            return CommandError(.ioError, "reading \(path) failed: \(reason); nothing was imported")
        case .staleHeld(let id, _):
            return CommandError(
                .dataError, failure.description,
                hint: "import the files again to get a fresh batch, or `dashboard batches approve \(id) --force` if you are sure")
        case .notHeld(_, let status):
            guard status != nil else {
                return CommandError(.dataError, failure.description, hint: "`dashboard batches list` shows the batches")
            }
            return CommandError(.dataError, failure.description, hint: "`dashboard batches list` shows which batches are held")
        case .store(let error, _):
            let mapped = CommandError.store(error)
            // Another writer holds the database: nothing ran, no JSON and no report.
            if mapped.code != .busy { try reportRunFailure(mapped, invocation: invocation, format: format, command: command) }
            return mapped
        }
    }

    /// Runs `body`, the opening of the database (and the reading of its zone) by `check` and
    /// `import`: a database that cannot be opened fails the run as a store error during it does,
    /// with the failure object of `--format json` or the run's `<error>` of `--format junit` on
    /// stdout, so a CI step still gets a report it can parse. A busy database (75) and a usage
    /// error (64: a `--db` that names nothing usable) print none, as nothing ran.
    static func reportingOpenFailure<T>(
        _ invocation: Invocation, format: String, command: String, _ body: () throws -> T
    ) throws -> T {
        do {
            return try body()
        } catch let error as CommandError where error.code != .busy && error.code != .usage {
            try reportRunFailure(error, invocation: invocation, format: format, command: command)
            throw error
        }
    }

    /// The report of a run that failed for a reason that is not the data's, in `format`.
    private static func reportRunFailure(_ error: CommandError, invocation: Invocation, format: String, command: String) throws {
        if format == "json" {
            printFailureJSON(invocation, batchID: nil, reason: error.message, problem: nil)
        } else if format == "junit" {
            let run = junitRun(invocation, command: command)
            try JUnitReport.writeRunFailure(
                message: error.message, hint: error.hint, command: run.command, mode: run.mode, asOf: run.asOf, batchID: nil,
                to: { invocation.console.out($0) })
        }
    }

    /// What a JUnit report of a failed run names: the command, its `--mode` and its as-of.
    private static func junitRun(_ invocation: Invocation, command: String) -> (command: String, mode: ImportMode, asOf: String) {
        (command, invocation.arguments.choice("mode", as: ImportMode.self) ?? .merge, Timestamp.text(invocation.global.asOf))
    }

    private static func printFailureJSON(_ invocation: Invocation, batchID: Int?, reason: String, problem: ImportProblem?) {
        let value = JSONValue.object([
            ("schema", .int(1)), ("batch_id", batchID.map { .int($0) } ?? .null), ("status", .string("failed")),
            ("reason", .string(reason)), ("file_error", problem.map(\.json) ?? .null),
        ])
        invocation.console.out(value.rendered() + "\n")
    }
}
