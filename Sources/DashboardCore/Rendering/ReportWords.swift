import Foundation

/// Words for buckets and dues, shared by every format.
package enum ReportWords {
    /// A bucket as a section title, in `lexicon`'s words.
    package static func title(_ bucket: Bucket, _ lexicon: Lexicon) -> String {
        switch bucket {
        case .overdue: return lexicon(.titleOverdue)
        case .today: return lexicon(.titleToday)
        case .upcoming: return lexicon(.titleUpcoming)
        case .undated: return lexicon(.titleUndated)
        case .completed: return lexicon(.titleCompleted)
        case .toGrade: return lexicon(.titleToGrade)
        case .excused: return lexicon(.titleExcused)
        }
    }

    /// A bucket as a task's status, in `lexicon`'s words.
    package static func word(_ bucket: Bucket, _ lexicon: Lexicon) -> String {
        switch bucket {
        case .overdue: return lexicon(.wordOverdue)
        case .today: return lexicon(.wordToday)
        case .upcoming: return lexicon(.wordUpcoming)
        case .undated: return lexicon(.wordUndated)
        case .completed: return lexicon(.wordCompleted)
        case .toGrade: return lexicon(.wordToGrade)
        case .excused: return lexicon(.wordExcused)
        }
    }

    /// "6 overdue", "1 Aufgabe überfällig": a bucket's count in `lexicon`'s words.
    package static func count(_ n: Int, _ bucket: Bucket, _ lexicon: Lexicon) -> String {
        switch bucket {
        case .overdue: return lexicon.count(.countOverdue, n)
        case .today: return lexicon.count(.countToday, n)
        case .upcoming: return lexicon.count(.countUpcoming, n)
        case .undated: return lexicon.count(.countUndated, n)
        case .completed: return lexicon.count(.countCompleted, n)
        case .toGrade: return lexicon.count(.countToGrade, n)
        case .excused: return lexicon.count(.countExcused, n)
        }
    }

    /// The priority column in `lexicon`'s words.
    package static func priority(_ task: ReportTask, _ lexicon: Lexicon) -> String {
        if task.task.invalid.contains(where: { $0.column == "priority" }) { return lexicon(.priorityInvalid) }
        switch task.task.priority {
        case .high: return lexicon(.priorityHigh)
        case .normal: return lexicon(.priorityNormal)
        case .low: return lexicon(.priorityLow)
        }
    }

    /// A bucket as a section title.
    package static func title(_ bucket: Bucket) -> String {
        switch bucket {
        case .overdue: return "Overdue"
        case .today: return "Due today"
        case .upcoming: return "Upcoming"
        case .undated: return "No due date"
        case .completed: return "Completed"
        case .toGrade: return "To grade"
        case .excused: return "Excused"
        }
    }

    /// A bucket as the status of a task ("due today").
    package static func word(_ bucket: Bucket) -> String {
        switch bucket {
        case .overdue: return "overdue"
        case .today: return "due today"
        case .upcoming: return "upcoming"
        case .undated: return "no due date"
        case .completed: return "completed"
        case .toGrade: return "to grade"
        case .excused: return "excused"
        }
    }

    /// A task's status in words (status is never shown by colour alone): the CSV `status`
    /// column. A list row says more (how late, the override's end and reason: `TaskRowWords`).
    package static func status(_ task: ReportTask) -> String {
        let word = word(task.bucket)
        let status = task.pinned ? word + " (set by hand)" : word
        // A stored value a hand edit made invalid is named, never shown as a valid one.
        return task.task.invalid.isEmpty ? status : ([status] + task.task.invalid.map(\.words)).joined(separator: "; ")
    }

    /// The priority column: the stored priority, or `invalid` (the status says which value).
    package static func priority(_ task: ReportTask) -> String {
        task.task.invalid.contains { $0.column == "priority" } ? "invalid" : task.task.priority.rawValue
    }

    /// The one-character mark of a bucket in text bars.
    package static func mark(_ bucket: Bucket) -> Character {
        switch bucket {
        case .overdue: return "!"
        case .today: return "*"
        case .upcoming: return "+"
        case .undated: return "?"
        case .completed: return "."
        case .toGrade: return "~"
        case .excused: return "/"
        }
    }

    /// The due as the course's teachers read it: `2026-11-29` for a date, `2026-11-29 14:00`
    /// (local time of the course) for a timed due; empty when undated.
    package static func due(_ due: String, zone: TimeZone) -> String {
        guard let parsed = DueDate(storageText: due) else { return "" }
        switch parsed {
        case .date(let d): return d.isoText
        case .local(let d, let h, let m, _): return d.isoText + " " + pad2(h) + ":" + pad2(m)
        case .instant(let seconds):
            let instant = Date(timeIntervalSince1970: TimeInterval(seconds))
            let local = seconds + Int64(zone.secondsFromGMT(for: instant))
            let day = CivilDate(daysSinceEpoch: Int(floorDiv(local, 86_400)))
            let rest = Int(local - Int64(day.daysSinceEpoch) * 86_400)
            return day.isoText + " " + pad2(rest / 3600) + ":" + pad2(rest / 60 % 60)
        }
    }

    /// The machine-readable form for `<time datetime>` and JSON: a date, or a date-time with
    /// the course's UTC offset (`2026-11-29T14:00:00+01:00`), or `Z` for instants.
    package static func isoDue(_ due: String, zone: TimeZone) -> String {
        guard let parsed = DueDate(storageText: due) else { return "" }
        let instant: Date
        switch parsed {
        case .date(let d): return d.isoText
        case .instant(let seconds): instant = Date(timeIntervalSince1970: TimeInterval(seconds))
        case .local(let d, let h, let m, let s): instant = LocalTime.instant(date: d, hour: h, minute: m, second: s, in: zone)
        }
        // The same instant written on the course's clock, so a spreadsheet shows the local date.
        let offset = zone.secondsFromGMT(for: instant)
        let local = Int64(instant.timeIntervalSince1970) + Int64(offset)
        let day = CivilDate(daysSinceEpoch: Int(floorDiv(local, 86_400)))
        let rest = Int(local - Int64(day.daysSinceEpoch) * 86_400)
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return day.isoText + "T" + pad2(rest / 3600) + ":" + pad2(rest / 60 % 60) + ":" + pad2(rest % 60) + sign + pad2(magnitude / 3600)
            + ":" + pad2(magnitude / 60 % 60)
    }

    /// `text` as a reader may see it: control, bidi and invisible characters of the data shown
    /// as visible escapes (`␛`, `<U+202E>`). The rule lives in `VisibleText`; this is its name
    /// in the report code.
    package static func visible(_ text: String) -> String {
        VisibleText.of(text)
    }

    /// A time zone's name as people know it (Foundation on Linux calls UTC "GMT").
    package static func zoneName(_ zone: TimeZone) -> String {
        zone.identifier == "GMT" ? "UTC" : zone.identifier
    }

    /// An instant for headers, in the reader's zone (`ReportQuery.displayTimeZone`, else UTC):
    /// `2026-11-29 08:00 UTC`, `2026-11-29 09:00 Europe/Berlin`.
    package static func asOf(_ date: Date, in zone: TimeZone? = nil) -> String {
        guard let zone, zoneName(zone) != "UTC" else {
            let text = Timestamp.text(date)
            return text.prefix(10) + " " + text.dropFirst(11).prefix(5) + " UTC"
        }
        let local = LocalAsOf(asOf: date, timeZone: zone)
        let seconds = Int((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down))
        let minutes = ((seconds % 86_400) + 86_400) % 86_400 / 60
        let hh = minutes / 60 < 10 ? "0\(minutes / 60)" : "\(minutes / 60)"
        let mm = minutes % 60 < 10 ? "0\(minutes % 60)" : "\(minutes % 60)"
        return "\(local.date.isoText) \(hh):\(mm) \(zoneName(zone))"
    }
}
