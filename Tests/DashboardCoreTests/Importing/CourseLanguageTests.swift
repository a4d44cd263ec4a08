import Foundation
import Testing

@testable import DashboardCore

/// Issue 29: the courses file's optional `language` column on either store: stored as its
/// canonical tag, read back by the reads reports use, a change of it planned, applied, kept
/// in the history and reverted like any other field; resolved course → database → English.
@Suite struct CourseLanguageTests {
    static let courses = """
        course_id,code,title,timezone,Teaching Language
        C1,MATH,Algebra,America/New_York,de_at
        C2,BIO,Biology,Europe/Berlin,
        C3,ART,Art,,JA-jp
        """

    static func languages(_ f: ImporterFixture) throws -> String {
        try f.store.database.rows("SELECT course_id, language FROM courses ORDER BY course_id").map { row in
            row.map { $0.text ?? "NULL" }.joined(separator: "|")
        }.joined(separator: "\n")
    }

    @Test(arguments: ["language", "lang", "LOCALE", "Course Language", "teaching_language", "Teaching-Language", "\u{FEFF}Lang"])
    func everyAliasNamesTheColumn(header: String) {
        #expect(Column.named(header) == .language)
    }

    @Test func theNormalizerStoresTheCanonicalTagAndRefusesTheRestWithTheHint() throws {
        #expect(try RowNormalizer.language(" de_at ") == "de-AT")
        #expect(try RowNormalizer.language("es-419") == "es-419")
        #expect(try RowNormalizer.language("\u{A0}") == "")
        #expect(throws: FieldProblem.self) { try RowNormalizer.language("zh") }
        do {
            _ = try RowNormalizer.language("pt-BR")
            Issue.record("pt-BR accepted")
        } catch {
            #expect(error.code == .invalidLanguage)
            #expect(error.column == "language")
            #expect(error.value == "pt-BR")
            #expect(error.message == "\"pt-BR\" names a language the reports are not written in (pt)")
            #expect(error.hint == "use a BCP 47 tag of a supported language: en, de, fr, es, ja (e.g. de-AT)")
            #expect(ProblemCode.invalidLanguage.frictionlessType == "type-error")
        }
    }

    @Test("a course's language is stored as its canonical tag and every read of courses a report makes returns it")
    func readsReturnTheLanguage() throws {
        let f = try ImporterFixture()
        let result = try f.run([("courses.csv", Self.courses)])
        #expect(result.counts[.courses] == ImportCounts(read: 3, inserted: 3))
        #expect(try Self.languages(f) == "C1|de-AT\nC2|\nC3|ja-JP")
        #expect(try f.store.liveCourses(only: []).map(\.language) == ["de-AT", "", "ja-JP"])
        #expect(try f.store.liveCourses(only: ["ART"]).map(\.language) == ["ja-JP"])
        #expect(try f.store.courses().map(\.language) == ["de-AT", "", "ja-JP"])
        var streamed: [String] = []
        try f.store.forEachLiveCourse(only: [], countsOnly: true, course: { streamed.append($0.language) }, task: { _ in })
        #expect(streamed == ["de-AT", "", "ja-JP"])
        // The report's per-course results keep it too.
        let kept: [String] = try f.store.read {
            let results = try f.store.courseResults()
            defer { results.drop() }
            try results.add(
                CourseResult(
                    key: [1], course: CourseRecord(courseID: "C1", code: "MATH", title: "Algebra", language: "de-AT"),
                    counts: BucketCounts(), live: 0, completed: 0, linked: false))
            try results.prepareOrderedReading()
            var kept: [String] = []
            try results.forEach(offset: 0, count: nil) { kept.append($0.course.language) }
            return kept
        }
        #expect(kept == ["de-AT"])
    }

