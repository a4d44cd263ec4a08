/// The JUnit XML form of import results (`dashboard import --format junit`, `dashboard check
/// --format junit`): see `JUnitReport` for the shape, docs/formats.md for the reader's guide.
extension ImportResult {
    /// Writes the report to `sink` in pieces: one pass counts the problems of each file by code
    /// (the suites' numbers come first), then each rule's problems are streamed from the spool
    /// one at a time, so memory stays bounded whatever their number.
    /// - Parameters:
    ///   - command: `check` or `import`, named by the report and its properties.
    ///   - wording: how the delete guard's hint names the shell's ways on (`ImportHint`).
    /// - Throws: the spool's error when its temporary database cannot be read, or the sink's.
    package func writeJUnit(
        command: String, wording: ImportWording = .plain, to sink: @escaping (String) throws -> Void
    ) throws {
        let counted = try problemSpool.countsByFile()
        try JUnitReport.write(
            junitSuites(command: command, counted: counted, wording: wording), command: command, timestamp: asOf,
            spool: problemSpool, to: sink)
    }

    /// The suites: one per file read (a path given twice is one suite), in the order read, then
    /// one per other file a problem names (none in practice: never a problem left out).
    func junitSuites(
        command: String, counted: [String: [ProblemCode: Int]], wording: ImportWording = .plain
    ) -> [JUnitReport.Suite] {
        var seen: Set<String> = []
        var entries: [(path: String, file: ImportedFile?)] = []
        for file in files where seen.insert(file.path).inserted { entries.append((file.path, file)) }
        for path in counted.keys.sorted() where seen.insert(path).inserted { entries.append((path, nil)) }
        let run = JUnitReport.runProperties(
            command: command, status: status, mode: mode, asOf: asOf, batchID: batchID, reason: reason, unchangedSince: unchangedSince)
        return entries.map { path, file in
            let problems = counted[path] ?? [:]
            return JUnitReport.Suite(
                file: path, properties: run + fileProperties(file, problems: problems),
                cases: junitCases(kind: file?.kind, problems: problems, wording: wording))
        }
    }

    /// The file's rules, each passed, failed by its rejected rows or listing its warnings; a
    /// code outside the kind's rules that the file has problems of is added (after them, in
    /// `ProblemCode` order), so that no problem is ever left out; then the delete guard.
    private func junitCases(
        kind: FileKind?, problems: [ProblemCode: Int], wording: ImportWording
    ) -> [JUnitReport.TestCase] {
        var rules = ProblemCode.rules(for: kind)
        rules += ProblemCode.allCases.filter { problems[$0] != nil && !rules.contains($0) }
        var cases = rules.map { code in
            let count = problems[code] ?? 0
            let outcome: JUnitReport.TestCase.Outcome =
                count == 0 ? .passed : code.severity == .error ? .rejected(count: count) : .warned(count: count)
            return JUnitReport.TestCase(name: code.rawValue, code: code, outcome: outcome)
        }
        if mode == .sync, let kind {
            cases.append(
                JUnitReport.TestCase(name: JUnitReport.deleteGuardRule, code: nil, outcome: deleteGuardOutcome(kind, wording: wording)))
        }
        return cases
    }

    /// The delete guard held the run (or would hold it: a check or dry run with a reason, which
    /// only the guard gives them) and this kind would lose rows: failed, with the guard's reason,
    /// which names the kind over the limit. A kind that would lose none cannot have held it.
    private func deleteGuardOutcome(_ kind: FileKind, wording: ImportWording) -> JUnitReport.TestCase.Outcome {
        let guardHeld = status == .held || (status == .dryRun && !reason.isEmpty)
        guard guardHeld, (counts[kind]?.deleted ?? 0) > 0 else { return .passed }
        let hint =
            status == .held
            ? "approve the batch only if these deletions are expected (\(wording(.approveHeld(batchID: batchID)))); otherwise discard it "
                + "and fix the export"
            : "if these deletions are expected, run the sync with \(wording(.raiseDeleteLimit)); otherwise the export is missing rows"
        return .held(reason: reason, hint: hint)
    }

    /// `file.kind`, `file.size`, `file.sha256`, `file.rows` (as in the JSON result's `files`),
    /// `file.rejects` and `file.warnings` (its problems of each severity), then the counts of its
    /// kind and of the whole run (the JSON result's `counts`).
    private func fileProperties(_ file: ImportedFile?, problems: [ProblemCode: Int]) -> [(String, String)] {
        var properties: [(String, String)] = []
        if let kind = file?.kind { properties.append(("file.kind", kind.rawValue)) }
        if let file {
            properties += [("file.size", String(file.size)), ("file.sha256", file.sha256), ("file.rows", String(file.rows))]
        }
        let rejects = problems.filter { $0.key.severity == .error }.values.reduce(0, +)
        let warnings = problems.filter { $0.key.severity == .warning }.values.reduce(0, +)
        properties += [("file.rejects", String(rejects)), ("file.warnings", String(warnings))]
        if let kind = file?.kind, let kindCounts = counts[kind] {
            properties += JUnitReport.countProperties(kind.rawValue, kindCounts)
        }
        properties += JUnitReport.countProperties("total", total)
        return properties
    }
}
