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

/// Prometheus's own rule checker, unpacked from Debian's `prometheus` package into the build
/// (`make promtool`, which `make test` runs): the binary alone, no server installed or started.
enum Promtool {
    static let binary = DashboardBinary.packageRoot.appendingPathComponent(".build/promtool/usr/bin/promtool")

    /// Runs `promtool ARGS` in `sandbox`'s working directory.
    /// - Throws: `HarnessError` naming the make target when promtool is missing.
    static func run(_ arguments: [String], in sandbox: Sandbox) throws -> CommandResult {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw HarnessError("\(binary.path) is missing: `make promtool` (which `make test` runs) unpacks it")
        }
        return try sandbox.runProgram(binary, arguments)
    }
}
