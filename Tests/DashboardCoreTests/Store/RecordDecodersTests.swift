import Testing

@testable import DashboardCore

/// `CourseRowDecoder` and `TaskRowDecoder`: course and task rows are read by column name, so
/// the order a statement lists its columns in does not matter, and the report's tasks query
/// names every column the decoder reads (also when it leaves titles and students out).
@Suite("Record decoders: course and task rows by column name")
struct RecordDecodersTests {
    private func database() throws -> Database {
        let database = try Database(path: ":memory:", mode: .readWriteCreate)
        try database.execute(
            """
            CREATE TABLE courses (course_id TEXT, code TEXT, title TEXT, term TEXT, teacher TEXT, timezone TEXT, language TEXT);
            CREATE TABLE tasks (task_id TEXT, course_id TEXT, title TEXT, student_id TEXT, due TEXT, priority TEXT,
                                completed INTEGER, deleted_batch INTEGER, assignment_id TEXT);
            CREATE TABLE overrides (task_id TEXT, bucket TEXT, until TEXT, reason TEXT, actor TEXT);
            INSERT INTO courses VALUES ('C1', 'MATH', 'Algebra', '2026', 'Ada', 'Europe/Berlin', 'de-DE');
            INSERT INTO tasks VALUES ('T1', 'C1', 'Homework', 'S9', '2026-12-01', 'high', 1, NULL, 'A-7');
            INSERT INTO overrides VALUES ('T1', 'done', '2026-12-24', 'extension', 'ada');
            """)
        return database
    }

    private func courses(_ database: Database, _ sql: String) throws -> [CourseRecord] {
        let statement = try database.prepare(sql)
        let decoder = try CourseRowDecoder(try statement.columnPositions)
        var read: [CourseRecord] = []
        try statement.forEachRow { read.append(decoder.course($0)) }
        return read
    }

    @Test("a course reads the same whatever the order of the columns")
    func courseColumnsInAnyOrder() throws {
        let database = try database()
        let expected = [
            CourseRecord(
                courseID: "C1", code: "MATH", title: "Algebra", term: "2026", teacher: "Ada", timezone: "Europe/Berlin", language: "de-DE")
        ]
        #expect(try courses(database, "SELECT course_id, code, title, term, teacher, timezone, language FROM courses") == expected)
        #expect(try courses(database, "SELECT language, timezone, teacher, term, title, code, course_id FROM courses") == expected)
    }

    @Test("the report's tasks query decodes by name, with and without titles", arguments: [false, true])
    func reportTasksQuery(countsOnly: Bool) throws {
        let database = try database()
        let statement = try database.prepare(Store.tasksSQL("", countsOnly: countsOnly))
        let decoder = try TaskRowDecoder(try statement.columnPositions)
        let overrides = try Store.OverrideColumns(try statement.columnPositions)
        var read: [TaskRecord] = []
        var pins: [StoredOverride?] = []
        try statement.forEachRow {
            read.append(decoder.task($0))
            pins.append(overrides.override($0))
        }
        // The override's reason and actor come with the titles (a list shows them), not for counts.
        let expected = StoredOverride(
            bucket: "done", until: "2026-12-24", reason: countsOnly ? "" : "extension", actor: countsOnly ? "" : "ada")
        #expect(pins == [expected])
        #expect(read.count == 1)
        #expect(read.first?.taskID == "T1")
        #expect(read.first?.courseID == "C1")
        #expect(read.first?.title == (countsOnly ? "" : "Homework"))
        #expect(read.first?.studentID == (countsOnly ? "" : "S9"))
        #expect(read.first?.assignmentID == (countsOnly ? "" : "A-7"))
        #expect(read.first?.priority == .high)
        #expect(read.first?.completed == true)
        #expect((try? try statement.columnPositions.position("bucket")) != nil)
        #expect((try? try statement.columnPositions.position("until")) != nil)
    }
}
