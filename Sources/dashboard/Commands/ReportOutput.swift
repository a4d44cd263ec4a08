import DashboardCore
import Foundation

/// `dashboard report` to stdout, streamed (docs/reports.md, "Memory"): a grid tallies one
/// course at a time and reads its cards back from the store; a list page is paged in the store and reads only its tasks; a whole list is written
/// course by course as each is read.
enum ReportOutput {
    /// Writes the report to stdout.
    /// - Returns: the report's frame (its state and banner).
    @discardableResult
    static func write(
        _ kind: Report.Kind, reader: any ReportReading, facts: ReportFacts, query: ReportQuery, format: ReportFormat, width: Int,
        asOf: Date,
        defaultTimeZone: TimeZone, console: Console
    ) throws -> Report {
        // Colour only for text on a terminal that wants it (`Console.stdoutColour`).
        let style = console.stdoutColour ? TextStyle.terminal : .plain
        switch kind {
        case .grid:
            return try ReportCourseStream.grid(reader, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone) {
                try ReportGridStream.write($0, format: format, width: width, style: style) { console.out($0) }
            }
        case .list where query.groupBy == .assignment && query.limit != nil:
            let report = try ReportRollUpStream.assignmentPage(
                reader, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
            console.out(format.render(report, width: width, style: style))
            return report
        case .list where query.groupBy == .student && query.limit != nil:
            let report = try ReportRollUpStream.studentPage(
                reader, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
            console.out(format.render(report, width: width, style: style))
            return report
        case .list where query.groupBy == .student:
            return try ReportListStream.writeStudents(
                reader, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone, format: format, width: width,
                style: style, emit: { console.out($0) })
        case .list where query.limit != nil:
            let report = try ReportStream.listPage(reader, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
            console.out(format.render(report, width: width, style: style))
            return report
        case .list:
            return try ReportListStream.write(
                reader, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone, format: format, width: width,
                style: style, emit: { console.out($0) })
        }
    }
}
