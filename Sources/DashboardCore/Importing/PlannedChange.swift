/// One change that approving a held batch would make to one course or task
/// (`dashboard batches show ID`), with the fields it changes.
///
/// Policy: a change is what the apply writes, decided by the same plan (`StagingArea`): an
/// insert writes every field, a restore (a tombstone brought back; counted among the
/// inserts) and an update write the fields that differ from the row as it is now, a delete
/// tombstones the row as it is. The diff is a function of the two rows' stored values.
package struct PlannedChange: Equatable, Sendable {
    /// What happens to the row.
    package enum Action: String, CaseIterable, Sendable {
        case insert, restore, update, delete
    }

    /// One field's value before and after (nil: the row does not exist on that side).
    package struct Field: Equatable, Sendable {
        package let name: String
        package let old: String?
        package let new: String?

        package init(name: String, old: String?, new: String?) {
            self.name = name
            self.old = old
            self.new = new
        }
    }

    package let kind: FileKind
    package let action: Action
    package let id: String
    /// The course the row belongs to after the change (before it, for a delete); a course's own id.
    package let courseID: String
    /// The row's title after the change (before it, for a delete).
    package let title: String
    /// Insert: every field, old nil. Restore, update: the fields that change. Delete: every
    /// field, new nil.
    package let fields: [Field]

    /// The stored fields of a row of `kind`, in the order `old`/`new` values are given in.
    /// Courses: code, title, term, teacher, timezone, teacher_email, language. Tasks: course_id,
    /// title, student_id, due, priority, completed (`true`/`false`), assignment_id, status,
    /// submitted_at — the columns the plan compares.
    package static func fieldNames(_ kind: FileKind) -> [String] {
        switch kind {
        case .courses: return ["code", "title", "term", "teacher", "timezone", "teacher_email", "language"]
        case .tasks:
            return ["course_id", "title", "student_id", "due", "priority", "completed", "assignment_id", "status", "submitted_at"]
        }
    }

    /// True for a field a change shows. Policy (SPEC §11): `status` is shown only where it says
    /// more than `completed` on some side (a state of submitted or excused, or one that does not
    /// follow from completed): a completed task is "completed: true", not also "status:
    /// completed", and a file without the column plans exactly as before it. `submitted_at` is
    /// shown on an insert or a delete only when it is not empty; an update shows it when it
    /// changes, as any field.
    private static func shows(_ field: Field, completed: (old: String?, new: String?), action: Action) -> Bool {
        switch field.name {
        case "status":
            func implied(_ state: String?, _ completed: String?) -> Bool {
                guard let state else { return true }
                return state == (completed == "true" ? "completed" : "open")
            }
            return !(implied(field.old, completed.old) && implied(field.new, completed.new))
        case "submitted_at":
            return action == .update || action == .restore || !(field.old ?? field.new ?? "").isEmpty
        default:
            return true
        }
    }

    /// The change from the row's stored values `old` (nil when it does not exist) to `new`
    /// (nil for a delete), each in the order of `fieldNames(kind)`.
    package init(kind: FileKind, action: Action, id: String, old: [String]?, new: [String]?) {
        let names = Self.fieldNames(kind)
        let after = action == .delete ? nil : new
        let before = action == .insert ? nil : old
        func value(_ row: [String]?, _ name: String) -> String? {
            guard let row, let i = names.firstIndex(of: name), i < row.count else { return nil }
            return row[i]
        }
        self.kind = kind
        self.action = action
        self.id = id
        let shown = after ?? before
        self.courseID = kind == .courses ? id : value(shown, "course_id") ?? ""
        self.title = value(shown, "title") ?? ""
        let completed = (value(before, "completed"), value(after, "completed"))
        self.fields = names.compactMap { name in
            let field = Field(name: name, old: value(before, name), new: value(after, name))
            guard Self.shows(field, completed: completed, action: action) else { return nil }
            switch action {
            case .insert, .delete: return field
            case .restore, .update: return field.old == field.new ? nil : field
            }
        }
    }

    /// `{"kind", "action", "id", "course", "title", "fields": {name: {"old", "new"}}}`;
    /// `completed` as a boolean, an absent side as null (docs/json.md).
    package var json: JSONValue {
        func value(_ name: String, _ text: String?) -> JSONValue {
            guard let text else { return .null }
            return name == "completed" ? .bool(text == "true") : .string(text)
        }
        return .object([
            ("kind", .string(kind.rawValue)),
            ("action", .string(action.rawValue)),
            ("id", .string(id)),
            ("course", .string(courseID)),
            ("title", .string(title)),
            (
                "fields",
                .object(fields.map { ($0.name, .object([("old", value($0.name, $0.old)), ("new", value($0.name, $0.new))])) })
            ),
        ])
    }
}

/// What approving a held batch would do now, before its rows are listed: the counts the
/// approval would record and how many changes of each kind and action there are.
package struct HeldPlanSummary: Equatable, Sendable {
    /// The counts `batches approve` would record now, per kind.
    package var counts: [FileKind: ImportCounts]
    /// The number of changes per kind and action (restores are among the counts' inserts).
    package var totals: [FileKind: [PlannedChange.Action: Int]]
    /// Held tasks whose course is gone since: approving rejects them (`unknown_course`).
    package var droppedTasks: Int
    /// Batches committed after the held one: approving then needs `force`.
    package var newerBatches: [Int]

    package init(
        counts: [FileKind: ImportCounts], totals: [FileKind: [PlannedChange.Action: Int]], droppedTasks: Int, newerBatches: [Int]
    ) {
        self.counts = counts
        self.totals = totals
        self.droppedTasks = droppedTasks
        self.newerBatches = newerBatches
    }

    /// The number of changes of `kind` and `action`.
    package func total(_ kind: FileKind, _ action: PlannedChange.Action) -> Int {
        totals[kind]?[action] ?? 0
    }
}
