import Foundation
import Testing

@testable import DashboardCore

@Suite("Report pipeline: group", .storeIndependent)
struct PipelineGroupTests {
    @Test("courses by code in natural order, then by id")
    func courseOrder() {
        let courses = [("M10", "MAT-10"), ("M9", "MAT-9"), ("C9", "BIO"), ("A1", "ART-1"), ("C10", "BIO"), ("C2", "bio")].map {
            ReportCourse(course: ReportSample.course($0.0, code: $0.1), tasks: [])
        }
        #expect(ReportPipeline.group(courses).map(\.course.courseID) == ["A1", "C10", "C9", "C2", "M9", "M10"])
    }

    @Test("tasks in bucket order overdue, today, upcoming, undated, completed, keeping their order inside a bucket")
    func bucketOrder() {
        let course = ReportCourse(
            course: ReportSample.course("X"),
            tasks: [
                ReportSample.task("Tc", "X", "c", bucket: .completed), ReportSample.task("Tu", "X", "u", bucket: .undated),
                ReportSample.task("Tt", "X", "t", bucket: .today), ReportSample.task("To2", "X", "o", bucket: .overdue),
                ReportSample.task("Tp", "X", "p", bucket: .upcoming), ReportSample.task("To1", "X", "o", bucket: .overdue),
            ])
        let groups = ReportPipeline.group([course, ReportCourse(course: ReportSample.course("Y"), tasks: [])])
        #expect(
            ReportSample.summary(groups) == [
                "X overdue: To2 To1", "X today: Tt", "X upcoming: Tp", "X undated: Tu", "X completed: Tc", "Y -",
            ])
        #expect(groups.map(\.liveTasks) == [6, 0])
        #expect(groups.map(\.taskCount) == [6, 0])
    }
}
