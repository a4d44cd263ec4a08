import DashboardCore

/// The command line's words for the library's hints: the library names the place
/// (`ImportHint`, `ContractHint`, `AuditHint`, `MetricHint`), and only the executable names
/// flags and commands. The words are those the library held before issue 32, so the outputs
/// (stderr, JSON, JUnit XML, the stored reasons of batches, `dashboard schema`, the audit
/// log, the metrics) are the same bytes. `ReportWording.commandLine` is the reports' own.
extension Wording where Hint == ImportHint {
    /// Given to every import and check (`ImportInputs.options`) and to their JUnit reports.
    static let commandLine = ImportWording(name: "command line") { hint in
        switch hint {
        case .reviewHeld(let id):
            return
                "Review it with `dashboard batches show \(id)`, then `dashboard batches approve \(id)` or `dashboard batches discard \(id)`"
        case .approveHeld(let id): return "dashboard batches approve \(id.map(String.init) ?? "ID")"
        case .deleteLimit(let limit): return "--max-delete \(limit)"
        case .raiseDeleteLimit: return "a higher --max-delete"
        case .strict: return "--strict"
        case .chooseDateOrder: return "pass --date-order mdy or --date-order dmy"
        case .chooseEncoding: return "pass --encoding windows-1252 (or latin1)"
        }
    }
}

extension Wording where Hint == ContractHint {
    /// `dashboard schema`'s.
    static let commandLine = ContractWording(name: "command line") { hint in
        switch hint {
        case .readingCommands: return "`dashboard import` and `dashboard check`"
        case .schemaCommand: return "`dashboard schema`"
        case .schemaForDelimiter: return "`dashboard schema --delimiter`"
        case .delimiterOption: return "--delimiter"
        case .dateOrder(let order?): return "--date-order \(order.rawValue)"
        case .dateOrder(nil): return "--date-order mdy or dmy"
        case .schemaForDateOrder: return "`dashboard schema --date-order`"
        case .teacherFilter: return "report --teacher"
        case .digest: return "nightly --digest"
        case .groupByAssignment: return "report list --group-by assignment"
        }
    }
}

extension Wording where Hint == AuditHint {
    /// `dashboard audit`'s, for reasons stored in either wording (`AuditEntry.worded`).
    static let commandLine = AuditWording(name: "command line") { hint in
        switch hint {
        case .overrodeManual: return "--override-manual"
        case .importOverridingManual: return "import --override-manual"
        }
    }
}

extension Wording where Hint == MetricHint {
    /// `nightly --metrics` and `status --format prometheus`.
    static let commandLine = MetricWording(name: "command line") { hint in
        switch hint {
        case .asOf: return "its --as-of"
        case .digestRun: return "nightly --digest"
        case .send: return "with --send"
        }
    }
}
