import DashboardCore

/// How the counts of a batch are worded wherever a person reads them (`import`'s summary line,
/// `batches list|show`, `status`, `nightly`'s messages).
///
/// Policy (issue 14, SPEC §5): only a committed batch (or one reverted since) changed the data,
/// so only its counts read "inserted / updated / deleted". Every other batch — a dry run, a
/// held, failed, discarded or approved one (an approval applies the rows as a new batch), or
/// one still running — changed nothing: its counts read "would insert / would update / would
/// delete". Rejected rows and warnings are findings of the run, not changes, and keep their
/// words; so do "read" and "unchanged". JSON keeps its keys (`inserted`, …) with `status`
/// beside them.
enum BatchCountWords {
    /// True when the batch's counts are changes that happened.
    static func happened(_ status: BatchStatus) -> Bool {
        status == .committed || status == .reverted
    }

    /// `104 rows read, 97 inserted, 0 updated, 7 unchanged, 0 deleted, 2 rejected, 1 warnings`,
    /// or with "would insert 97, would update 0, …, would delete 0" for a batch that changed
    /// nothing.
    static func summary(_ t: ImportCounts, happened: Bool) -> String {
        let n = Format.number
        let changes =
            happened
            ? "\(n(t.inserted)) inserted, \(n(t.updated)) updated, \(n(t.unchanged)) unchanged, \(n(t.deleted)) deleted"
            : "would insert \(n(t.inserted)), would update \(n(t.updated)), \(n(t.unchanged)) unchanged, would delete \(n(t.deleted))"
        return "\(n(t.read)) rows read, \(changes), \(n(t.rejected)) rejected, \(n(t.warnings)) warnings"
    }

    /// `status`'s shorter line: `104 read, 97 inserted, 0 updated, 0 deleted, 2 rejected`, or
    /// its "would" form.
    static func short(_ t: ImportCounts, happened: Bool) -> String {
        let changes =
            happened
            ? "\(t.inserted) inserted, \(t.updated) updated, \(t.deleted) deleted"
            : "would insert \(t.inserted), would update \(t.updated), would delete \(t.deleted)"
        return "\(t.read) read, \(changes), \(t.rejected) rejected"
    }

    /// The headings of `batches show`'s count table.
    static func tableHeader(happened: Bool) -> [String] {
        happened
            ? ["KIND", "READ", "INSERTED", "UPDATED", "UNCHANGED", "DELETED", "REJECTED", "WARNINGS"]
            : ["KIND", "READ", "WOULD INSERT", "WOULD UPDATE", "UNCHANGED", "WOULD DELETE", "REJECTED", "WARNINGS"]
    }

    /// A count in `batches list`'s INS/UPD/DEL columns: in parentheses when it would have been
    /// (the table's footnote, `listFootnote`, says so).
    static func listCell(_ count: Int, happened: Bool) -> String {
        happened ? String(count) : "(\(count))"
    }

    /// The line under `batches list` when a row's counts are in parentheses.
    static let listFootnote =
        "(N): would insert, update or delete; that batch (dry_run, held, failed, discarded, approved) changed nothing\n"
}
