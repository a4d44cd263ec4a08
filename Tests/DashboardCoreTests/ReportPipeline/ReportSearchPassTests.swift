import Foundation
import Testing

@testable import DashboardCore

/// A search decided in the store where its test is exact (issue 26): on SQLite every title
/// whose fold the store keeps (`TitleFolds`: `LIKE` on an ASCII title, `instr` in a stored
/// fold), on PostgreSQL a settled task whose title is ASCII and passed every word's `ILIKE`, is
/// found without a fold; every other title is folded from its bytes, or as a `String` when its
/// fold is not plain. The pages and grids are the pipeline's, on titles where SQL and the fold
/// could disagree.
@Suite("Report: a search decided in the store")
struct ReportSearchPassTests {
    /// C1 (MATH Algebra, New York), C2 (BIO Biology, Berlin); at 2026-11-29T08:00:00Z the far
    /// dues are settled, the near ones (2026-11-29, 2026-11-30) are not.
    static let tasks = """
        task_id,course_id,title,due,completed
        A,C1,Essay one,2026-10-01,no
        B,C1,ESSAY two,2027-01-10,no
        C,C1,Straße,2026-10-01,no
        D,C2,İstanbul essay,2026-10-01,no
        E,C2,Résumé draft,2027-01-10,no
        F,C2,100% done,2026-10-01,no
        G,C2,a_b plan,,no
        H,C1,Near essay,2026-11-29,no
        I,C2,ｅｓｓａｙ wide,2026-10-01,no
        J,C1,Strasse,2026-11-30,no
        K,C2,essay done,2026-10-01,yes
        L,C1,a\\b,,no
        """

    static func page(_ fixture: AuditFixture, _ search: String, completed: Bool = false) throws -> Report {
        let query = ReportSample.query {
            $0.search = search
            $0.includeCompleted = completed
            $0.limit = 50
        }
        #expect(ReportSearchPass.applies(to: query) == ReportMatcher(query).wordsAreASCII, "\(search)")
        let page = try ReportStream.listPage(
            fixture.store, facts: ReportSample.freshFacts, query: query, asOf: fixture.asOf, defaultTimeZone: fixture.utc)
        StreamingReportEquivalenceTests.expectSame(
            page, try StreamingReportStoreTests.expected(.list, fixture.store, query, onlyCourses: []), "page \(search)")
        let grid = try ReportStream.grid(
            fixture.store, facts: ReportSample.freshFacts, query: query, asOf: fixture.asOf, defaultTimeZone: fixture.utc)
        StreamingReportEquivalenceTests.expectSame(
            grid, try StreamingReportStoreTests.expected(.grid, fixture.store, query, onlyCourses: []), "grid \(search)")
        return page
    }

    static func found(_ fixture: AuditFixture, _ search: String, completed: Bool = false) throws -> [String] {
        ReportSample.summary(try page(fixture, search, completed: completed).groups)
    }

