import Foundation

/// What one categorization pass changed.
public struct CategorizeResult: Sendable, Equatable {
    /// Live tasks looked at.
    public var tasks = 0
    /// Audit entries recorded.
    public var entries = 0
    /// Entries per cause.
    public var byCause: [AuditCause: Int] = [:]
    /// Overrides that expired in this pass.
    public var expiredOverrides = 0
    /// Tasks an import changed while an override pins them (the override was kept).
    public var conflicts = 0
    /// Overrides an import cleared (`--override-manual`).
    public var clearedOverrides = 0
}

/// `dashboard categorize`: recomputes buckets and records every change in the audit log.
///
/// The decisions are this type's (`Categorizer.decide`, `Categorizer.deleted`: which bucket,
/// which cause, what gets an entry); the store (`BucketWriting`) reads the tasks a pass looks
/// at, hands each one to them as a `PassCandidate` and writes the `BucketChange`s they return.
/// `BucketPolicy` decides every bucket (an override in force wins, else the computed bucket),
/// in each course's zone from `CourseZones`; only tasks whose bucket changes get a write and an
/// entry, so running it twice with the same as-of records nothing.
package final class Categorizer {
    package let store: any BucketWriting
    private let clock: Clock

    package init(store: any BucketWriting, clock: Clock = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    /// `dashboard categorize`: one pass in its own write transaction, with an empty plan (no
    /// batch changed data: every entry it records has cause `time`).
    /// - Throws: `StoreError` (`busy` when an import holds the lock).
    package func categorize(asOf: Date, defaultTimeZone: TimeZone, actor: String) throws(StoreError) -> CategorizeResult {
        try store.categorize(asOf: asOf, defaultTimeZone: defaultTimeZone, actor: actor, clock: clock)
    }

    /// What is being categorized and why.
    package struct PassContext: Sendable {
        package var asOf: Date
        package var defaultTimeZone: TimeZone
        package var actor: String
        package var recordedAt: Date
        /// The batch whose data changes (the pass's `ImportPlan`) this pass follows, if any.
        package var batchID: Int?
        /// Entries for tasks in the plan get this cause: `import` after an import, `revert`
        /// after a revert.
        package var planCause: AuditCause = .import
        package var planReason = ""
        /// An import run with `--override-manual`: changed overridden tasks lose their override.
        package var overrideManual = false
        /// The plan's tasks without an override already have their bucket and their entry
        /// (recorded from the staged buckets); the pass leaves them alone.
        package var planBucketsRecorded = false

        package init(
            asOf: Date, defaultTimeZone: TimeZone, actor: String, recordedAt: Date, batchID: Int? = nil, planCause: AuditCause = .import,
            planReason: String = "", overrideManual: Bool = false, planBucketsRecorded: Bool = false
        ) {
            self.asOf = asOf
            self.defaultTimeZone = defaultTimeZone
            self.actor = actor
            self.recordedAt = recordedAt
            self.batchID = batchID
            self.planCause = planCause
            self.planReason = planReason
            self.overrideManual = overrideManual
            self.planBucketsRecorded = planBucketsRecorded
        }
    }
}
