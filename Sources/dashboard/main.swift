import DashboardCore
import Foundation

/// The version printed by `dashboard --version`.
let dashboardVersion = "0.1.0"

signal(SIGPIPE, SIG_IGN)
let console = Console()
let environment = ProcessInfo.processInfo.environment
// The umask, read once (it cannot be read without being set: set and put back at once, before
// anything is created); the library gets the modes it gives as a value.
let startUmask = umask(0o077)
umask(startUmask)
let fileModes = FileModes(umask: startUmask)
let exitCode = TraceSettings.run(environment: environment, console: console) {
    Dashboard.main(Array(CommandLine.arguments.dropFirst()), console: console, environment: environment, fileModes: fileModes)
}
exit(exitCode.rawValue)
