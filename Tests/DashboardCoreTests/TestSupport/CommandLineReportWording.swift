import DashboardCore

/// A copy of the executable's report wording (`ReportWording.commandLine` in
/// Sources/dashboard/Commands/ReportWording+CommandLine.swift), which this test target cannot
/// import: the unit tests read the report sentences as the command line words them. The
/// end-to-end tests and goldens hold the executable's own wording to the same bytes.
extension ReportWording {
    static let commandLineCopy = ReportWording(name: "command line (test copy)") { hint in
        switch hint {
        case .importFiles: return "`dashboard import imports/`"
        case .listCourses: return "`dashboard report grid`"
        case .includeCompleted: return "--include-completed"
        case .runImport: return "dashboard import"
        case .filter(let filter): return "--" + filter.rawValue
        case .page(let page): return "--page \(page)"
        case .showBatch(let id): return "dashboard batches show \(id)"
        case .narrowing(let query): return narrowing(query)
        case .grantCourses(let role): return "a grant of your courses (`dashboard access grant-teacher \(role) --teacher \"YOUR NAME\"`)"
        }
    }

    private static func narrowing(_ query: ReportQuery) -> String {
        func quoted(_ value: String) -> String {
            value.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "'" }) || value.isEmpty
                ? "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\"" : value
        }
        var parts: [String] = []
        let words = query.search.trimmingUnicodeWhitespace()
        if !words.isEmpty { parts.append("--search \(quoted(words))") }
        parts += query.courses.map { "--course \(quoted($0))" }
        parts += query.teachers.map { "--teacher \(quoted($0))" }
        parts += query.students.map { "--student \(quoted($0))" }
        parts += query.buckets.map { "--bucket \($0.rawValue)" }
        parts += query.priorities.map { "--priority \($0.rawValue)" }
        parts += query.due.within.map { "--due-within \($0)d" }
        parts += query.due.before.map { "--due-before \($0.isoText)" }
        parts += query.due.after.map { "--due-after \($0.isoText)" }
        return parts.joined(separator: " ")
    }
}
