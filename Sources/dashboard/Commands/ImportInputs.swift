import DashboardCore
import Foundation

/// The options `import` and `check` share, and turning PATH arguments into input files.
enum ImportInputs {
    static let readingOptions: [OptionSpec] = [
        .value("mode", "merge|sync", "merge (default) inserts and updates; sync also deletes rows missing from the files"),
        .value("encoding", "NAME", "utf-8 (default), windows-1252 or latin1"),
        .value("delimiter", "CHAR", "field delimiter: , ; tab or | (default: detected from the header)"),
        .value("date-order", "mdy|dmy", "how to read slashed dates like 11/29/2026 (default: refuse them)"),
        .value("rejects", "FILE", "write every rejected row to FILE as CSV (file,line,column,code,value,message)"),
        .value("format", "text|json", "text (default): a summary on stderr; json: the batch result on stdout"),
    ]

    /// Builds the import options from the arguments.
    static func options(_ invocation: Invocation, command: String) throws -> ImportOptions {
        let args = invocation.arguments
        var options = ImportOptions()
        options.asOf = invocation.global.asOf
        options.timeZone = invocation.global.timeZone
        options.overrideManual = args.has("override-manual")
        options.actor = GlobalOptions.actor(args, environment: invocation.environment)
        if let mode = args.value("mode") {
            guard let parsed = ImportMode(rawValue: mode) else {
                throw CommandError.usage("--mode must be merge or sync, not \"\(mode)\"", command: command)
            }
            options.mode = parsed
        }
        if let name = args.value("encoding") {
            guard let encoding = InputEncoding(name: name) else {
                throw CommandError.usage("unsupported --encoding \"\(name)\" (use utf-8, windows-1252 or latin1)", command: command)
            }
            options.encoding = encoding
        }
        if let text = args.value("delimiter") {
            switch text {
            case ",", "comma": options.delimiter = UInt8(ascii: ",")
            case ";", "semicolon": options.delimiter = UInt8(ascii: ";")
            case "\t", "tab", "\\t": options.delimiter = 9
            case "|", "pipe": options.delimiter = UInt8(ascii: "|")
            default:
                throw CommandError.usage("--delimiter must be , ; tab or |, not \"\(text)\"", command: command)
            }
        }
        if let order = args.value("date-order") {
            guard let parsed = DateOrder(rawValue: order) else {
                throw CommandError.usage("--date-order must be mdy or dmy, not \"\(order)\"", command: command)
            }
            options.dateOrder = parsed
        }
        if let limit = args.value("max-delete") {
            guard let parsed = DeleteLimit(limit) else {
                throw CommandError.usage(
                    "--max-delete must be a percentage like 10% or a count like 500, not \"\(limit)\"", command: command)
            }
            options.maxDelete = parsed
        }
        options.strict = args.has("strict")
        options.dryRun = args.has("dry-run")
        return options
    }

