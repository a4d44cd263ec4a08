import DashboardCore
import Foundation

/// `dashboard check PATH...`
enum CheckCommand: Command {
    static let spec = CommandSpec(
        name: "check",
        usage: "dashboard check [options] PATH...",
        abstract: "Validate CSV files and show what an import would change; writes nothing.",
        discussion: """
            Runs every rule of an import and compares with the database (if there is one yet),
            without writing anything, not even a batch record. Exit 0 when every row is valid,
            65 when a row or the file is rejected. Made for data-quality test suites: use
            --format json and read `rejects`, or --format junit for a CI system's test report
            (one test suite per file, one test case per rule, one failure per rejected row).
            PATH is read as by `dashboard import` (- is standard input, a stream of at most
            1 GiB).
            """,
        examples: [
            "dashboard check imports/",
            "dashboard check --format json tasks.csv > result.json",
            "dashboard check --format junit imports/ > check-results.xml",
            "dashboard check --rejects rejects.csv --mode sync imports/",
        ],
        options: ImportInputs.readingOptions + [
            .value("max-delete", "LIMIT", "report whether a sync would be held by this limit (default 10%)", kind: .maxDelete)
        ],
        arguments: .files)

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let format = format(invocation)
        var options = try ImportInputs.options(invocation, command: spec.name)
        options.dryRun = true
        try ImportInputs.prepareRejectsFile(invocation)
        let files = try InputPaths.files(
            invocation.arguments.positionals, command: spec.name, options: options, environment: invocation.environment)
        let store: any ReadableStore = try ImportInputs.reportingOpenFailure(invocation, format: format, command: spec.name) {
            let store: any ReadableStore
            do {
                store = try openExistingStore(invocation) ?? StoreFactory.openScratch()
            } catch let error as StoreError {
                throw CommandError.store(error)
            }
            options.timeZone = try defaultZone(store, invocation)
            return store
        }
        let result: ImportResult
        do {
            result = try store.importFiles(files, options: options, record: false, clock: SystemClock(), progress: nil)
        } catch {
            throw try ImportInputs.failure(error, invocation: invocation, format: format, inputs: files.map(\.path), command: spec.name)
        }
        try ImportInputs.report(result, invocation: invocation, format: format, verb: "check")
        // Exit as the real import would: 65 for rejected rows or a sync the guard would hold.
        return result.total.rejected > 0 || !result.reason.isEmpty ? .dataError : .success
    }
}
