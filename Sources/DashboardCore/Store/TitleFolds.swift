import CSQLite

/// The owner of `tasks.title_fold` (schema 10, issue 26): what lets SQL decide a search of
/// ASCII words (`ReportSearchPass`) on a title without returning it to Swift to be folded.
///
/// Each task's `title_fold` holds its title's `TextFold.SearchKey`:
/// - an empty BLOB: the title is ASCII bytes without NUL; its fold is the title with its
///   letters in lower case, so SQLite's `LIKE '%word%'` on the title decides a folded word;
/// - a non-empty BLOB: the title's plain fold as UTF-8 (`TextFold.foldPlain`); a folded
///   ASCII word is in the title's fold exactly when `instr` finds its bytes there;
/// - NULL: SQL cannot tell. The fold is not plain (a combining mark, a Hangul syllable, a
///   scalar beyond the BMP, bytes that are not UTF-8), or nobody computed it: a task a
///   writer other than the dashboard wrote (a hand edit in the sqlite3 shell), a task copied
///   from PostgreSQL. The search folds such a title in Swift, as before schema 10.
///
/// NULL is the only state a writer that does not know the fold can leave: triggers set it
/// whenever anyone but a connection with triggers off (the importer's, and this owner's own
/// writes) writes a title or a fold. The dashboard's writers of titles compute the fold in the
/// same statement (`sqlExpression`: the SQL function this type registers on each connection)
/// or bind it (`DirectTaskWriter`); a revert, whose writes fire triggers, computes the folds
/// of the tasks it wrote back afterwards (`refill`).
///
/// SQLite only: the PostgreSQL store keeps no fold and decides its search as before.
enum TitleFolds {
    static let columns = [Schema.ColumnAddition(table: "tasks", column: "title_fold", definition: "BLOB")]

    /// The SQL function that gives a title's `title_fold` (registered on every SQLite
    /// connection the dashboard opens; unknown to any other program, such as the sqlite3 shell).
    static let function = "dashboard_title_fold"

    /// The value of `title_fold` for the title `title` (an SQL expression).
    static func sqlExpression(_ title: String) -> String { "\(function)(\(title))" }

    /// Migration 10: every task's fold, then the triggers that keep any other writer from
    /// leaving a fold that is not its title's (created after the fill, which they would undo).
    static let schemaSQL = """
        UPDATE tasks SET title_fold = \(function)(title);
        \(triggersSQL)
        """

    /// The triggers: a title or fold written by anyone whose triggers fire leaves the fold
    /// NULL (unknown), whatever fold it wrote.
    static let triggersSQL = """
        CREATE TRIGGER IF NOT EXISTS tasks_title_fold_stale AFTER UPDATE OF title, title_fold ON tasks
            WHEN NEW.title_fold IS NOT NULL
        BEGIN UPDATE tasks SET title_fold = NULL WHERE task_id = NEW.task_id; END;
        CREATE TRIGGER IF NOT EXISTS tasks_title_fold_inserted AFTER INSERT ON tasks WHEN NEW.title_fold IS NOT NULL
        BEGIN UPDATE tasks SET title_fold = NULL WHERE task_id = NEW.task_id; END;

        """

    /// The triggers the stored folds rely on.
    static let triggers = ["tasks_title_fold_stale", "tasks_title_fold_inserted"]

    /// True when the database keeps folds (an SQLite store at schema 10 or later).
    static func kept(_ database: Database) throws -> Bool {
        try database.sql.keepsTitleFolds(database)
    }

    /// True when a search may decide by the stored folds: the column and both triggers are
    /// there (a fold a dropped trigger let stand may be stale).
    static func usable(_ database: Database) throws -> Bool {
        guard try kept(database) else { return false }
        let names = triggers.map { "'\($0)'" }.joined(separator: ", ")
        return try database.int("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name IN (\(names))") == triggers.count
    }

    /// Computes the fold of every live task `tasks` (a query of task ids) names whose fold is
    /// unknown, with the connection's triggers off for that one statement (they would clear it;
    /// it writes no other column, so no mark or count moves). For the writers whose own writes
    /// fire the triggers (a revert).
    static func refill(tasks: String, values: [SQLBindable] = [], in database: Database) throws {
        guard try kept(database) else { return }
        let triggersWereOn = database.triggersEnabled
        database.setTriggersEnabled(false)
        defer { database.setTriggersEnabled(triggersWereOn) }
        try database.run(
            """
            UPDATE tasks SET title_fold = \(function)(title)
            WHERE task_id IN (\(tasks)) AND title_fold IS NULL AND deleted_batch IS NULL
            """, values)
    }

    /// Computes every task's fold (a store just filled by a copy, with triggers off).
    static func fillAll(in database: Database) throws {
        guard try kept(database) else { return }
        try database.run("UPDATE tasks SET title_fold = \(function)(title)")
    }

    /// Registers `function` on an SQLite connection: deterministic, for direct use only (no
    /// trigger or view may call it: another program opening the file has no such function).
    static func register(on handle: OpaquePointer) {
        let cache = Unmanaged.passRetained(TextFold.Cache()).toOpaque()
        sqlite3_create_function_v2(
            handle, function, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, cache,
            { context, _, arguments in
                guard let context, let argument = arguments?[0] else { return }
                let cache = Unmanaged<TextFold.Cache>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                guard sqlite3_value_type(argument) != SQLITE_NULL, let text = sqlite3_value_text(argument) else {
                    return sqlite3_result_null(context)
                }
                let title = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(argument)))
                switch TextFold.searchKey(title, cache: cache) {
                case .ascii: sqlite3_result_zeroblob(context, 0)
                case .swift: sqlite3_result_null(context)
                case .folded:
                    cache.withFolded { sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT_SWIFT) }
                }
            }, nil, nil,
            { cache in
                if let cache { Unmanaged<TextFold.Cache>.fromOpaque(cache).release() }
            })
    }
}
