import Foundation

/// The words of "what changed overnight" (`Overnight`), the same in every format. Pure.
///
/// Policy: the window is named by the day it opened, in the report's display zone: "since
/// yesterday" (the day before the as-of), "since today" (the same day), else "since
/// 2026-11-27"; a count is named only when it is not 0 ("3 new, 2 now overdue, 4 handed in,
/// 5 completed, 1 excused, 1 pinned by hand, 1 unpinned by hand, 2 deleted"), "no change" when
/// all are.
package enum OvernightWords {
    /// The day the window opened, as its words name it.
    package enum Since: Sendable, Equatable {
        case firstImport, today, yesterday
        case day(CivilDate)
    }

    /// When the window opened, seen from `asOf` in `zone` (UTC when nil).
    package static func opened(_ overnight: Overnight, asOf: Date, zone: TimeZone?) -> Since {
        guard let since = overnight.since else { return .firstImport }
        let zone = zone ?? TimeZone(identifier: "UTC") ?? .current
        let opened = LocalAsOf(asOf: since, timeZone: zone).date
        let today = LocalAsOf(asOf: asOf, timeZone: zone).date
        switch today.daysSinceEpoch - opened.daysSinceEpoch {
        case 0: return .today
        case 1: return .yesterday
        default: return .day(opened)
        }
    }

    /// "since yesterday", "since today", "since 2026-11-27".
    package static func since(_ overnight: Overnight, asOf: Date, zone: TimeZone?) -> String {
        since(opened(overnight, asOf: asOf, zone: zone), .english)
    }

    /// `since` in `lexicon`'s words ("seit gestern", "depuis le 27 nov. 2026").
    package static func since(_ since: Since, _ lexicon: Lexicon) -> String {
        switch since {
        case .firstImport: return lexicon(.sinceFirst)
        case .today: return lexicon(.sinceToday)
        case .yesterday: return lexicon(.sinceYesterday)
        case .day(let day): return lexicon(.sinceDate, lexicon.day(day))
        }
    }

    /// "3 new, 2 now overdue, 5 completed", or "no change".
    package static func counts(_ changes: CourseChanges, _ lexicon: Lexicon = .english) -> String {
        let parts: [(Int, Phrase)] = [
            (changes.new, .changeNew), (changes.nowOverdue, .changeNowOverdue), (changes.handedIn, .changeHandedIn),
            (changes.completed, .changeCompleted), (changes.excused, .changeExcused), (changes.pinned, .changePinned),
            (changes.unpinned, .changeUnpinned), (changes.deleted, .changeDeleted),
        ]
        let named = parts.filter { $0.0 > 0 }.map { lexicon.count($0.1, $0.0) }
        return named.isEmpty ? lexicon(.noChange) : lexicon.list(named)
    }

    /// A card's or a course's line: "since yesterday: 3 new, 2 now overdue".
    package static func line(_ changes: CourseChanges, _ overnight: Overnight, asOf: Date, zone: TimeZone?) -> String {
        line(changes, since: opened(overnight, asOf: asOf, zone: zone), .english)
    }

    /// A line in `lexicon`'s words.
    package static func line(_ changes: CourseChanges, since: Since, _ lexicon: Lexicon) -> String {
        lexicon(.changesLine, Self.since(since, lexicon), counts(changes, lexicon))
    }

    /// Why the window holds no import's changes, when it does not: "the newest import failed:
    /// nothing was imported since", "… is held for approval: its changes are not shown yet",
    /// "no export arrived: nothing was imported since"; nil otherwise. Teachers read these
    /// words, so they name no batch (JSON's `changes.batch` does, for machines).
    package static func caveat(_ overnight: Overnight, _ lexicon: Lexicon = .english) -> String? {
        switch overnight.state {
        case .changes, .firstImport: return nil
        case .importFailed: return lexicon(.caveatFailed)
        case .importHeld: return lexicon(.caveatHeld)
        case .noExport: return lexicon(.caveatNoExport)
        }
    }

    /// A list's line for a course: "Since yesterday: 3 new, 2 now overdue.", nil when it has no
    /// change (or the report no window).
    package static func course(_ courseID: String, _ report: Report) -> String? {
        guard let overnight = report.overnight, let changes = overnight.cardChanges(courseID), !changes.isEmpty else { return nil }
        let lexicon = report.query.lexicon
        let text = line(changes, since: opened(overnight, asOf: report.asOf, zone: report.query.displayTimeZone), lexicon)
        return lexicon(.sentence, text.prefix(1).uppercased() + text.dropFirst())
    }

    /// A card's line in the report's words (`CourseCard.changesWords` is English's).
    package static func card(_ card: CourseCard, _ report: Report) -> String? {
        guard report.query.lexicon != .english else { return card.changesWords }
        guard let overnight = report.overnight, let changes = card.changes, !changes.isEmpty else { return card.changesWords }
        return line(changes, since: opened(overnight, asOf: report.asOf, zone: report.query.displayTimeZone), report.query.lexicon)
    }

    /// The grid's line over its cards (`GridTotals.changes`), nil in a list (its courses have
    /// their own lines), when the report has no window or a first import's (a grid after one
    /// import reads as before: nothing to compare).
    package static func headline(_ report: Report) -> String? {
        guard report.kind == .grid, let overnight = report.overnight, overnight.state != .firstImport, report.state == .ok else {
            return nil
        }
        return headline(
            overnight, total: report.gridTotals.changes ?? CourseChanges(), asOf: report.asOf, zone: report.query.displayTimeZone,
            report.query.lexicon)
    }

    /// The report's line: "Since yesterday: 12 new, 5 now overdue." (over the courses the report
    /// shows), with its caveat; "First import: nothing to compare with yet." for a first import.
    package static func headline(
        _ overnight: Overnight, total: CourseChanges, asOf: Date, zone: TimeZone?, _ lexicon: Lexicon = .english
    ) -> String {
        guard overnight.state != .firstImport else { return lexicon(.firstImport) }
        var text = line(total, since: opened(overnight, asOf: asOf, zone: zone), lexicon)
        text = text.prefix(1).uppercased() + text.dropFirst()
        if let caveat = caveat(overnight, lexicon) { text = lexicon(.withLate, text, caveat) }
        return lexicon(.sentence, text)
    }
}
