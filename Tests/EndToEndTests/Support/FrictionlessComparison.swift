import DashboardCore
import Foundation
import Testing

/// The verdicts of `dashboard check --format json` and of the frictionless package on the same
/// files, and where they differ (`SchemaCommandTests`).
enum FrictionlessComparison {
    /// `Tests/Fixtures/Frictionless`: the script the tests run and the documented differences.
    static let folder = DashboardBinary.packageRoot.appendingPathComponent("Tests/Fixtures/Frictionless")
    static let script = folder.appendingPathComponent("verdicts.py")
    static let documentedFile = folder.appendingPathComponent("disagreements.json")

    /// One file to compare: where the test wrote it, the name the differences give it, the
    /// delimiter it is written with, and the kind and header labels the dashboard reads.
    struct Input {
        var path: String
        var name: String
        var delimiter: String
        var kind: FileKind?
        /// The label of each column the dashboard recognizes, by canonical name.
        var labels: [String: String]
    }

    /// A file's verdict: valid or not, the types of the problems of the file itself (its
    /// header, its bytes) and of each row by the physical line where it starts.
    struct Verdict: Equatable {
        var valid: Bool
        var fileTypes: Set<String> = []
        var rows: [Int: Set<String>] = [:]
    }

    /// One difference between the two verdicts on a file: of the file's verdict (`file`), of
    /// its header as the descriptor prints it (`header`: Frictionless does not know the
    /// aliases), problems of the file itself that only Frictionless finds in a file the
    /// dashboard reads (`file-problems`), or of one row (`row`, by line).
    struct Disagreement: Codable, Hashable, Comparable {
        var file: String
        var scope: String
        var line: Int
        var dashboard: [String]
        var frictionless: [String]
        /// The keys of the reasons docs/formats.md gives; nil for an observed difference.
        var reasons: [String]?

        /// The difference without its documentation.
        var observed: Disagreement {
            Disagreement(file: file, scope: scope, line: line, dashboard: dashboard, frictionless: frictionless, reasons: nil)
        }

        static func < (a: Disagreement, b: Disagreement) -> Bool {
            (a.file, a.scope, a.line, a.dashboard.joined(separator: ","), a.frictionless.joined(separator: ","))
                < (b.file, b.scope, b.line, b.dashboard.joined(separator: ","), b.frictionless.joined(separator: ","))
        }
    }

    struct Documented: Codable {
        var disagreements: [Disagreement]
    }

