import Foundation
import Testing

@testable import DashboardCore

/// The titles' folds an SQLite store keeps (schema 10, `TitleFolds`) so that SQL decides a
/// search: what each write leaves in `tasks.title_fold`, and that the search finds exactly the
/// pipeline's tasks after every path that writes a title (every `found` below also compares the
/// page and the grid with the pipeline's: `ReportSearchPassTests.page`). The searches run on
/// both stores; the column is checked on SQLite (PostgreSQL keeps none and scans as before).
@Suite("Report: the titles' folds a search is decided by")
struct TitleFoldTests {
    /// Each task's kept fold: `ascii` (empty: `LIKE` on the title decides), the fold's text, or
    /// `unknown` (NULL: Swift folds the title).
    static func folds(_ fixture: AuditFixture) throws -> [String] {
        try fixture.store.database.rows(
            """
            SELECT task_id || ' ' || CASE WHEN title_fold IS NULL THEN 'unknown' WHEN title_fold = X'' THEN 'ascii'
                                          ELSE CAST(title_fold AS TEXT) END
            FROM tasks WHERE deleted_batch IS NULL ORDER BY task_id
            """
        ).map { $0[0].text ?? "" }
    }

    /// What the first import keeps for `ReportSearchPassTests.tasks` (and for M: a Hangul title,
    /// whose fold is not plain, and N: a title beyond the BMP).
    static let firstFolds = [
        "A ascii", "B ascii", "C strasse", "D istanbul essay", "E resume draft", "F ascii", "G ascii", "H ascii", "I essay wide",
        "J ascii", "K ascii", "L ascii", "M unknown", "N unknown",
    ]

    static let tasks = ReportSearchPassTests.tasks + "\nM,C2,한국 essay,2026-10-01,no\nN,C1,📚 essay,2026-10-01,no"

    /// The tasks an import of `tasks` finds for "essay" (`ReportSearchPassTests`, with M and N).
    static let essay = ["C2 overdue: I D M", "C1 overdue: A N", "C1 today: H", "C1 upcoming: B"]

    @Test("the first import keeps an empty fold for ASCII titles, the plain fold of others, NULL where the fold is not plain")
    func firstImport() throws {
        let fixture = try AuditFixture()
        try fixture.importFiles(Self.tasks)
        #expect(try ReportSearchPassTests.found(fixture, "essay") == Self.essay)
        #expect(try ReportSearchPassTests.found(fixture, "strasse") == ["C1 overdue: C", "C1 upcoming: J"])
        #expect(try ReportSearchPassTests.found(fixture, "한국") == ["C2 overdue: M"])  // not ASCII: the pipeline's path
        guard !TestStore.isPostgres else { return }
        #expect(try Self.folds(fixture) == Self.firstFolds)
        #expect(try TitleFolds.usable(fixture.store.database))
    }

