import Foundation

/// The words of "what changed overnight" (`Overnight`), the same in every format. Pure.
///
/// Policy: the window is named by the day it opened, in the report's display zone: "since
/// yesterday" (the day before the as-of), "since today" (the same day), else "since
/// 2026-11-27"; a count is named only when it is not 0 ("3 new, 2 now overdue, 5 completed,
/// 1 pinned by hand, 1 unpinned by hand, 2 deleted"), "no change" when all are.
package enum OvernightWords {
    /// "since yesterday", "since today", "since 2026-11-27".
    package static func since(_ overnight: Overnight, asOf: Date, zone: TimeZone?) -> String {
        guard let since = overnight.since else { return "since the first import" }
        let zone = zone ?? TimeZone(identifier: "UTC") ?? .current
        let opened = LocalAsOf(asOf: since, timeZone: zone).date
        let today = LocalAsOf(asOf: asOf, timeZone: zone).date
        switch today.daysSinceEpoch - opened.daysSinceEpoch {
        case 0: return "since today"
        case 1: return "since yesterday"
        default: return "since " + opened.isoText
        }
    }

    /// "3 new, 2 now overdue, 5 completed", or "no change".
    package static func counts(_ changes: CourseChanges) -> String {
        let parts: [(Int, String)] = [
            (changes.new, "new"), (changes.nowOverdue, "now overdue"), (changes.completed, "completed"),
            (changes.pinned, "pinned by hand"), (changes.unpinned, "unpinned by hand"), (changes.deleted, "deleted"),
        ]
        let named = parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return named.isEmpty ? "no change" : named.joined(separator: ", ")
    }

    /// A card's or a course's line: "since yesterday: 3 new, 2 now overdue".
    package static func line(_ changes: CourseChanges, _ overnight: Overnight, asOf: Date, zone: TimeZone?) -> String {
        since(overnight, asOf: asOf, zone: zone) + ": " + counts(changes)
    }

    /// Why the window holds no import's changes, when it does not: "the newest import failed:
    /// nothing was imported since", "… is held for approval: its changes are not shown yet",
    /// "no export arrived: nothing was imported since"; nil otherwise. Teachers read these
    /// words, so they name no batch (JSON's `changes.batch` does, for machines).
    package static func caveat(_ overnight: Overnight) -> String? {
        switch overnight.state {
        case .changes, .firstImport: return nil
        case .importFailed: return "the newest import failed: nothing was imported since"
        case .importHeld: return "the newest import is held for approval: its changes are not shown yet"
        case .noExport: return "no export arrived: nothing was imported since"
        }
    }

    /// A list's line for a course: "Since yesterday: 3 new, 2 now overdue.", nil when it has no
    /// change (or the report no window).
    package static func course(_ courseID: String, _ report: Report) -> String? {
        guard let overnight = report.overnight, let changes = overnight.cardChanges(courseID), !changes.isEmpty else { return nil }
        let text = line(changes, overnight, asOf: report.asOf, zone: report.query.displayTimeZone)
        return text.prefix(1).uppercased() + text.dropFirst() + "."
    }

    /// The grid's line over its cards (`GridTotals.changes`), nil in a list (its courses have
    /// their own lines), when the report has no window or a first import's (a grid after one
    /// import reads as before: nothing to compare).
    package static func headline(_ report: Report) -> String? {
        guard report.kind == .grid, let overnight = report.overnight, overnight.state != .firstImport, report.state == .ok else {
            return nil
        }
        return headline(
            overnight, total: report.gridTotals.changes ?? CourseChanges(), asOf: report.asOf, zone: report.query.displayTimeZone)
    }

    /// The report's line: "Since yesterday: 12 new, 5 now overdue." (over the courses the report
    /// shows), with its caveat; "First import: nothing to compare with yet." for a first import.
    package static func headline(_ overnight: Overnight, total: CourseChanges, asOf: Date, zone: TimeZone?) -> String {
        guard overnight.state != .firstImport else { return "First import: nothing to compare with yet." }
        var text = line(total, overnight, asOf: asOf, zone: zone)
        text = text.prefix(1).uppercased() + text.dropFirst()
        if let caveat = caveat(overnight) { text += " (" + caveat + ")" }
        return text + "."
    }
}
