/// The JUnit reports of runs that gave no result: stopped by a file-level problem, or failed
/// for a reason that is not the data's. A failed run never reads as a success: each has a
/// failure or an error.
extension JUnitReport {
    /// The report of a run a file-level problem stopped (nothing was imported, exit 65).
    ///
    /// Policy: one suite per input file, as for a result. The file that failed is listed with
    /// the file-level rules (and the failed rule, when it is another, such as a header's
    /// `malformed_quote`): the failed one has the problem as its one `<failure>`, the others are
    /// `<skipped>` ("not reported"), since reading stopped. Every other file's file-level rules
    /// are `<skipped>` too: whatever was found in them is not reported, the run having stopped.
    /// Row rules are not listed (the files' kinds are not known from a failure).
    /// - Parameters:
    ///   - inputs: the input files' paths, as the command was given them (folders expanded).
    ///   - asOf: the run's as-of instant (`Timestamp.text`), the suites' timestamp.
    ///   - batchID: the failed batch, when `import` recorded one.
    package static func writeFileFailure(
        _ problem: ImportProblem, inputs: [String], command: String, mode: ImportMode, asOf: String, batchID: Int?,
        to sink: @escaping (String) throws -> Void
    ) throws {
        let run = runProperties(command: command, status: .failed, mode: mode, asOf: asOf, batchID: batchID, reason: problem.formatted)
        let place = "\(problem.file):\(problem.line) (\(problem.code.rawValue))"
        let suites = distinct(inputs + [problem.file]).map { path in
            guard path == problem.file else {
                let why = "not reported: the run stopped at \(place)"
                return Suite(
                    file: path, properties: run,
                    cases: ProblemCode.fileRules.map { TestCase(name: $0.rawValue, code: $0, outcome: .skipped(why)) })
            }
            let why = "not reported: reading this file stopped at line \(problem.line) (\(problem.code.rawValue))"
            let rules = ProblemCode.fileRules.contains(problem.code) ? ProblemCode.fileRules : ProblemCode.fileRules + [problem.code]
            return Suite(
                file: path, properties: run,
                cases: rules.map { code in
                    TestCase(name: code.rawValue, code: code, outcome: code == problem.code ? .failed(problem) : .skipped(why))
                })
        }
        try write(suites, command: command, timestamp: asOf, spool: nil, to: sink)
    }

    /// The report of a run that failed for a reason that is not the data's: the store could not
    /// be opened, read or written (exit 74, 70…). No file is to blame, so the report has one
    /// suite, named after the command, with one test case `run` whose `<error>` is the message
    /// and hint the command prints on stderr.
    package static func writeRunFailure(
        message: String, hint: String, command: String, mode: ImportMode, asOf: String, batchID: Int?,
        to sink: @escaping (String) throws -> Void
    ) throws {
        let suite = Suite(
            file: "dashboard \(command)",
            properties: runProperties(command: command, status: .failed, mode: mode, asOf: asOf, batchID: batchID, reason: message),
            cases: [TestCase(name: "run", code: nil, outcome: .error(message: message, hint: hint))])
        try write([suite], command: command, timestamp: asOf, spool: nil, to: sink)
    }

    /// `paths` without repeats, in their first order.
    private static func distinct(_ paths: [String]) -> [String] {
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }
    }
}
