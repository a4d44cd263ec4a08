import DashboardCore

/// A copy of the executable's audit wording (`AuditWording.commandLine` in
/// Sources/dashboard/Commands/Wording+CommandLine.swift), which this test target cannot import:
/// the unit tests read stored reasons as `dashboard audit` shows them. The end-to-end tests hold
/// the executable's own wording to the same bytes.
extension Wording where Hint == AuditHint {
    static let commandLineCopy = AuditWording(name: "command line (test copy)") { hint in
        switch hint {
        case .overrodeManual: return "--override-manual"
        case .importOverridingManual: return "import --override-manual"
        }
    }
}
