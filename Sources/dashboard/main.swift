import DashboardCore
import Foundation

/// The version printed by `dashboard --version`.
let dashboardVersion = "0.1.0"

signal(SIGPIPE, SIG_IGN)
let console = Console()
let environment = ProcessInfo.processInfo.environment
let exitCode = TraceSettings.run(environment: environment, console: console) {
    Dashboard.main(Array(CommandLine.arguments.dropFirst()), console: console, environment: environment)
}
exit(exitCode.rawValue)
