import Foundation
import Testing

@testable import DashboardCore

/// Issue 29: the language a course's report is written in, read from either store: the course's
/// own `language`, else the database's `settings language`, else English.
@Suite struct ReportLanguageResolutionTests {
    @Test("the language of a course's report: its own, else settings language, else English")
    func resolution() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", CourseLanguageTests.courses)])
        let courses = try f.store.liveCourses(only: [])
        #expect(try f.store.defaultLanguage() == nil)
        #expect(try courses.map { try f.store.reportLanguage(of: $0).text } == ["de-AT", "en", "ja-JP"])
        try f.store.setSetting(.language, to: "fr-CA", actor: "tester", at: ImporterFixture.asOf)
        #expect(try f.store.defaultLanguage()?.text == "fr-CA")
        #expect(try courses.map { try f.store.reportLanguage(of: $0).text } == ["de-AT", "fr-CA", "ja-JP"])
        try f.store.setSetting(.language, to: nil, actor: "tester", at: ImporterFixture.asOf)
        #expect(try f.store.defaultLanguage() == nil)
        #expect(
            try f.store.settingChanges().map { "\($0.key):\($0.oldValue ?? "∅")>\($0.newValue)" }.suffix(2) == [
                "language:∅>fr-CA", "language:fr-CA>",
            ])
    }
}
