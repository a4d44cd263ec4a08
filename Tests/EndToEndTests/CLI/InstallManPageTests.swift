import Foundation
import Testing

/// `make install-files` (what `make install` runs after the release build) installs the binary,
/// the man page and the three completion scripts under DESTDIR/PREFIX, each what the binary
/// generates; `man` renders the page without a warning.
@Suite(.storeIndependent) struct InstallManPageTests {
    @Test func installPutsEveryFileInPlaceAndManRendersThePageWithoutWarnings() throws {
        let sandbox = try Sandbox()
        let binary = try DashboardBinary.url().path
        let destination = sandbox.path("stage")
        let make = try sandbox.runTool(
            "make",
            [
                "-s", "-C", DashboardBinary.packageRoot.path, "install-files", "DASHBOARD_BIN=\(binary)", "DESTDIR=\(destination)",
                "PREFIX=/opt/dash",
            ])
        #expect(make.exitCode == 0, "\(make)")
        let root = "stage/opt/dash/"
        let expected: [(String, [String])] = [
            ("share/man/man1/dashboard.1", ["help", "--man"]),
            ("share/bash-completion/completions/dashboard", ["completions", "bash"]),
            ("share/zsh/site-functions/_dashboard", ["completions", "zsh"]),
            ("share/fish/vendor_completions.d/dashboard.fish", ["completions", "fish"]),
        ]
        for (path, arguments) in expected {
            let installed = try? sandbox.read(root + path)
            #expect(installed == Data(try sandbox.run(arguments).stdout.utf8), "\(path) is not what `dashboard \(arguments)` prints")
            let mode = try FileManager.default.attributesOfItem(atPath: sandbox.path(root + path))[.posixPermissions] as? Int
            #expect(mode == 0o644, "\(path): mode \(String(mode ?? 0, radix: 8))")
        }
        #expect(try sandbox.read(root + "bin/dashboard") == Data(contentsOf: URL(fileURLWithPath: binary)))
        let page = sandbox.path(root + "share/man/man1/dashboard.1")
        let man = try sandbox.runTool("sh", ["-c", "MANWIDTH=80 man --warnings -l \"$1\" 2>&1 >/dev/null", "sh", page])
        #expect(man == CommandResult(exitCode: 0, stdout: "", stderr: ""), "man warns: \(man)")
        let text = try sandbox.runTool("sh", ["-c", "MANWIDTH=80 man -l \"$1\"", "sh", page])
        #expect(text.stdout.contains("batches approve"), "\(text.stdout.prefix(400))")
        #expect(text.stdout.contains("--max-delete LIMIT"))
    }
}
