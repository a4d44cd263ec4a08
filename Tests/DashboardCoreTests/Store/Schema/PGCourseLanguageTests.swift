import Foundation
import PostgresTestSupport
import Testing

@testable import DashboardCore

/// The language of a course on PostgreSQL (version 11, `PGSchema.upgradeFrom10`): the upgrade
/// of a version 10 database keeps every row, and the trigger function compares the new column
/// against another connection's writes as psql is one. (SQLite's migration 12:
/// `CourseLanguageMigrationTests`.)
@Suite("PostgreSQL: a course's language", .postgresPass)
struct PGCourseLanguageTests {
    static let courses = """
        course_id,code,title,timezone,teacher_email,language
        C1,MATH,Algebra,America/New_York,ann@school.example,de-AT
        C2,BIO,Biology,Europe/Berlin,,
        """

    @Test("a version 10 database: a reader reads every language as '', a writer adds the column ('') keeping every row")
    func upgradeFromVersionTen() throws {
        let f = try UnchangedRowsTests.imported()
        try f.run([("courses.csv", Self.courses)])
        let server = try PostgresTestServer.shared()
        let name = try #require(f.store.path.split(separator: "/").last.map { String($0.split(separator: "?")[0]) })
        // The data before, with the language as the upgrade gives it back: ''.
        try f.store.database.run("UPDATE courses SET language = ''")
        let before = try f.dumpData()
        let downgrade = try server.psql(name, PGPrintsTests.toVersion10 + "UPDATE dashboard_schema SET version = 10;")
        #expect(downgrade.status == 0, "\(downgrade.stderr)")

        let reader = try Store(postgres: f.store.path, create: false)
        #expect(reader.schemaVersion == 10)
        #expect(try reader.liveCourses(only: []).map { "\($0.courseID)|\($0.language)" } == ["C1|", "C2|"])
        #expect(try reader.courses().map(\.language) == ["", ""])
        #expect(
            try reader.database.rows("SELECT teacher_email FROM courses ORDER BY course_id").map { $0[0].text } == [
                "ann@school.example", "",
            ])
        var problems: [VerificationProblem] = []
        try reader.verify { problems.append($0) }
        #expect(problems.isEmpty, "\(problems)")

        let writer = try Store(postgres: f.store.path, create: true)
        #expect(writer.schemaVersion == PGSchema.currentVersion)
        #expect(try f.dumpData() == before)
        #expect(
            try writer.database.int("SELECT count(*) FROM courses WHERE language = ''")
                == (try writer.database.int("SELECT count(*) FROM courses")))
        try writer.verify { problems.append($0) }
        #expect(problems.isEmpty, "\(problems)")
        // An import writes a language again, and the next identical one changes nothing.
        let importer = Importer(store: writer, clock: FixedClock(ImporterFixture.asOf))
        let files = [InputFile.inMemory("courses.csv", Self.courses)]
        #expect(
            try importer.run(files: files, options: ImporterFixture.options()).counts[.courses]
                == ImportCounts(read: 2, updated: 1, unchanged: 1))
        #expect(try importer.run(files: files, options: ImporterFixture.options()).counts[.courses] == ImportCounts(read: 2, unchanged: 2))
        #expect(try writer.courses().map(\.language) == ["de-AT", ""])
    }

    @Test("a psql UPDATE of a course's language moves the data mark; one that changes nothing does not")
    func handUpdateMovesTheMark() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", Self.courses)])
        let psql = try TestStore.shell(f.store)
        let mark = try f.store.database.int("SELECT data FROM data_marks WHERE id = 1")
        try psql.run("UPDATE courses SET language = 'ja' WHERE course_id = 'C2'")
        #expect(try f.store.database.int("SELECT data FROM data_marks WHERE id = 1") == mark + 1)
        try psql.run("UPDATE courses SET language = 'ja' WHERE course_id = 'C2'")
        #expect(try f.store.database.int("SELECT data FROM data_marks WHERE id = 1") == mark + 1)
    }
}
