import Foundation

/// An assignment that needs its teacher today, for the teacher's index (issue 29): one row of
/// a course's roll-up by assignment with a task overdue or due today.
///
/// Policy (docs/reports.md, "A teacher's index"): the items of every course of the folder, the
/// most overdue tasks first, then the most due today, then the earliest due, then the course
/// and the title; each links to its assignment on the course's page: its section on a big
/// course's page, else the list filtered to it (`#a=ID&b=overdue.today`, or its title's words
/// for an assignment without an id), which without script opens the list at its top, where
/// overdue tasks come first. At most `shown` are listed, then how many more.
package struct AttentionItem: Sendable, Equatable {
    package var course: CourseRecord
    package var row: AssignmentRow
    package var zone: TimeZone
    /// The page and fragment it links to.
    package var link: String

    package init(course: CourseRecord, row: AssignmentRow, zone: TimeZone, link: String) {
        self.course = course
        self.row = row
        self.zone = zone
        self.link = link
    }

    /// The most items a teacher's index lists.
    package static let shown = 30

    /// Whether a row needs its teacher today.
    package static func needs(_ row: AssignmentRow) -> Bool { row.counts[.overdue] > 0 || row.counts[.today] > 0 }

    /// The link of a row on a course page listed by bucket: the page's filters on it.
    package static func listLink(_ row: AssignmentRow, page: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        let filter = row.assignmentID.isEmpty ? "q=" + encode(row.title) : "a=" + encode(row.assignmentID)
        return page + "#" + filter + "&b=overdue.today"
    }

    /// `items` most urgent first.
    package static func ordered(_ items: [AttentionItem]) -> [AttentionItem] {
        let keyed = items.map { item in (item: item, due: ReportPipeline.dueInstant(item.row.firstDue, item.zone) ?? Int64.max) }
        return keyed.sorted { a, b in
            let (x, y) = (a.item.row.counts, b.item.row.counts)
            if x[.overdue] != y[.overdue] { return x[.overdue] > y[.overdue] }
            if x[.today] != y[.today] { return x[.today] > y[.today] }
            if a.due != b.due { return a.due < b.due }
            if a.item.course.code != b.item.course.code {
                return a.item.course.code.utf8.lexicographicallyPrecedes(b.item.course.code.utf8)
            }
            return a.item.row.title.utf8.lexicographicallyPrecedes(b.item.row.title.utf8)
        }.map(\.item)
    }

    /// "BIO 101: Essay".
    func name(_ lexicon: Lexicon) -> String { lexicon(.itemName, course.code, row.title) }

    /// "3 of 20 overdue (5 days late), 2 due today · due 2026-12-03": the roll-up's words for
    /// what needs attention, and the due.
    func words(_ lexicon: Lexicon) -> String {
        var needing = row
        for bucket in Bucket.allCases where bucket != .overdue && bucket != .today { needing.counts[bucket] = 0 }
        var text = RollUpWords.status(needing, lexicon)
        if let due = RollUpWords.due(row, zone: zone, lexicon) { text += lexicon(.statusSeparator) + lexicon(.dueOn, due) }
        return text
    }
}

extension HTMLRenderer {
    /// A teacher's "Needs you today", under the cards: nothing when no assignment needs them.
    static func attentionHTML(_ items: [AttentionItem], _ lexicon: Lexicon) -> String {
        guard !items.isEmpty else { return "" }
        var html = "<section class=\"needs-you\" aria-labelledby=\"needs-you\">\n<h2 id=\"needs-you\">\(escape(lexicon(.needsYou)))</h2>\n"
        html += "<p>\(escape(lexicon(.needsYouIntro)))</p>\n<ol>\n"
        for item in items.prefix(AttentionItem.shown) {
            html += "<li><a href=\"\(escape(item.link))\">\(value(item.name(lexicon)))</a> — \(escape(item.words(lexicon)))</li>\n"
        }
        html += "</ol>\n"
        if items.count > AttentionItem.shown {
            html += "<p>\(escape(lexicon.count(.needsYouMore, items.count - AttentionItem.shown)))</p>\n"
        }
        return html + "</section>\n"
    }
}
