/// The audit log as JSON, CSV and text (`dashboard audit`), documented in docs/json.md.
extension AuditEntry {
    package var json: JSONValue {
        .object([
            ("entry_id", derived ? .null : .int(id)), ("recorded_at", .string(recordedAt)), ("as_of", .string(asOf)),
            ("task_id", .string(taskID)), ("task_title", .string(taskTitle)), ("course_id", .string(courseID)),
            ("from", .string(fromBucket)), ("to", .string(toBucket)), ("cause", .string(cause.rawValue)),
            ("actor", .string(actor)), ("reason", .string(reason)),
            ("batch_id", batchID.map { .int($0) } ?? .null),
            ("reverts", revertsEntry.map { .int($0) } ?? .null),
            ("reverted_by", .array(revertedBy.map { .int($0) })),
            ("conflict", .bool(conflict)),
            ("override_until", overrideUntil.isEmpty ? .null : .string(overrideUntil)),
            ("override_before", overrideBefore.map { .int($0) } ?? .null),
            ("group", groupID.map { .int($0) } ?? .null), ("derived", .bool(derived)),
        ])
    }

    /// The note of a derived birth line in text: what it is and where it comes from.
    package var derivedNote: String {
        "derived: created by batch \(batchID.map(String.init) ?? "?") in bucket \(toBucket) (a birth is not stored as an entry)"
    }

    /// The CSV header of `csvRow`.
    package static let csvHeader = [
        "entry_id", "recorded_at", "as_of", "task_id", "task_title", "course_id", "from", "to", "cause", "actor", "reason", "batch_id",
        "reverts", "reverted_by", "conflict", "override_until", "group", "derived",
    ]

    package var csvRow: [String] {
        [
            derived ? "" : String(id), recordedAt, asOf, taskID, taskTitle, courseID, fromBucket, toBucket, cause.rawValue, actor, reason,
            batchID.map(String.init) ?? "", revertsEntry.map(String.init) ?? "", revertedBy.map(String.init).joined(separator: " "),
            conflict ? "true" : "false", overrideUntil, groupID.map(String.init) ?? "", derived ? "true" : "false",
        ]
    }
}
