import Testing

@testable import DashboardCore

/// `ColumnPositions`: rows are read by column name, resolved once per statement.
@Suite("ColumnPositions: result columns by name")
struct ColumnPositionsTests {
    @Test("names and aliases give their positions; a name the statement lacks is an internal error")
    func positions() throws {
        let database = try Database(path: ":memory:", mode: .readWriteCreate)
        try database.execute("CREATE TABLE t (a TEXT, b INTEGER); INSERT INTO t (a, b) VALUES ('x', 7);")
        let statement = try database.prepare("SELECT t.b, t.a, t.b + 1 AS next FROM t")
        let columns = try statement.columnPositions
        #expect(try columns.position("b") == 0)
        #expect(try columns.position("a") == 1)
        #expect(try columns.position("next") == 2)
        var read: [String] = []
        let (a, next) = (try columns.position("a"), try columns.position("next"))
        try statement.forEachRow { read.append("\($0.string(a) ?? "") \($0.int(next))") }
        #expect(read == ["x 8"])
        #expect(throws: InternalError.unknownColumn("c", sql: "SELECT t.b, t.a, t.b + 1 AS next FROM t")) {
            try columns.position("c")
        }
    }
}
