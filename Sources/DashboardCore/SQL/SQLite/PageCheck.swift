import CSQLite

/// Checks the structure of every page of every table and index of an SQLite database, at open.
///
/// Policy (docs/reliability.md, "A damaged file never reads as an all-clear"): a command reads
/// only the pages its queries need. The grid reads the kept counts (`course_buckets`) and a
/// few tasks, `status` counts rows without an index: a file whose other pages are broken
/// (overwritten, zeroed, cut short) would print figures that look like data and exit 0, while
/// `report list` or `import` refuse it. So every command that opens an SQLite file walks the
/// B-trees first, through SQLite's `dbstat` table (it reads every page through the pager, the
/// `-wal` included, in one snapshot, and calls a page whose header, cell pointers or payload
/// sizes are malformed "corrupted"; a page SQLite cannot read at all fails the query as
/// damaged). It checks structure, not values: a page rewritten with another valid page is left
/// to `dashboard verify` (`PRAGMA integrity_check`), and so are pages on the free list, which
/// no query reads.
///
/// Cost, measured on the bench's 1,000,000-task database (102 MB, 6,200 pages of 16 KiB): about
/// 0.04–0.09 s, against 0.85 s for `PRAGMA quick_check`; docs/performance.md has the figures. Where
/// SQLite was built without `dbstat`, `PRAGMA quick_check` does the same job, slower.
enum PageCheck {
    /// Walks every B-tree page.
    /// - Throws: `SQLiteError` with `SQLITE_CORRUPT` naming the first malformed page and its
    ///   table or index (the store calls that damage: `Store.classify`); SQLite's own error
    ///   when a page cannot be read.
    static func run(_ database: Database) throws {
        guard database.sqliteHandle != nil else { return }
        let statement: Statement
        do {
            statement = try database.prepare("SELECT name, pageno FROM dbstat WHERE pagetype = 'corrupted' LIMIT 1")
        } catch let error as SQLiteError where error.primaryCode == SQLITE_ERROR {
            // No dbstat in this SQLite: the slower check of the same pages.
            try quickCheck(database)
            return
        }
        var found: (name: String, page: Int)?
        try statement.forEachRow { row in found = (row.string(0) ?? "?", row.int(1)) }
        if let found {
            throw SQLiteError(code: SQLITE_CORRUPT, message: "page \(found.page) (of \(found.name)) is malformed")
        }
    }

    /// `PRAGMA quick_check`: "ok", or the first problem it finds.
    private static func quickCheck(_ database: Database) throws {
        var first: String?
        try database.prepare("PRAGMA quick_check(1)").forEachRow { row in first = first ?? row.string(0) }
        guard let first, first != "ok" else { return }
        throw SQLiteError(code: SQLITE_CORRUPT, message: first)
    }
}
