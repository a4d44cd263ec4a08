import Foundation

/// What a list row says about one task beyond its stored values, the same in every format
/// (text, Markdown, HTML, JSON, CSV): its id, how late it is, and the override that pins it.
/// Pure: a function of the task, its course's zone and the report's as-of.
///
/// Policy (docs/reports.md, "What a row says"):
/// - **How late**: only a task shown as overdue whose own due has passed (not a task an
///   override pins to overdue before its due, nor a completed one). Whole calendar days in the
///   course's zone between the due's local date and the as-of's local date, so a change of
///   daylight saving time between them changes nothing: "1 day late", "3 days late"; a timed
///   due that passed earlier on the as-of's own day is "late today" (0 days).
/// - **Handed in late** (SPEC §11): a submitted or completed task handed in after its due says
///   by how much, in whole calendar days between the local dates of the due and the hand-in in
///   the course's zone ("handed in 2 days late"), or "handed in late" on the due's own day.
/// - **Set by hand**: a pinned task says "set by hand until 2026-12-06: extension granted" (the
///   end in the course's zone: a date means through that day), "set by hand: reason" without
///   an end, or "set by hand" when the reader did not give the override.
package struct TaskRowWords: Sendable, Equatable {
    /// The task id, as stored (renderers escape it).
    package var taskID: String
    /// The bucket in words ("overdue", "due today", …).
    package var bucket: String
    /// Whole days late (0: late today), or nil when the row is not late.
    package var daysLate: Int?
    /// `daysLate` in words ("3 days late", "1 day late", "late today").
    package var late: String?
    /// The override in words, for a pinned task.
    package var override: String?
    /// A late hand-in in words ("handed in 2 days late"), for submitted or completed work.
    package var handedIn: String?
    /// The names of the stored values a hand edit made invalid ("invalid due \"x\"").
    package var invalid: [String]
    /// The words `status` and `fullStatus` join the parts with.
    package var lexicon: Lexicon

    /// - Parameter lexicon: the words (English in every format but a page in a language).
    package init(_ task: ReportTask, at local: LocalAsOf, lexicon: Lexicon = .english) {
        taskID = task.task.taskID
        bucket = ReportWords.word(task.bucket, lexicon)
        daysLate = Self.daysLate(task, at: local)
        late = daysLate.map { Self.lateWords($0, lexicon) }
        handedIn = Self.handedInDays(task.task, zone: local.timeZone).map {
            $0 == 0 ? lexicon(.handedInLateSameDay) : lexicon.count(.handedInDaysLate, $0)
        }
        override = task.pinned ? Self.overrideWords(task.override, zone: local.timeZone, lexicon: lexicon) : nil
        invalid = task.task.invalid.map(\.words)
        self.lexicon = lexicon
    }

    /// The status column of a text table, kept short so that titles keep their room: how late
    /// for a late row ("3 days late": the section's heading says Overdue), else the bucket;
    /// "(set by hand)" for a pinned task ("overdue (set by hand), 3 days late"); then the
    /// invalid values. The override's end and reason go on a line of their own (`override`).
    package var status: String {
        var text = override == nil ? bucket : lexicon(.pinned, bucket)
        if let late { text = override == nil ? late : lexicon(.lateAndAgo, text, late) }
        if let handedIn { text = lexicon(.lateAndAgo, text, handedIn) }
        return ([text] + invalid).joined(separator: lexicon(.clauseSeparator))
    }

    /// The whole status in one cell: the override's words in place of "(set by hand)":
    /// "upcoming (set by hand until 2026-12-06: extension granted)".
    package var fullStatus: String {
        var text = override.map { lexicon(.withLate, bucket, $0) } ?? bucket
        if let late { text = lexicon(.lateAndAgo, text, late) }
        if let handedIn { text = lexicon(.lateAndAgo, text, handedIn) }
        return ([text] + invalid).joined(separator: lexicon(.clauseSeparator))
    }

    /// What follows the bucket's word in a cell that shows the bucket on its own (the HTML
    /// badge): how late, the override, the invalid values.
    package var details: [String] {
        [late, handedIn, override].compactMap { $0 } + invalid
    }

    /// Whole days late, or nil (see the type's policy).
    package static func daysLate(_ task: ReportTask, at local: LocalAsOf) -> Int? {
        guard task.bucket == .overdue, !task.task.completed, !task.task.due.isEmpty,
            let due = DueDate(storageText: task.task.due),
            BucketPolicy.computed(due: due, state: .open, at: local) == .overdue
        else { return nil }
        let day = due.localDay(in: local.timeZone)
        return max(0, local.date.daysSinceEpoch - day.daysSinceEpoch)
    }

    /// Whole days between the local dates of a late hand-in and its due (0: the due's own
    /// day), or nil when the task was not handed in late (`ReportPipeline.handedInLate`).
    package static func handedInDays(_ task: TaskRecord, zone: TimeZone) -> Int? {
        guard ReportPipeline.handedInLate(task, zone: zone), let submitted = DueDate(storageText: task.submittedAt),
            let due = DueDate(storageText: task.due)
        else { return nil }
        return max(0, Lateness.localDate(submitted, zone).daysSinceEpoch - Lateness.localDate(due, zone).daysSinceEpoch)
    }

    /// "late today", "1 day late", "N days late"; from two months on, how long ago that was in
    /// whole months or years too ("4425 days late, due 12 years ago"), so that a due from a
    /// term long past reads as such (issue 29).
    package static func lateWords(_ days: Int, _ lexicon: Lexicon = .english) -> String {
        switch days {
        case 0: return lexicon(.lateToday)
        case ..<60: return lexicon.count(.daysLate, days)
        case ..<365: return lexicon(.lateAndAgo, lexicon.count(.daysLate, days), lexicon.count(.monthsAgo, days / 30))
        default: return lexicon(.lateAndAgo, lexicon.count(.daysLate, days), lexicon.count(.yearsAgo, days / 365))
        }
    }

    /// "set by hand until END: REASON", without the end when there is none (or it cannot be
    /// read: such an override never ends), without the reason when it is empty.
    package static func overrideWords(_ override: StoredOverride?, zone: TimeZone, lexicon: Lexicon = .english) -> String {
        guard let override else { return lexicon(.setByHand) }
        var words = until(override, zone: zone, lexicon: lexicon).map { lexicon(.setByHandUntil, $0) } ?? lexicon(.setByHand)
        let reason = override.reason.trimmingCharacters(in: .whitespacesAndNewlines)
        if !reason.isEmpty { words = lexicon(.withReason, words, reason) }
        return words
    }

    /// The override's end as the course's teachers read it (`2026-12-06`, `2026-12-06 14:00`),
    /// or nil when it has none or it cannot be read.
    package static func until(_ override: StoredOverride, zone: TimeZone, lexicon: Lexicon = .english) -> String? {
        let text = lexicon.due(override.until, zone: zone)
        return text.isEmpty ? nil : text
    }

    /// The HTML anchor of a task's row (`id="task-…"`, so `page.html#task-…` opens at it):
    /// `task-` then the id's UTF-8 bytes, ASCII letters, digits, `-` and `.` as they are and
    /// every other byte as `_` and two upper-case hex digits (`a b` → `task-a_20b`, `x#y` →
    /// `task-x_23y`, `ü` → `task-_C3_BC`, `_` → `task-_5F`). The result has no space and
    /// needs no escaping in an attribute or a URL fragment; two ids never share an anchor.
    package static func anchor(_ taskID: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes = Array("task-".utf8)
        for byte in taskID.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "_"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A section's heading in words, the same in every format.
extension ReportWords {
    /// "Due today (3)" when every task of the section is shown; "Due today (3) — showing 1–2
    /// of 3" (or "showing 3 of 3" for one task) when the page shows part of it.
    package static func sectionHeading(_ section: BucketSection, _ lexicon: Lexicon = .english) -> String {
        let head = lexicon(.withLate, title(section.bucket, lexicon), String(section.total))
        return showing(section, lexicon).map { lexicon(.withShowing, head, $0) } ?? head
    }

    /// "showing 1–2 of 3", or nil when the whole section is shown.
    package static func showing(_ section: BucketSection, _ lexicon: Lexicon = .english) -> String? {
        guard !section.isWhole else { return nil }
        return showing(first: section.first, last: section.last, of: section.total, lexicon)
    }

    /// "showing 1–2 of 5" ("showing 3 of 3" for one place): the part of `total` a page shows.
    package static func showing(first: Int, last: Int, of total: Int, _ lexicon: Lexicon) -> String {
        lexicon(.showingPlaces, first == last ? "\(first)" : "\(first)–\(last)", String(total))
    }
}
