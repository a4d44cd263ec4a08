import Foundation

/// The words of the reports in one language (issue 29): every phrase a teacher's page writes,
/// from one table per language (`Lexicon+English.swift`, `+German`, `+French`, `+Spanish`,
/// `+Japanese`), counted phrases in the forms of CLDR's plural rules for that language
/// (`PluralRules`: "1 Aufgabe überfällig", "3 Aufgaben überfällig"), and dates and times in the
/// locale's own format through Foundation's locale data.
///
/// Policy (docs/reports.md, "The teacher's language"):
/// - a phrase is a template: `{0}`, `{1}`, … are the values given, `{n}` the count of a counted
///   phrase; every language's table holds every phrase, with the same placeholders, and a
///   counted phrase has a form for each plural category of its language and no other
///   (`LexiconTests` fails on a missing or extra one);
/// - English keeps the reports' dates as they always were (`2026-12-04 08:00 UTC`,
///   `2026-11-27 08:00`): its output is byte for byte the same as before languages; the other
///   languages write them as their locale does (`4. Dez. 2026, 08:00 UTC`, `2026年12月4日 8:00
///   UTC`), the locale being the tag as given (`de-AT`, `es-419`);
/// - machine formats (JSON, CSV, JUnit, metrics) never take a lexicon: their words are English
///   whatever the course says.
package struct Lexicon: Sendable, Equatable {
    /// The tag the language was named by (`de-AT`): the locale of dates.
    package let tag: LanguageTag
    package let language: ReportLanguage

    /// The lexicon of `tag`, English when the reports are not written in its language.
    package init(_ tag: LanguageTag) {
        if let language = ReportLanguage(tag) {
            self.tag = tag
            self.language = language
        } else {
            self.tag = .english
            self.language = .en
        }
    }

    package static let english = Lexicon(.english)

    /// The language of the page's `lang` attribute: the tag (`de-AT`).
    package var htmlLanguage: String { tag.description }

    /// A phrase with its values.
    package func callAsFunction(_ phrase: Phrase, _ values: String...) -> String {
        fill(Self.form(phrase, language, count: nil), values: values, count: nil)
    }

    /// A counted phrase for `n`, with its other values.
    package func count(_ phrase: Phrase, _ n: Int, _ values: String...) -> String {
        fill(Self.form(phrase, language, count: n), values: values, count: n)
    }

    /// A phrase around values that are markup already (HTML): the phrase's own text goes
    /// through `escape`, the values as they are.
    /// - Parameter count: the count of a counted phrase.
    package func markup(_ phrase: Phrase, count: Int? = nil, _ values: String..., escape: (String) -> String) -> String {
        let marker = "\u{1}"
        let template = Self.form(phrase, language, count: count)
        let filled = fill(template, values: values.indices.map { marker + String($0) + marker }, count: count)
        var out = ""
        for (index, piece) in filled.components(separatedBy: marker).enumerated() {
            if index % 2 == 1, let value = Int(piece), values.indices.contains(value) {
                out += values[value]
            } else {
                out += escape(piece)
            }
        }
        return out
    }

    /// Items joined as the language lists them (", " in English, "、" in Japanese).
    package func list(_ items: [String]) -> String { items.joined(separator: self(.listSeparator)) }

    /// A counted phrase's form for `category` (the page's script picks among them).
    package func form(_ phrase: Phrase, _ category: PluralCategory) -> String {
        guard case .counted(let forms)? = Self.table(language)[phrase] else { return self(phrase) }
        return forms[category] ?? forms[.other] ?? ""
    }

    /// The lexicon several courses share, for a page or a message about all of them (a
    /// teacher's index, their digest): the one tag they all name (`de-AT`), else the language
    /// they all speak named by itself (`de` for `de-DE` and `de-AT`), else nil (the caller's
    /// default speaks).
    package static func shared(_ lexicons: [Lexicon]) -> Lexicon? {
        guard let first = lexicons.first else { return nil }
        if lexicons.allSatisfy({ $0 == first }) { return first }
        return lexicons.allSatisfy({ $0.language == first.language }) ? Lexicon(first.language) : nil
    }

    /// The lexicon of a language named by itself (`de`, not `de-AT`).
    package init(_ language: ReportLanguage) {
        self.init(LanguageTag(language.rawValue) ?? .english)
    }

    /// The template of `phrase`: its text, or for a count its form for the count's category
    /// (`other` when the table lacks the category: the tests make sure none does).
    static func form(_ phrase: Phrase, _ language: ReportLanguage, count: Int?) -> String {
        guard let entry = table(language)[phrase] ?? englishTable[phrase] else { return phrase.rawValue }
        switch entry {
        case .text(let text): return text
        case .counted(let forms):
            let category = PluralRules.category(of: count ?? 0, in: language)
            return forms[category] ?? forms[.other] ?? ""
        }
    }

    func fill(_ template: String, values: [String], count: Int?) -> String {
        guard template.contains("{") else { return template }
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = rest[rest.index(after: open)..<close]
            if name == "n", let count {
                out += String(count)
            } else if let index = Int(name), values.indices.contains(index) {
                out += values[index]
            } else {
                out += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// The table of `language`.
    static func table(_ language: ReportLanguage) -> [Phrase: Entry] {
        switch language {
        case .en: return englishTable
        case .de: return germanTable
        case .fr: return frenchTable
        case .es: return spanishTable
        case .ja: return japaneseTable
        }
    }

    /// A table's entry: a phrase's text, or a counted phrase's forms.
    package enum Entry: Sendable, Equatable {
        case text(String)
        case counted([PluralCategory: String])
    }

    // MARK: - Dates

    /// An instant for a page's header, in the reader's zone (UTC when none): English as ever
    /// (`ReportWords.asOf`), other languages in their locale's date and time, then the zone.
    package func asOf(_ date: Date, in zone: TimeZone? = nil) -> String {
        guard language != .en else { return ReportWords.asOf(date, in: zone) }
        let zone = zone ?? TimeZone(identifier: "UTC") ?? .current
        return DateFormats.string(date, template: "yMMMdjmm", locale: tag.description, zone: zone) + " "
            + ReportWords.zoneName(zone)
    }

    /// A stored due as its course's teachers read it (`ReportWords.due` in English): a date, or
    /// a date and the course's wall-clock time; empty when undated.
    package func due(_ due: String, zone: TimeZone) -> String {
        guard language != .en else { return ReportWords.due(due, zone: zone) }
        guard let parsed = DueDate(storageText: due) else { return "" }
        let utc = TimeZone(identifier: "UTC") ?? zone
        switch parsed {
        case .date(let day):
            return DateFormats.string(Self.noon(day), template: "yMMMd", locale: tag.description, zone: utc)
        case .local(let day, let hour, let minute, _):
            let wall = Self.noon(day).addingTimeInterval(TimeInterval((hour - 12) * 3600 + minute * 60))
            return DateFormats.string(wall, template: "yMMMdjmm", locale: tag.description, zone: utc)
        case .instant(let seconds):
            return DateFormats.string(
                Date(timeIntervalSince1970: TimeInterval(seconds)), template: "yMMMdjmm", locale: tag.description, zone: zone)
        }
    }

    /// A civil date as its locale writes it (`4. Dez. 2026`); ISO in English.
    package func day(_ day: CivilDate) -> String {
        guard language != .en else { return day.isoText }
        return DateFormats.string(Self.noon(day), template: "yMMMd", locale: tag.description, zone: TimeZone(identifier: "UTC") ?? .current)
    }

    /// Noon UTC of a civil date: a wall-clock date formatted in UTC is that date.
    static func noon(_ day: CivilDate) -> Date {
        Date(timeIntervalSince1970: TimeInterval(day.daysSinceEpoch) * 86_400 + 43_200)
    }
}

/// Foundation's date formatters by locale, template and zone, made once each (a formatter
/// costs far more to make than to use, and a page formats a date per row).
enum DateFormats {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var formatters: [String: DateFormatter] = [:]

    static func string(_ date: Date, template: String, locale: String, zone: TimeZone) -> String {
        let key = locale + "|" + template + "|" + zone.identifier
        lock.lock()
        defer { lock.unlock() }
        let formatter: DateFormatter
        if let made = formatters[key] {
            formatter = made
        } else {
            formatter = DateFormatter()
            formatter.locale = Locale(identifier: locale)
            formatter.timeZone = zone
            formatter.setLocalizedDateFormatFromTemplate(template)
            formatters[key] = formatter
        }
        return formatter.string(from: date)
    }
}
