import Testing

@testable import DashboardCore

/// The reasons the categorizer stores for an override an import met: plain words now, the
/// command line's flag before (issue 32); both read, and both are shown in one wording.
@Suite("ImportOverrideReason: stored in plain words, read in either wording", .storeIndependent)
struct ImportOverrideReasonTests {
    static let oldCleared = "the import cleared override #7 (pinned to upcoming); --override-manual"
    static let newCleared = "the import cleared override #7 (pinned to upcoming); the import was told to override manual pins"
    static let oldKept =
        "the import changed this task while override #12 pins it to excused; the override was kept (import --override-manual lets the import win)"
    static let newKept =
        "the import changed this task while override #12 pins it to excused; the override was kept (an import told to override manual pins lets the import win)"

    static let stored: [(String, ImportOverrideReason)] = [
        (oldCleared, .cleared(entry: 7, pinned: "upcoming")),
        (newCleared, .cleared(entry: 7, pinned: "upcoming")),
        (oldKept, .kept(entry: 12, pinned: "excused")),
        (newKept, .kept(entry: 12, pinned: "excused")),
    ]

    @Test("a stored reason of either wording reads as the same reason", arguments: stored)
    func readsEitherWording(text: String, reason: ImportOverrideReason) {
        #expect(ImportOverrideReason(stored: text) == reason)
    }

    @Test("the reason is stored in plain words and shown in the command line's as before")
    func storedPlainShownAsBefore() {
        #expect(ImportOverrideReason.cleared(entry: 7, pinned: "upcoming").stored == Self.newCleared)
        #expect(ImportOverrideReason.kept(entry: 12, pinned: "excused").stored == Self.newKept)
        #expect(ImportOverrideReason.cleared(entry: 7, pinned: "upcoming").text(.commandLineCopy) == Self.oldCleared)
        #expect(ImportOverrideReason.kept(entry: 12, pinned: "excused").text(.commandLineCopy) == Self.oldKept)
    }

    @Test(
        "any other reason is not one",
        arguments: [
            "", "extension granted", "revert of entry 4 (override)", "override #3 (pinned to today) expired at 2026-12-01",
            "the import cleared override #x (pinned to today); --override-manual",
            "the import cleared override #3 (pinned to today)",
            "the import changed this task while override #3 pins it to today; the override was kept",
        ])
    func otherReasons(text: String) {
        #expect(ImportOverrideReason(stored: text) == nil)
    }

    static func entry(cause: AuditCause, reason: String) -> AuditEntry {
        AuditEntry(
            id: 2, recordedAt: "2026-11-29T08:00:00Z", asOf: "2026-11-29T08:00:00Z", taskID: "t1", courseID: "bio",
            fromBucket: "today", toBucket: "upcoming", cause: cause, actor: "cron", reason: reason, batchID: 2, revertsEntry: nil,
            revertedBy: [], conflict: false, overrideUntil: "", overrideBefore: 1)
    }

    @Test("an import's or a restore's entry is worded whichever form it holds; a teacher's reason never")
    func wordedEntries() {
        for text in [Self.oldCleared, Self.newCleared] {
            #expect(Self.entry(cause: .import, reason: text).worded(.commandLineCopy).reason == Self.oldCleared)
            #expect(Self.entry(cause: .restore, reason: text).worded(.plain).reason == Self.newCleared)
            // A teacher may write anything as the reason of a pin: it is shown as written.
            #expect(Self.entry(cause: .override, reason: text).worded(.commandLineCopy).reason == text)
        }
        #expect(Self.entry(cause: .import, reason: "").worded(.commandLineCopy) == Self.entry(cause: .import, reason: ""))
    }
}