    @Test("ASCII words on ASCII, accented, special-cased and full-width titles: the pipeline's tasks, exactly")
    func foldsWhatSQLCannotDecide() throws {
        let fixture = try AuditFixture()
        try fixture.importFiles(Self.tasks)
        #expect(try fixture.store.storedBucketsHold())
        // Any case of the word; "İstanbul essay" and the full-width title are folded in Swift.
        // Courses by code (BIO, MATH); I sorts before D by its folded title ("essay wide").
        let essay = ["C2 overdue: I D", "C1 overdue: A", "C1 today: H", "C1 upcoming: B"]
        #expect(try Self.found(fixture, "essay") == essay)
        #expect(try Self.found(fixture, "ESSAY") == essay)
        #expect(
            try Self.found(fixture, "Essay", completed: true) == [
                "C2 overdue: I D", "C2 completed: K", "C1 overdue: A", "C1 today: H", "C1 upcoming: B",
            ])
        // ß folds to "ss": both spellings are found by either word.
        #expect(try Self.found(fixture, "strasse") == ["C1 overdue: C", "C1 upcoming: J"])
        #expect(try Self.found(fixture, "STRASSE") == ["C1 overdue: C", "C1 upcoming: J"])
        #expect(try Self.found(fixture, "Straße") == ["C1 overdue: C", "C1 upcoming: J"])
        // Accents: the folded word is ASCII, the title is not.
        #expect(try Self.found(fixture, "resume") == ["C2 upcoming: E"])
        #expect(try Self.found(fixture, "Résumé") == ["C2 upcoming: E"])
        // "İ" folds to "i": "istanbul" finds the title with İ.
        #expect(try Self.found(fixture, "istanbul") == ["C2 overdue: D"])
        // Two words: each in the title or the course text (BIO Biology).
        #expect(try Self.found(fixture, "essay bio") == ["C2 overdue: I D"])
        #expect(try Self.found(fixture, "essay math") == ["C1 overdue: A", "C1 today: H", "C1 upcoming: B"])
    }

    @Test("LIKE's wildcards and escape in the word are plain characters; a word no title holds finds nothing")
    func wildcardsAreLiteral() throws {
        let fixture = try AuditFixture()
        try fixture.importFiles(Self.tasks)
        #expect(try Self.found(fixture, "%") == ["C2 overdue: F"])
        #expect(try Self.found(fixture, "100%") == ["C2 overdue: F"])
        #expect(try Self.found(fixture, "_") == ["C2 undated: G"])
        #expect(try Self.found(fixture, "a_b") == ["C2 undated: G"])
        #expect(try Self.found(fixture, "\\") == ["C1 undated: L"])
        #expect(try Self.found(fixture, "a\\b") == ["C1 undated: L"])
        let none = try Self.page(fixture, "zzz")
        #expect(none.state == .noMatch)
        #expect(none.groups.isEmpty && none.matchingTasks == 0)
        let empty = try Self.page(fixture, "a%b")
        #expect(empty.state == .noMatch && empty.matchingTasks == 0)
    }

    @Test("a title of ASCII bytes is decided by the store only for a word with no capital letter; NUL and non-ASCII bytes are not ASCII")
    func plainASCII() {
        func ascii(_ text: String) -> Bool {
            var text = text
            return text.withUTF8 { TextFold.isPlainASCII($0) }
        }
        #expect(ascii("Essay 1, part \"2\" %_\\"))
        #expect(ascii(""))
        #expect(!ascii("a\u{0}b"))
        #expect(!ascii("Straße"))
        #expect(!ascii("ｅ"))
        #expect(ReportMatcher(ReportSample.query { $0.search = "Essay ONE" }).wordsAreLowercaseASCII)
        #expect(ReportMatcher(ReportSample.query { $0.search = "100% a_b" }).wordsAreLowercaseASCII)
        // Accented and full-width words fold to ASCII; a word that stays non-ASCII takes the old path.
        #expect(ReportMatcher(ReportSample.query { $0.search = "Résumé ＥＳＳＡＹ" }).wordsAreLowercaseASCII)
        #expect(!ReportMatcher(ReportSample.query { $0.search = "日本 essay" }).wordsAreASCII)
        #expect(!ReportSearchPass.applies(to: ReportSample.query { $0.search = "日本" }))
    }

    @Test("the fold of a title's bytes is the fold of its String, with the words its course holds left out")
    func foldOfBytes() {
        let matcher = ReportMatcher(ReportSample.query { $0.search = "essay ss" })
        let cache = TextFold.Cache()
        let course = CourseRecord(courseID: "C1", code: "ESS", title: "Essays")
        let none = CourseRecord(courseID: "C2", code: "BIO", title: "Biology")
        for title in ["Straße essay", "ｅｓｓａｙ ß", "essay", "Strasse", "e\u{301}ssay ss", "Ｓtraße", "a\u{0}essay ss", ""] {
            for record in [course, none] {
                let text = matcher.courseText(record)
                var bytes = title
                let fromBytes = bytes.withUTF8 { matcher.found(titleBytes: $0, courseText: text, cache: cache) }
                #expect(fromBytes == matcher.found(title: title, courseText: text), "\(title) \(record.courseID)")
            }
        }
    }
}
