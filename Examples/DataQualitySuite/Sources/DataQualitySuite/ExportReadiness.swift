import DashboardCore
import Foundation

/// Whether a school's export is ready to reach the school: the dashboard's own checks (every
/// row the importer would accept) and the district's rules on top of them, on a database of
/// its own that nothing else sees.
public struct ExportReadiness {
    /// A rule the export breaks, with where.
    public struct Finding: Equatable, Sendable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var rule: String
        public var description: String { "\(file):\(line): \(rule)" }
    }

    /// Every problem the dashboard found (rejected rows and warnings), in file order.
    public var problems: [Finding] = []
    /// The district's findings on the imported data.
    public var findings: [Finding] = []
    /// The grid as the teachers would see it as of the check's instant.
    public var grid: Report

    /// True when the export may go out: no rejected row and no finding (warnings allowed).
    public var isReady: Bool { findings.isEmpty && problems.allSatisfy { $0.rule.hasPrefix("warning") } }

    /// Checks the export's `files` as of `asOf`: the dashboard's check, then an import into a
    /// temporary database, the time pass and the grid, and the district's rules: every course
    /// names its teacher, and no course has more than `overdueShare` of its open tasks overdue.
    public static func check(_ files: [InputFile], asOf: Date, overdueShare: Double = 0.5) throws -> ExportReadiness {
        let database = try DashboardDatabase.temporary()
        var options = ImportOptions()
        options.asOf = asOf
        let checked = try database.check(files, options: options)
        var problems: [Finding] = []
        try checked.forEachProblem { problem in
            let severity = problem.severity == .error ? "error" : "warning"
            problems.append(Finding(file: problem.file, line: problem.line, rule: "\(severity) \(problem.code.rawValue)"))
        }
        _ = try database.importFiles(files, options: options)
        _ = try database.categorize(asOf: asOf)
        let grid = try database.report(.grid, asOf: asOf)
        var findings: [Finding] = []
        for card in grid.cards {
            if card.course.teacher.isEmpty {
                findings.append(Finding(file: "courses", line: 0, rule: "course \(card.course.courseID) names no teacher"))
            }
            let overdue = card.counts[.overdue]
            let open = card.counts.total - card.counts[.completed]
            if open > 0, Double(overdue) / Double(open) > overdueShare {
                findings.append(
                    Finding(file: "tasks", line: 0, rule: "course \(card.course.courseID): \(overdue) of \(open) open tasks overdue"))
            }
        }
        return ExportReadiness(problems: problems, findings: findings, grid: grid)
    }
}
