import Foundation

/// The output formats of `dashboard report`.
package enum ReportFormat: String, Sendable, CaseIterable {
    case text, markdown, html, json, csv

    /// The names `--format` takes: every format's own, and `md` for Markdown.
    package static let names = allCases.map(\.rawValue) + ["md"]

    /// The format a `--format` name stands for (`md` is Markdown), nil for none.
    package static func named(_ name: String) -> ReportFormat? {
        name == "md" ? .markdown : ReportFormat(rawValue: name)
    }

    /// The file extension used with `--out`.
    package var fileExtension: String {
        switch self {
        case .text: return "txt"
        case .markdown: return "md"
        case .html: return "html"
        case .json: return "json"
        case .csv: return "csv"
        }
    }

    /// Renders one report in this format; `link` names course pages for the HTML and Markdown
    /// grids; `style` colours text (other formats have none).
    package func render(
        _ report: Report, width: Int, link: (CourseRecord) -> String? = { _ in nil }, indexLink: String? = nil, style: TextStyle = .plain
    ) -> String {
        let report = report.worded(for: self)
        switch self {
        case .text: return TextRenderer.render(report, width: width, style: style)
        case .markdown: return MarkdownRenderer.render(report, link: link, indexLink: indexLink)
        case .json: return JSONReportRenderer.render(report)
        case .csv: return CSVReportRenderer.render(report)
        case .html:
            switch report.kind {
            case .grid: return HTMLRenderer.gridPage(report, link: link)
            case .list:
                let title =
                    report.groups.count == 1
                    ? (report.groups.first.map { report.query.lexicon(.courseTitle, $0.course.code, $0.course.title) }
                        ?? RollUpWords.reportName(report))
                    : RollUpWords.reportName(report)
                return HTMLRenderer.listPage(report, title: title, indexLink: indexLink)
            }
        }
    }
}

/// Writes a whole set of reports into a folder: `index.<ext>` (the grid) and one list file per
/// course, linked from the index in HTML. Nothing is ever written outside the folder.
package enum ReportSet {
    /// - Returns: the names written, index first.
    /// - Throws: `ReportWriteError`.
    @discardableResult
    package static func write(
        grid: Report, list: Report, format: ReportFormat, width: Int, to directory: String, fileSystem: ReportFileSystem
    )
        throws -> [String]
    {
        try fileSystem.ensureDirectory(directory)
        let ext = format.fileExtension
        let index = ReportFileNames.index(ext)
        var written: [String] = []
        // Course files first, so the index never links to a page that is not there yet.
        for group in list.groups {
            var single = list
            single.groups = [group]
            single.listsStates = group.listsStates
            single.page = PageInfo(
                page: 1, pageCount: 1, limit: nil, totalItems: group.taskCount, firstItem: group.taskCount == 0 ? 0 : 1,
                lastItem: group.taskCount)
            let name = ReportFileNames.course(group.course.courseID, ext: ext)
            try fileSystem.write(format.render(single, width: width, indexLink: index), name: name, in: directory)
            written.append(name)
        }
        let listed = Set(list.groups.map(\.course.courseID))
        try fileSystem.write(
            format.render(grid, width: width, link: { listed.contains($0.courseID) ? ReportFileNames.course($0.courseID, ext: ext) : nil }),
            name: index, in: directory)
        return [index] + written
    }
}

extension Report {
    /// The report as `format` words it: the pages people read (text, Markdown, HTML) in the
    /// query's lexicon (issue 29), the machines' formats (JSON, CSV) in English whatever it is.
    package func worded(for format: ReportFormat) -> Report {
        guard format == .json || format == .csv, query.lexicon != .english else { return self }
        var report = self
        report.query.lexicon = .english
        return report
    }
}
