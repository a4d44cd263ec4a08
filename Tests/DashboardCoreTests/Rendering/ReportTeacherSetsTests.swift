import Foundation
import Testing

@testable import DashboardCore

/// Issue 27, item 12: the per-teacher sets on random data, courses without a teacher included:
/// each folder holds exactly its courses, the courses without a teacher are in
/// `teachers/unassigned/`, and a set read by a scan of every course (more courses than
/// `ReportTeacherSets.largestIDList`) is the set read by its ids, byte for byte.
@Suite struct ReportTeacherSetsTests {
    @Test("every folder holds exactly its courses, by ids or by a scan alike")
    func foldersByIDsOrByAScan() throws {
        for seed in UInt64(1)...20 {
            var random = StreamingReportRandomData(seed: seed)
            let courses = random.courses()
            let (fixture, store) = try StreamingReportStoreTests.database(courses, random: &random)
            var query = ReportQuery()
            query.wording = .commandLineCopy
            let (byIDs, byScan) = (MemoryReportFiles(), MemoryReportFiles())
            let written = try ReportTeacherSets.write(
                store, facts: StreamingReportStoreTests.facts, query: query, asOf: StreamingReportStoreTests.asOf,
                defaultTimeZone: StreamingReportStoreTests.utc, formats: [.json, .text], width: 100, to: "out", fileSystem: byIDs)
            let scanned = try ReportTeacherSets.write(
                store, facts: StreamingReportStoreTests.facts, query: query, asOf: StreamingReportStoreTests.asOf,
                defaultTimeZone: StreamingReportStoreTests.utc, formats: [.json, .text], width: 100, to: "out", fileSystem: byScan,
                idListLimit: 0)
            #expect(written == scanned, "seed \(seed)")
            #expect(byIDs.files == byScan.files, "seed \(seed)")
            let unassigned = courses.filter { $0.course.teacher.isEmpty }.map(\.course.courseID).sorted()
            #expect(written.unassignedCourses == unassigned.count, "seed \(seed)")
            let grid = byIDs.files["out/teachers/unassigned/index.json"]
            #expect((grid != nil) == !unassigned.isEmpty, "seed \(seed)")
            if let grid {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(grid.utf8)) as? [String: Any])
                let ids = ((object["courses"] as? [[String: Any]]) ?? []).compactMap { $0["course_id"] as? String }.sorted()
                #expect(ids == unassigned, "seed \(seed)")
                #expect(byIDs.files["out/teachers/unassigned/index.txt"]?.hasPrefix("Courses without a teacher as of ") == true)
            }
            for teacher in Set(courses.map(\.course.teacher)) where !teacher.isEmpty {
                let own = courses.filter { $0.course.teacher == teacher }.map(\.course.courseID).sorted()
                let page = try #require(byIDs.files["out/teachers/\(TeacherIndex.folderName(teacher))/index.json"], "seed \(seed)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(page.utf8)) as? [String: Any])
                let ids = ((object["courses"] as? [[String: Any]]) ?? []).compactMap { $0["course_id"] as? String }.sorted()
                #expect(ids == own, "seed \(seed): \(teacher)")
            }
            _ = fixture
        }
    }
}