    /// Expands PATH arguments: a folder means every `*.csv` in it (by name); `-` is stdin,
    /// spooled to a private temporary file because a file is read twice (header, then body).
    /// - Throws: `CommandError` 64 without paths, 66 for a missing path or a folder with no CSV.
    static func files(_ paths: [String], command: String, console: Console) throws -> (files: [InputFile], cleanup: () -> Void) {
        guard !paths.isEmpty else {
            throw CommandError.usage("give at least one file or folder to \(command)", command: command)
        }
        var files: [InputFile] = []
        var temporary: [String] = []
        let fm = FileManager.default
        for path in paths {
            if path == "-" {
                let spool = try spoolStandardInput()
                temporary.append(spool)
                let size = (try? fm.attributesOfItem(atPath: spool)[.size] as? Int) ?? 0
                files.append(InputFile(path: "stdin", size: size) { try FileByteSource(path: spool) })
                continue
            }
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CommandError(.noInput, "\(path) does not exist", hint: "check the path; give a CSV file or a folder of them")
            }
            if isDirectory.boolValue {
                let names: [String]
                guard let listed = try? fm.contentsOfDirectory(atPath: path) else {
                    let reason = access(path, R_OK | X_OK) == 0 ? "it cannot be read" : String(cString: strerror(errno))
                    throw CommandError(
                        .noInput, "cannot list the folder \(path): \(reason)", hint: "check the folder's permissions for this user")
                }
                names = listed
                let csvs = names.filter { $0.lowercased().hasSuffix(".csv") && !$0.hasPrefix(".") }.sorted()
                guard !csvs.isEmpty else {
                    throw CommandError(.noInput, "\(path) holds no *.csv file", hint: "put courses.csv and tasks.csv in it")
                }
                let base = path.hasSuffix("/") ? path : path + "/"
                files += csvs.map { InputFile.onDisk(base + $0) }
            } else {
                guard fm.isReadableFile(atPath: path) else {
                    throw CommandError(.noInput, "\(path) is not readable", hint: "check the file's permissions")
                }
                files.append(InputFile.onDisk(path))
            }
        }
        return (files, { for path in temporary { try? fm.removeItem(atPath: path) } })
    }

    /// Copies standard input to a new private file (`mkstemp`: a unique name, mode 0600, never
    /// following a planted link).
    private static func spoolStandardInput() throws -> String {
        var template = Array((NSTemporaryDirectory() + "dashboard-stdin-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard fd >= 0 else {
            throw CommandError(.ioError, "cannot create a temporary file for standard input in \(NSTemporaryDirectory())")
        }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw CommandError(.ioError, "reading standard input failed: \(String(cString: strerror(errno)))")
            }
            let failed = buffer.withUnsafeBytes { FileDescriptorWriter.writeAll(fd, UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            guard failed == 0 else {
                throw CommandError(.ioError, "cannot spool standard input to \(path): \(String(cString: strerror(failed)))")
            }
        }
        return path
    }

    // MARK: - Reporting a result

    /// How many problems the text summary lists before pointing at the full list.
    static let textProblemLimit = 20

    /// Prints the problems (first 20) and the one-line summary on stderr, writes `--rejects`,
    /// prints JSON on stdout when asked.
    static func report(_ result: ImportResult, invocation: Invocation, format: String, verb: String) throws {
        let console = invocation.console
        if let path = invocation.arguments.value("rejects") {
            try writeRejects(result.problemSpool, to: path)
        }
        if format == "json" {
            // Streamed: a million problems never become one string (docs/reliability.md).
            try spoolRead { try result.writeJSON { console.out($0) } }
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

    static func styledProblem(_ problem: ImportProblem, console: Console) -> String {
        let label = problem.severity == .error ? console.styled("error", "31") : console.styled("warning", "33")
        var text = "\(problem.file):\(problem.line): \(label): "
        if !problem.column.isEmpty { text += "\(problem.column): " }
        text += problem.message + " [\(problem.code.rawValue)]"
        if !problem.value.isEmpty, !problem.message.contains(problem.value) {
            text += " value: \"\(problem.value.prefix(60))\""
        }
        if !problem.hint.isEmpty { text += "\n    hint: \(problem.hint)" }
        return text
    }

    /// `batch 3 committed (merge): 104 read, 97 inserted, …` — one line.
    static func summary(_ result: ImportResult, verb: String) -> String {
        let t = result.total
        let counts =
            "\(Format.number(t.read)) rows read, \(Format.number(t.inserted)) inserted, \(Format.number(t.updated)) updated, \(Format.number(t.unchanged)) unchanged, \(Format.number(t.deleted)) deleted, \(Format.number(t.rejected)) rejected, \(Format.number(t.warnings)) warnings"
        let batch = result.batchID.map { "batch \($0) " } ?? ""
        switch result.status {
        case .committed:
            var text = "\(verb) \(batch)committed (\(result.mode.rawValue)): \(counts)"
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
            let held = result.reason.isEmpty ? "" : "; \(result.reason)"
            return "\(verb) \(batch)dry run (\(result.mode.rawValue)), nothing written: \(counts)\(held)"
        case .held:
            return "error: \(batch)held: \(result.reason). Counts: \(counts)"
        default:
            return "error: \(batch)\(result.status.rawValue): \(result.reason). Counts: \(counts)"
        }
    }

    /// Makes sure `--rejects FILE` can be written before anything is imported, so that a bad
    /// path fails the run up front (exit 74, nothing committed) instead of after the commit.
    /// - Throws: `CommandError` (74) naming the path and the reason.
    static func prepareRejectsFile(_ invocation: Invocation) throws {
        guard let path = invocation.arguments.value("rejects") else { return }
        let fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw CommandError(
                .ioError, "cannot write --rejects \(path): \(String(cString: strerror(errno)))",
                hint: "give a file in a folder you can write to; nothing was imported")
        }
        close(fd)
    }

    /// Writes the rejected rows of `problems` to `path`, streamed from the spool in pieces of
    /// about 64 KiB (bounded memory whatever the number of rejects).
    static func writeRejects(_ problems: ProblemSpool, to path: String) throws {
        let fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw CommandError(.ioError, "cannot write --rejects \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var text = "file,line,column,code,value,message\n"
        func flush() throws {
            let failed = FileDescriptorWriter.writeAll(fd, text)
            text = ""
            guard failed == 0 else {
                throw CommandError(.ioError, "cannot write --rejects \(path): \(String(cString: strerror(failed)))")
            }
        }
        try spoolRead {
            try problems.forEachProblem(severity: .error) { p in
                // Values are kept exactly (no formula prefix): this file is for data people.
                text +=
                    [p.file, String(p.line), p.column, p.code.rawValue, p.value, p.message].map(CSVWriter.field).joined(separator: ",")
                    + "\n"
                if text.utf8.count >= 64 * 1024 { try flush() }
            }
        }
        try flush()
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
    static func failure(_ failure: ImportFailure, invocation: Invocation, format: String) throws -> CommandError {
        switch failure {
        case .fileProblem(let problem, let batchID):
            if format == "json" { printFailureJSON(invocation, batchID: batchID, reason: problem.formatted, problem: problem) }
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
            if format == "json", case .busy = error {
            } else if format == "json" {
                printFailureJSON(invocation, batchID: nil, reason: mapped.message, problem: nil)
            }
            return mapped
        }
    }

    private static func printFailureJSON(_ invocation: Invocation, batchID: Int?, reason: String, problem: ImportProblem?) {
        let value = JSONValue.object([
            ("schema", .int(1)), ("batch_id", batchID.map { .int($0) } ?? .null), ("status", .string("failed")),
            ("reason", .string(reason)), ("file_error", problem.map(\.json) ?? .null),
        ])
        invocation.console.out(value.rendered() + "\n")
    }
}
