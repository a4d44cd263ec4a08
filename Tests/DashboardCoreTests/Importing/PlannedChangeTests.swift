import Testing

@testable import DashboardCore

/// `PlannedChange`: the fields a held batch's change lists, from the two rows' stored values.
@Suite("PlannedChange: what approving would change in one row", .storeIndependent)
struct PlannedChangeTests {
    typealias Field = PlannedChange.Field
    static let live = ["bio", "Lab report 1", "s1", "2026-12-01", "normal", "false", "A-1"]

    @Test func anInsertListsEveryFieldAsNew() {
        let change = PlannedChange(kind: .tasks, action: .insert, id: "t9", old: nil, new: Self.live)
        #expect(change.courseID == "bio")
        #expect(change.title == "Lab report 1")
        #expect(
            change.fields == [
                Field(name: "course_id", old: nil, new: "bio"), Field(name: "title", old: nil, new: "Lab report 1"),
                Field(name: "student_id", old: nil, new: "s1"), Field(name: "due", old: nil, new: "2026-12-01"),
                Field(name: "priority", old: nil, new: "normal"), Field(name: "completed", old: nil, new: "false"),
                Field(name: "assignment_id", old: nil, new: "A-1"),
            ])
    }

    @Test func anUpdateListsOnlyTheFieldsThatDiffer() {
        let new = ["chem", "Lab report 1", "s1", "2026-12-08", "normal", "true", "A-2"]
        let change = PlannedChange(kind: .tasks, action: .update, id: "t1", old: Self.live, new: new)
        #expect(change.courseID == "chem")
        #expect(
            change.fields == [
                Field(name: "course_id", old: "bio", new: "chem"), Field(name: "due", old: "2026-12-01", new: "2026-12-08"),
                Field(name: "completed", old: "false", new: "true"), Field(name: "assignment_id", old: "A-1", new: "A-2"),
            ])
    }

    @Test func aRestoreOfIdenticalValuesChangesNoField() {
        let change = PlannedChange(kind: .tasks, action: .restore, id: "t1", old: Self.live, new: Self.live)
        #expect(change.fields == [])
        #expect(change.title == "Lab report 1")
    }

    @Test func aDeleteListsEveryFieldAsOldAndIgnoresAStagedRow() {
        // A sync that deletes a course deletes its tasks even when they were staged unchanged.
        let change = PlannedChange(kind: .tasks, action: .delete, id: "t1", old: Self.live, new: Self.live)
        #expect(change.fields.map(\.new) == [nil, nil, nil, nil, nil, nil, nil])
        #expect(change.fields.map(\.old) == Self.live.map { Optional($0) })
        #expect(change.courseID == "bio")
    }

    @Test func aCourseIsItsOwnCourse() {
        let old = ["BIO 101", "Biology", "Fall", "Dr. A", ""]
        let new = ["BIO 101", "Biology I", "Fall", "Dr. A", "Europe/Berlin"]
        let change = PlannedChange(kind: .courses, action: .update, id: "bio", old: old, new: new)
        #expect(change.courseID == "bio")
        #expect(change.title == "Biology I")
        #expect(
            change.fields == [
                Field(name: "title", old: "Biology", new: "Biology I"), Field(name: "timezone", old: "", new: "Europe/Berlin"),
            ])
    }

    @Test func jsonGivesCompletedAsABooleanAndAnAbsentSideAsNull() {
        let change = PlannedChange(
            kind: .tasks, action: .update, id: "t1", old: Self.live,
            new: ["bio", "Lab report 1", "s1", "2026-12-01", "high", "true", "A-1"])
        #expect(
            change.json.rendered(indent: 0)
                == #"{"kind":"tasks","action":"update","id":"t1","course":"bio","title":"Lab report 1","fields":{"priority":{"old":"normal","new":"high"},"completed":{"old":false,"new":true}}}"#
        )
        let insert = PlannedChange(
            kind: .courses, action: .insert, id: "geo", old: nil, new: ["GEO", "Geography", "", "", "", "geo@school.example", "de-AT"])
        #expect(
            insert.json.rendered(indent: 0)
                == #"{"kind":"courses","action":"insert","id":"geo","course":"geo","title":"Geography","fields":{"code":{"old":null,"new":"GEO"},"title":{"old":null,"new":"Geography"},"term":{"old":null,"new":""},"teacher":{"old":null,"new":""},"timezone":{"old":null,"new":""},"teacher_email":{"old":null,"new":"geo@school.example"},"language":{"old":null,"new":"de-AT"}}}"#
        )
    }
}