    /// `disagreements.json` as the tests write it: one difference a line, its keys in the
    /// order they are read (file, scope, line, the two verdicts, the reasons).
    static func documentedText(_ entries: [Disagreement]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        func json(_ value: some Encodable) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        let lines = try entries.map { entry in
            "    {\"file\": \(try json(entry.file)), \"scope\": \(try json(entry.scope)), \"line\": \(entry.line), "
                + "\"dashboard\": \(try json(entry.dashboard)), \"frictionless\": \(try json(entry.frictionless)), "
                + "\"reasons\": \(try json(entry.reasons ?? []))}"
        }
        return "{\n  \"disagreements\": [\n" + lines.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    // MARK: - The dashboard's side

    /// What the dashboard reads of a file's header: the kind it gives the file, the labels of
    /// its columns and the delimiter it detects, read as the importer reads a header (blank
    /// lines first are skipped). A header the dashboard refuses (a column named twice, a
    /// required one missing) still has the kind its rule gives (a header with `task_id` is a
    /// tasks file), with the first label of each column; no kind when the header cannot be
    /// read or names neither kind.
    static func header(of url: URL) -> (kind: FileKind?, labels: [String: String], delimiter: String) {
        struct Stop: Error {}
        var first: [String]?
        var delimiter = ","
        do {
            let reader = CSVReader(source: try FileByteSource(path: url.path))
            try reader.read { event in
                if case .record(let record) = event {
                    first = record.fields
                    delimiter = String(UnicodeScalar(reader.delimiter))
                    throw Stop()
                }
            }
        } catch {}
        guard let header = first else { return (nil, [:], delimiter) }
        let name = url.lastPathComponent
        var labels: [String: String] = [:]
        if let layout = try? HeaderLayout(header: header, file: name, fileNameHint: HeaderLayout.kindHint(fileName: name)) {
            for (column, index) in layout.indexes { labels[column.rawValue] = header[index].trimmingUnicodeWhitespace() }
            return (layout.kind, labels, delimiter)
        }
        let cells = header.map { $0.trimmingUnicodeWhitespace() }
        guard cells.contains(where: { Column.named($0) == .taskID }) else { return (nil, [:], delimiter) }
        for cell in cells {
            if let column = Column.named(cell), FileKind.tasks.columns.contains(column), labels[column.rawValue] == nil {
                labels[column.rawValue] = cell
            }
        }
        return (.tasks, labels, delimiter)
    }

    /// The verdict of `dashboard check --format json` on each file of the run, by path: a file
    /// error makes its file invalid with no rows; otherwise each reject counts for its row.
    static func dashboardVerdicts(_ output: String, paths: [String]) throws -> [String: Verdict] {
        let json = try JSON.object(output)
        var verdicts: [String: Verdict] = [:]
        for path in paths { verdicts[path] = Verdict(valid: true) }
        if let fileError = json["file_error"] as? [String: Any] {
            let file = fileError["file"] as? String ?? ""
            verdicts[file] = Verdict(valid: false, fileTypes: [fileError["type"] as? String ?? ""])
            return verdicts
        }
        for reject in JSON.objects(json["rejects"]) {
            guard let file = reject["file"] as? String, let line = reject["line"] as? Int, let type = reject["type"] as? String else {
                throw HarnessError("a reject without file, line or type: \(reject)")
            }
            verdicts[file, default: Verdict(valid: true)].valid = false
            verdicts[file, default: Verdict(valid: true)].rows[line, default: []].insert(asUnderTheDescriptor(type))
        }
        return verdicts
    }

    /// The dashboard's type as frictionless reports it under `dashboard schema`'s descriptor:
    /// every field there is a string with a pattern, so a value the dashboard cannot read as
    /// its type (`type-error` in its JSON) is a pattern's `constraint-error` (docs/formats.md).
    static func asUnderTheDescriptor(_ type: String) -> String {
        type == "type-error" ? "constraint-error" : type
    }

    // MARK: - Frictionless's side

    /// The verdict of one validation in `verdicts.py`'s output.
    static func frictionlessVerdict(_ result: [String: Any]) -> Verdict {
        var verdict = Verdict(valid: result["valid"] as? Bool ?? false)
        for error in JSON.objects(result["errors"]) {
            let type = error["type"] as? String ?? ""
            if let line = error["line"] as? Int {
                verdict.rows[line, default: []].insert(type)
            } else {
                verdict.fileTypes.insert(type)
            }
        }
        return verdict
    }

    // MARK: - Differences

    /// Where the two verdicts on one file differ. Rows are compared only when the dashboard
    /// read the file's rows (no file error): a file it refuses whole has no row verdicts.
    static func disagreements(
        file: String, dashboard: Verdict, frictionless: Verdict, asPrinted: Verdict
    ) -> [Disagreement] {
        var found: [Disagreement] = []
        func add(_ scope: String, _ line: Int, _ ours: [String], _ theirs: [String]) {
            found.append(Disagreement(file: file, scope: scope, line: line, dashboard: ours, frictionless: theirs))
        }
        if dashboard.valid != frictionless.valid {
            add("file", 0, [dashboard.valid ? "valid" : "invalid"], [frictionless.valid ? "valid" : "invalid"])
        }
        guard dashboard.fileTypes.isEmpty else { return found }
        let aliasErrors = asPrinted.fileTypes.subtracting(frictionless.fileTypes)
        if !aliasErrors.isEmpty { add("header", 1, [], aliasErrors.sorted()) }
        if !frictionless.fileTypes.isEmpty { add("file-problems", 0, [], frictionless.fileTypes.sorted()) }
        for line in Set(dashboard.rows.keys).union(frictionless.rows.keys).sorted() {
            let (ours, theirs) = (dashboard.rows[line] ?? [], frictionless.rows[line] ?? [])
            if ours != theirs { add("row", line, ours.sorted(), theirs.sorted()) }
        }
        return found
    }
}
