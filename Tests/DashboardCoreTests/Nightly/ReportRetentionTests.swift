import DashboardCore
import Testing

/// `ReportRetention`: which dated folders a night lets go (`nightly --keep DAYS`).
@Suite(.storeIndependent) struct ReportRetentionTests {
    static let tonight = CivilDate(year: 2026, month: 3, day: 2)

    @Test(
        "names that are exactly a valid date are dates; nothing else is",
        arguments: [
            ("2026-11-29", "2026-11-29"), ("2024-02-29", "2024-02-29"), ("2026-02-29", nil), ("2026-13-01", nil),
            ("2026-00-10", nil), ("2026-11-31", nil), ("2026-11-29 ", nil), ("2026-11-2", nil), ("latest", nil),
            (".2026-11-29.partial-1f", nil), ("2026_11_29", nil), ("２０２６-11-29", nil), ("+026-11-29", nil),
        ] as [(String, String?)])
    func dateOfFolder(name: String, expected: String?) {
        #expect(ReportRetention.date(ofFolder: name)?.isoText == expected)
    }

    @Test(
        "keep N keeps tonight's folder and the N-1 before it, across a month and a leap day",
        arguments: [
            (1, ["2026-02-27", "2026-02-28", "2026-03-01"]),
            (2, ["2026-02-27", "2026-02-28"]),
            (3, ["2026-02-27"]),
            (4, []),
            (30, []),
        ] as [(Int, [String])])
    func expired(keep: Int, expected: [String]) {
        let names = ["2026-03-02", "2026-03-01", "2026-02-28", "2026-02-27", "2026-03-05", "latest", "notes", "2026-02-30"]
        #expect(ReportRetention.expired(names, tonight: Self.tonight, keepDays: keep) == expected)
    }

    @Test func aFolderDatedAfterTonightIsKept() {
        #expect(ReportRetention.expired(["2027-01-01", "2026-03-03"], tonight: Self.tonight, keepDays: 1) == [])
    }

    @Test func keepOutsideItsRangeActsAsOneDayAtLeast() {
        #expect(ReportRetention.expired(["2026-03-02", "2026-03-01"], tonight: Self.tonight, keepDays: 0) == ["2026-03-01"])
    }
}