    @Test("a change of language is an update of that field: applied, kept in the history, reverted; the same file again changes nothing")
    func aChangeOfLanguageRoundTrips() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", Self.courses)])
        let same = try f.run([("courses.csv", Self.courses)], ImporterFixture.options(.sync))
        #expect(same.counts[.courses] == ImportCounts(read: 3, unchanged: 3))
        // C1 moves to Japanese, C3 loses its language (the cell left empty: the database's).
        let changed = Self.courses.replacingOccurrences(of: "de_at", with: "ja").replacingOccurrences(of: "JA-jp", with: "")
        let update = try f.run([("courses.csv", changed)], ImporterFixture.options(.sync))
        #expect(update.counts[.courses] == ImportCounts(read: 3, updated: 2, unchanged: 1))
        #expect(try Self.languages(f) == "C1|ja\nC2|\nC3|")
        #expect(
            try f.store.database.rows("SELECT course_id, language FROM course_history WHERE batch_id = 3 ORDER BY course_id").map {
                $0.map { $0.text ?? "NULL" }.joined(separator: "|")
            } == ["C1|de-AT", "C3|ja-JP"])
        _ = try Reverter(store: f.store, clock: FixedClock(ImporterFixture.asOf)).revert(
            batchID: 3, force: false, actor: "tester", asOf: ImporterFixture.asOf, defaultTimeZone: TimeZone(identifier: "UTC") ?? .current)
        #expect(try Self.languages(f) == "C1|de-AT\nC2|\nC3|ja-JP")
    }

    @Test("a held sync plans a change of language as a field change, and its approval applies it")
    func aHeldSyncPlansTheLanguage() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", Self.courses)])
        // C2 gone (a delete over the limit: held), C1 to Spanish.
        let next = """
            course_id,code,title,timezone,language
            C1,MATH,Algebra,America/New_York,ES-419
            C3,ART,Art,,ja-JP
            """
        let held = try f.run([("courses.csv", next)], ImporterFixture.options(.sync, maxDelete: .count(0)))
        try #require(held.status == .held)
        let heldID = try #require(held.batchID)
        #expect(try Self.languages(f) == "C1|de-AT\nC2|\nC3|ja-JP")
        #expect(
            try f.store.database.rows("SELECT course_id, language FROM held_courses ORDER BY course_id").map { $0[1].text } == [
                "es-419", "ja-JP",
            ])
        var updates: [PlannedChange] = []
        try f.store.readHeldPlan(batchID: heldID) { plan in
            try plan.forEachChange(.courses, .update, limit: 0) { updates.append($0) }
        }
        #expect(updates.map(\.id) == ["C1"])
        #expect(updates.first?.fields == [PlannedChange.Field(name: "language", old: "de-AT", new: "es-419")])
        let approved = try f.importer.approve(batchID: heldID, asOf: ImporterFixture.asOf, actor: "tester")
        #expect(approved.counts[.courses]?.updated == 1)
        #expect(try Self.languages(f) == "C1|es-419\nC2|\nC3|ja-JP")
        #expect(try f.store.database.int("SELECT count(*) FROM courses WHERE deleted_batch IS NULL") == 2)
    }

    @Test("a row whose language is refused is rejected on its line, the others imported; a sync keeps the live row's language")
    func aRefusedLanguageRejectsItsRowOnly() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", Self.courses)])
        let next = Self.courses.replacingOccurrences(of: "de_at", with: "de--AT").replacingOccurrences(of: "JA-jp", with: "zh")
        let result = try f.run([("courses.csv", next)], ImporterFixture.options(.sync))
        #expect(result.counts[.courses] == ImportCounts(read: 3, unchanged: 1, rejected: 2))
        #expect(
            result.problems.map { "\($0.line) \($0.column) \($0.code.rawValue) \($0.value) \($0.message)" } == [
                "2 language invalid_language de--AT \"de--AT\" is not a BCP 47 language tag",
                "4 language invalid_language zh \"zh\" names a language the reports are not written in (zh)",
            ])
        #expect(try Self.languages(f) == "C1|de-AT\nC2|\nC3|ja-JP")
    }
}

/// SQLite's migration 12 of a file of schema 11 (PostgreSQL's upgrade from version 10:
/// `PGCourseLanguageTests`).
@Suite(.storeIndependent) struct CourseLanguageMigrationTests {
    @Test("a file of schema 11: a reader reads every language as '', a writer adds the column keeping every row")
    func schemaElevenFile() throws {
        let f = try UnchangedRowsTests.imported(sqlite: true)
        try f.run([("courses.csv", "course_id,code,title,teacher_email\nC1,MATH,Algebra,ann@school.example\nC2,BIO,Biology,\n")])
        let before = try f.dump("tasks")
        try f.store.database.execute(
            """
            DROP TRIGGER courses_language_written;
            ALTER TABLE courses DROP COLUMN language; ALTER TABLE course_history DROP COLUMN language;
            ALTER TABLE held_courses DROP COLUMN language;
            PRAGMA user_version = 11;
            """)
        let reader = try Store(readOnlyPath: f.path)
        #expect(reader.schemaVersion == 11)
        #expect(try reader.liveCourses(only: []).map(\.language) == ["", ""])
        #expect(try reader.courses().map(\.language) == ["", ""])
        var problems: [VerificationProblem] = []
        try reader.verify { problems.append($0) }
        #expect(problems.isEmpty, "\(problems)")

        let writer = try Store(path: f.path)
        #expect(writer.schemaVersion == Schema.currentVersion)
        #expect(try writer.database.int("SELECT count(*) FROM sqlite_schema WHERE name = 'courses_language_written'") == 1)
        #expect(
            try writer.database.rows("SELECT course_id, teacher_email, language FROM courses ORDER BY 1").map {
                $0.map { $0.text ?? "NULL" }.joined(separator: "|")
            } == ["C1|ann@school.example|", "C2||"])
        #expect(try writer.database.rows("SELECT \(TestStore.dataColumns("tasks")) FROM tasks ORDER BY 1, 2") == before)
        // A language now imports, and a hand edit of one moves the data mark.
        let importer = Importer(store: writer, clock: FixedClock(ImporterFixture.asOf))
        let result = try importer.run(
            files: [InputFile.inMemory("courses.csv", "course_id,code,title,teacher_email,lang\nC1,MATH,Algebra,ann@school.example,fr\n")],
            options: ImporterFixture.options())
        #expect(result.counts[.courses] == ImportCounts(read: 1, updated: 1))
        let mark = try writer.database.int("SELECT data FROM data_marks")
        try writer.database.run("UPDATE courses SET language = 'de' WHERE course_id = 'C2'")
        #expect(try writer.database.int("SELECT data FROM data_marks") == mark + 1)
        try writer.verify { problems.append($0) }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("verify names a stored language no import would write")
    func verifyNamesABadLanguage() throws {
        let f = try ImporterFixture(sqlite: true)
        try f.run([("courses.csv", CourseLanguageTests.courses)])
        try f.store.database.run("UPDATE courses SET language = 'de_at' WHERE course_id = 'C1'")
        try f.store.database.run("UPDATE courses SET language = 'klingon' WHERE course_id = 'C2'")
        var problems: [VerificationProblem] = []
        try f.store.verify { problems.append($0) }
        #expect(problems.map { "\($0.key) \($0.column)" } == ["C1 language", "C2 language"])
        #expect(problems.first?.rule == "must be a BCP 47 tag of en, de, fr, es, ja in its canonical case, such as de-AT (or empty)")
    }
}