    @Test("a sync that changes titles writes their folds; the search finds the new titles, not the old ones")
    func syncChangesTitles() throws {
        let fixture = try AuditFixture()
        try fixture.importFiles(Self.tasks)
        let changed =
            Self.tasks.replacingOccurrences(of: "A,C1,Essay one", with: "A,C1,Übung eins")
            .replacingOccurrences(of: "C,C1,Straße", with: "C,C1,Essay drei")
            .replacingOccurrences(of: "M,C2,한국 essay", with: "M,C2,Ｍｕｓｉｋ")
            + "\nP,C2,Ölessay,2026-10-01,no"
        let sync = try fixture.importFiles(changed, mode: .sync)
        #expect(sync.counts[.tasks] == ImportCounts(read: 15, inserted: 1, updated: 3, unchanged: 11))
        #expect(
            try ReportSearchPassTests.found(fixture, "essay") == ["C2 overdue: I D P", "C1 overdue: C N", "C1 today: H", "C1 upcoming: B"])
        #expect(try ReportSearchPassTests.found(fixture, "ubung") == ["C1 overdue: A"])
        #expect(try ReportSearchPassTests.found(fixture, "musik") == ["C2 overdue: M"])
        #expect(try ReportSearchPassTests.found(fixture, "strasse") == ["C1 upcoming: J"])
        guard !TestStore.isPostgres else { return }
        var expected = Self.firstFolds
        expected[0] = "A ubung eins"
        expected[2] = "C ascii"
        expected[12] = "M musik"
        expected.insert("P olessay", at: 14)
        #expect(try Self.folds(fixture) == expected)
    }

    @Test("a title or fold written by hand leaves the fold unknown (triggers); the search folds that title and finds it by its new words")
    func handEdit() throws {
        let fixture = try AuditFixture()
        try fixture.importFiles(Self.tasks)
        // As the sqlite3 shell (or psql) would: another connection, its triggers on.
        try GridCountsTests.handEdit(
            fixture,
            """
            UPDATE tasks SET title = 'Prüfung zzz' WHERE task_id = 'A';
            UPDATE tasks SET title = 'plain zzz' WHERE task_id = 'C';
            """)
        if !TestStore.isPostgres {
            // A fold written by hand, right or wrong, is not trusted either.
            try GridCountsTests.handEdit(fixture, "UPDATE tasks SET title_fold = CAST('essay' AS BLOB) WHERE task_id = 'F'")
            try GridCountsTests.handEdit(fixture, "UPDATE tasks SET title_fold = X'' WHERE task_id = 'D'")
            var expected = Self.firstFolds
            (expected[0], expected[2], expected[3], expected[5]) = ("A unknown", "C unknown", "D unknown", "F unknown")
            #expect(try Self.folds(fixture) == expected)
        }
        let zzz = try ReportSearchPassTests.found(fixture, "zzz")
        #expect(zzz == ["C1 overdue: C A"], "\(zzz)")
        #expect(try ReportSearchPassTests.found(fixture, "prufung") == ["C1 overdue: A"])
        #expect(
            try ReportSearchPassTests.found(fixture, "essay") == ["C2 overdue: I D M", "C1 overdue: N", "C1 today: H", "C1 upcoming: B"])
        #expect(try ReportSearchPassTests.found(fixture, "istanbul") == ["C2 overdue: D"])
        #expect(try ReportSearchPassTests.found(fixture, "strasse") == ["C1 upcoming: J"])
        guard !TestStore.isPostgres else { return }
        // The next sync that writes the task gives it its fold again.
        let again = Self.tasks.replacingOccurrences(of: "A,C1,Essay one", with: "A,C1,Prüfung eins")
        try fixture.importFiles(again, mode: .sync)
        #expect(try Self.folds(fixture).first == "A prufung eins")
        #expect(try ReportSearchPassTests.found(fixture, "prufung") == ["C1 overdue: A"])
    }

    @Test("a title with NUL or an unknown fold is folded in Swift; one whose fold the dashboard wrote is decided by instr")
    func nulInATitle() throws {
        let fixture = try AuditFixture()
        try fixture.importFiles(Self.tasks)
        guard !TestStore.isPostgres else { return }  // PostgreSQL's text holds no NUL
        try GridCountsTests.handEdit(fixture, "UPDATE tasks SET title = CAST(X'4573007361790078' AS TEXT) WHERE task_id = 'F'")
        #expect(try Self.folds(fixture)[5] == "F unknown")
        // "Es\0say\0x": its fold holds "say" and "x" past the NUL.
        let withNUL = ["C2 overdue: F I D M", "C1 overdue: A N", "C1 today: H", "C1 upcoming: B"]
        #expect(try ReportSearchPassTests.found(fixture, "say") == withNUL)
        #expect(try ReportSearchPassTests.found(fixture, "x") == ["C2 overdue: F"])
        // The dashboard's own function keeps the fold with its NUL: `LIKE`, which stops at a NUL,
        // is never asked; `instr` compares every byte.
        try TitleFolds.refill(tasks: "SELECT 'F'", in: fixture.store.database)
        #expect(
            try fixture.store.database.rows("SELECT hex(title_fold) FROM tasks WHERE task_id = 'F'") == [[.text("6573007361790078")]])
        #expect(try ReportSearchPassTests.found(fixture, "say") == withNUL)
        #expect(try ReportSearchPassTests.found(fixture, "x") == ["C2 overdue: F"])
    }

    @Test("a revert writes back the titles and their folds; an approved held batch writes its folds")
    func revertAndApprove() throws {
        let fixture = try AuditFixture()
        try fixture.importFiles(Self.tasks)
        let changed = Self.tasks.replacingOccurrences(of: "A,C1,Essay one", with: "A,C1,Übung eins")
            .replacingOccurrences(of: "D,C2,İstanbul essay", with: "D,C2,Ankara")
        let sync = try fixture.importFiles(changed, mode: .sync)
        #expect(try ReportSearchPassTests.found(fixture, "istanbul") == [])
        _ = try fixture.revert(batch: sync.batchID ?? 0)
        #expect(try ReportSearchPassTests.found(fixture, "essay") == Self.essay)
        #expect(try ReportSearchPassTests.found(fixture, "istanbul") == ["C2 overdue: D"])
        #expect(try ReportSearchPassTests.found(fixture, "ubung") == [])
        if !TestStore.isPostgres { #expect(try Self.folds(fixture) == Self.firstFolds) }
        // A held sync (it would delete every task but A), approved: its rows are planned again
        // and written with the connection's triggers on.
        var options = ImporterFixture.options(.sync, maxDelete: .count(0))
        options.asOf = fixture.asOf
        let held = try fixture.base.importer.run(
            files: [
                .inMemory("courses.csv", ImporterFixture.courses),
                .inMemory("tasks.csv", "task_id,course_id,title,due\nA,C1,Ärger essay,2026-10-01\n"),
            ],
            options: options)
        #expect(held.status == .held)
        _ = try fixture.base.importer.approve(batchID: held.batchID ?? 0, asOf: fixture.asOf, actor: "adams")
        #expect(try ReportSearchPassTests.found(fixture, "arger") == ["C1 overdue: A"])
        #expect(try ReportSearchPassTests.found(fixture, "essay") == ["C1 overdue: A"])
        if !TestStore.isPostgres { #expect(try Self.folds(fixture) == ["A arger essay"]) }
    }

    @Test(
        "a database from schema 9 gets every task's fold during its migration, and the triggers after",
        .sqliteOnly("SQLite's schema versions: PostgreSQL keeps no folds"))
    func upgradeFromSchemaNine() throws {
        let fixture = try AuditFixture()
        try fixture.importFiles(Self.tasks)
        try fixture.store.database.execute(
            """
            DROP TRIGGER tasks_title_fold_stale; DROP TRIGGER tasks_title_fold_inserted;
            ALTER TABLE tasks DROP COLUMN title_fold;
            PRAGMA user_version = 9;
            """)
        #expect(try !TitleFolds.usable(fixture.store.database))
        // Without folds the search decides as before schema 10: the same tasks.
        #expect(try ReportSearchPassTests.found(fixture, "essay") == Self.essay)
        let reopened = try Store(path: fixture.store.path)
        #expect(reopened.schemaVersion == Schema.currentVersion)
        #expect(try TitleFolds.usable(reopened.database))
        #expect(try Self.folds(fixture) == Self.firstFolds)
        #expect(try ReportSearchPassTests.found(fixture, "essay") == Self.essay)
    }

    @Test("the key of a title: ASCII without NUL, the plain fold (never empty), or Swift's")
    func searchKeys() {
        let cache = TextFold.Cache()
        func key(_ title: String) -> String {
            var title = title
            return title.withUTF8 { bytes in
                switch TextFold.searchKey(bytes, cache: cache) {
                case .ascii: return "ascii"
                case .swift: return "swift"
                case .folded: return cache.withFolded { String(decoding: $0, as: UTF8.self) }
                }
            }
        }
        #expect(key("Essay 1, part \"2\" %_\\") == "ascii")
        #expect(key("") == "ascii")
        #expect(key("a\u{0}B") == "a\u{0}b")
        #expect(key("Straße ＥＳＳＡＹ") == "strasse essay")
        #expect(key("İstanbul") == "istanbul")
        #expect(key("日本語の宿題") == "日本語の宿題")
        #expect(key("e\u{301}ssay") == "swift")  // a combining mark joins its neighbour
        #expect(key("한국") == "swift")
        #expect(key("📚 essay") == "swift")
        // The fold the key keeps is the one the search compares (`holdsAll`).
        let words: [[UInt8]] = [Array("ss".utf8)]
        for title in ["Straße", "ｅｓｓａｙ", "Résumé", "Plain"] {
            var bytes = title
            let holds = bytes.withUTF8 { TextFold.holdsAll($0, words, cache: cache) }
            #expect(holds == (key(title) == "ascii" ? title.lowercased().contains("ss") : key(title).contains("ss")), "\(title)")
        }
    }
}
