import Foundation

/// Terminal display width: what a monospaced terminal shows, not bytes or characters.
///
/// Combining marks and zero-width characters take no column; East Asian wide and full-width
/// characters and emoji take two; everything else one.
package enum DisplayWidth {
    /// The columns `text` takes. An SGR sequence (`ESC [ … m`, a colour of `TextStyle`) takes
    /// none: only the renderers put a raw ESC in a line (the data's are shown as `␛` by
    /// `VisibleText` before anything is measured).
    package static func of(_ text: String) -> Int {
        // ASCII without an ESC: a column a byte (most of a report's lines; the property lookups
        // below were a sixth of a 20,000-course grid's time).
        if let columns = text.utf8.withContiguousStorageIfAvailable({ bytes -> Int? in
            for byte in bytes where byte >= 0x80 || byte == 0x1B || byte == 0 { return nil }
            return bytes.count
        }), let columns {
            return columns
        }
        var total = 0
        var inSequence = false
        for scalar in text.unicodeScalars {
            if inSequence {
                if scalar == "m" { inSequence = false }
                continue
            }
            if scalar == "\u{1B}" {
                inSequence = true
                continue
            }
            total += width(scalar)
        }
        return total
    }

    package static func width(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v == 0 { return 0 }
        // ASCII: one column (no mark, format character or emoji among it: `DisplayWidthTests`).
        if v < 0x80 { return 1 }
        return propertyWidth(scalar)
    }

    /// `width` from the scalar's Unicode properties and the wide ranges.
    static func propertyWidth(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v == 0 { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v == 0x200B || (0xFE00...0xFE0F).contains(v) { return 0 }
        if (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v)
            || (0x1F900...0x1F9FF).contains(v) || (0x20000...0x3FFFD).contains(v)
            // Every other emoji shown as emoji by default (🚀, 🫠, ⚡, ✅), but not the regional
            // indicators that pair into flags.
            || (scalar.properties.isEmojiPresentation && !(0x1F1E6...0x1F1FF).contains(v))
        {
            return 2
        }
        return 1
    }

    /// Lays `parts` out on lines of at most `width` columns, `separator` between parts on a
    /// line, breaking only between parts (a part wider than a line is wrapped on its own).
    package static func flow(_ parts: [String], separator: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for part in parts {
            let candidate = current.isEmpty ? part : current + separator + part
            if of(candidate) <= width {
                current = candidate
                continue
            }
            if !current.isEmpty { lines.append(current) }
            if of(part) <= width {
                current = part
            } else {
                let pieces = wrap(part, to: width)
                lines += pieces.dropLast()
                current = pieces.last ?? ""
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `flow`, with the lines as even as they can be on the fewest lines: the narrowest width
    /// that needs no more lines than `width` does ("a  b  c" and "d  e", not "a  b  c  d" and
    /// a lone "e").
    package static func balancedFlow(_ parts: [String], separator: String, width: Int) -> [String] {
        let lines = flow(parts, separator: separator, width: width)
        guard lines.count > 1 else { return lines }
        let widest = parts.map(of).max() ?? 0
        var narrowest = width
        while narrowest > widest, flow(parts, separator: separator, width: narrowest - 1).count == lines.count { narrowest -= 1 }
        return flow(parts, separator: separator, width: narrowest)
    }

    /// `text` cut to at most `width` columns, ending in `…` when something was cut.
    package static func truncate(_ text: String, to width: Int) -> String {
        if of(text) <= width { return text }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let w = of(String(character))
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// `text` padded with spaces to `width` columns (never cut).
    package static func pad(_ text: String, to width: Int) -> String {
        let w = of(text)
        return w >= width ? text : text + String(repeating: " ", count: width - w)
    }

    /// Breaks `text` into lines of at most `width` columns without cutting anything: words
    /// move to the next line, and a word longer than a line is split. A line may break at a
    /// space (which the break removes) or after the ideographic comma, full stop, colon or
    /// semicolon of Japanese text (which stays at the end of its line), never inside a
    /// no-break space: "期限切れ 10 件、今日が期限 6 件" breaks after "、".
    package static func wrap(_ text: String, to width: Int) -> [String] {
        let limit = max(1, width)
        if of(text) <= limit { return [text] }
        var lines: [String] = []
        var line = ""
        for (joiner, word) in words(of: text) {
            var word = word
            let candidate = line.isEmpty ? word : line + joiner + word
            if of(candidate) <= limit {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            while of(word) > limit {
                var head = ""
                var rest = Substring(word)
                while let c = rest.first, of(head + String(c)) <= limit {
                    head.append(c)
                    rest = rest.dropFirst()
                }
                if head.isEmpty, let c = rest.first {
                    head = String(c)
                    rest = rest.dropFirst()
                }
                lines.append(head)
                word = String(rest)
            }
            line = word
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// The characters after which Japanese text may break without a space.
    static let breaksAfter: Set<Character> = ["、", "。", "：", "；", "，", "）"]

    /// The words of `text` between its break opportunities, each with what joins it to the
    /// word before on one line: a space, or nothing after an ideographic mark.
    static func words(of text: String) -> [(joiner: String, word: String)] {
        var result: [(joiner: String, word: String)] = []
        for (index, spaced) in text.split(separator: " ", omittingEmptySubsequences: true).enumerated() {
            var joiner = index == 0 ? "" : " "
            var word = ""
            for character in spaced {
                word.append(character)
                if breaksAfter.contains(character) {
                    result.append((joiner, word))
                    joiner = ""
                    word = ""
                }
            }
            if !word.isEmpty { result.append((joiner, word)) }
        }
        return result
    }
}

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
