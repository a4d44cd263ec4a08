/// Which dated report folders a night keeps (`nightly --keep DAYS`).
///
/// Policy: a dated folder is one whose name is exactly a calendar date, `YYYY-MM-DD` (a valid
/// date: `2026-02-30` is not one); nothing else in the reports folder is ever a candidate
/// (`latest`, a teacher's bookmark, a folder someone made by hand). `--keep DAYS` keeps the
/// folders of the last DAYS days, tonight's included: with 30, tonight's and the 29 before it
/// stay and older ones go. A folder dated after tonight (a run with a later `--as-of`) stays.
package enum ReportRetention {
    /// The most days `--keep` accepts (a hundred years); the fewest is 1 (tonight's folder).
    package static let keepRange = 1...36_500
    /// The default of `--keep`.
    package static let defaultKeep = 30

    /// The date a folder's name spells, or nil when the name is not exactly a valid date.
    package static func date(ofFolder name: String) -> CivilDate? {
        let bytes = Array(name.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month),
            (1...CivilDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return CivilDate(year: year, month: month, day: day)
    }

    /// The names among `names` to remove tonight, in name order.
    /// - Parameters:
    ///   - tonight: the date of tonight's folder (the as-of's date).
    ///   - keepDays: within `keepRange`.
    package static func expired(_ names: [String], tonight: CivilDate, keepDays: Int) -> [String] {
        let oldestKept = tonight.daysSinceEpoch - (max(keepDays, keepRange.lowerBound) - 1)
        return names.filter { name in
            guard let date = date(ofFolder: name) else { return false }
            return date.daysSinceEpoch < oldestKept
        }.sorted()
    }
}
