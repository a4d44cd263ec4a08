import Foundation

/// Bulk `dashboard reclassify`: the report's selection instead of one task id, previewed first.
extension ManualOverride {
    /// The tasks `selection` would pin, as of its as-of, without writing anything.
    ///
    /// Policy: the reason is checked as `--yes` would check it, so a preview that succeeds
    /// applies with the same words; the selection is `BulkReclassify.plan`'s.
    /// - Throws: `AuditError` (the reason, the end, a selection over the limit); the store's
    ///   read errors as they are.
    package static func preview(_ reader: any ReportReading & ChangeMarksReading, selection: BulkSelection, reason: String) throws
        -> BulkPlan
    {
        _ = try checkedReason(reason)
        return try BulkReclassify.plan(reader, selection)
    }

    /// Pins every task `selection` gives now (skipping those already pinned so), one `override`
    /// entry each, all under one new group, in one write transaction.
    /// - Parameter confirm: the preview's token; when given, a selection that is no longer the
    ///   previewed one is refused (`AuditError.selectionChanged`) and nothing is written.
    /// - Returns: the plan applied: its group (nil when nothing was to pin) and each task's entry.
    package func reclassify(selection: BulkSelection, reason: String, actor: String, confirm: String?) throws(AuditError) -> BulkPlan {
        let reasonText = try Self.checkedReason(reason)
        return try store.pinOverrides(
            BulkOverrideRequest(selection: selection, reason: reasonText, actor: actor, confirm: confirm, clock: clock))
    }
}
