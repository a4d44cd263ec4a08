import Foundation

/// The Python of the machine users' own tools (frictionless, prometheus_client), in the build's
/// virtual environment that `make test` makes (`make python-tools`, pinned versions from PyPI).
enum PythonTools {
    static let python = DashboardBinary.packageRoot.appendingPathComponent(".build/python/bin/python3")

    /// Runs `python3 ARGS` of the environment in `sandbox`'s working directory.
    /// - Throws: `HarnessError` naming the make target when the environment is missing.
    static func run(_ arguments: [String], in sandbox: Sandbox, stdin: String? = nil) throws -> CommandResult {
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw HarnessError("\(python.path) is missing: `make python-tools` (which `make test` runs) makes it")
        }
        return try sandbox.runProgram(python, arguments, stdin: stdin)
    }
}
