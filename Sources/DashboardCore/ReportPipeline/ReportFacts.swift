import Foundation

/// Facts about the database, and about the run that writes the reports, that reports need
/// beyond the courses and tasks: they decide the banner (`StaleNotice`).
package struct ReportFacts: Sendable, Equatable {
    /// False before any batch committed data.
    package var hasData: Bool
    /// The as-of of the last committed batch.
    package var dataAsOf: Date?
    /// The last batch that is neither a dry run nor held, when it failed.
    package var lastFailure: (id: Int, at: String, reason: String)?
    /// A batch held for approval, newer than the data shown: its changes are not in the reports.
    package var held: HeldNotice?
    /// The run that writes the reports found no export to import (`nightly` with an empty or
    /// missing drop folder); never a fact of the database.
    package var noExport: Bool
    /// The reader's database role when row-level security lets it see no course at all
    /// (PostgreSQL, `dashboard access`): the report's state is `noCourses`.
    package var roleWithoutCourses: String?
    /// What changed since the previous import (`Overnight.read`), nil before a committed import
    /// or when the caller did not read it.
    package var overnight: Overnight?

    package static func == (a: ReportFacts, b: ReportFacts) -> Bool {
        a.hasData == b.hasData && a.dataAsOf == b.dataAsOf && a.lastFailure?.id == b.lastFailure?.id && a.held == b.held
            && a.noExport == b.noExport && a.roleWithoutCourses == b.roleWithoutCourses && a.overnight == b.overnight
    }

    package init(
        hasData: Bool, dataAsOf: Date?, lastFailure: (id: Int, at: String, reason: String)?, held: HeldNotice? = nil,
        noExport: Bool = false
    ) {
        self.hasData = hasData
        self.dataAsOf = dataAsOf
        self.lastFailure = lastFailure
        self.held = held
        self.noExport = noExport
    }

    /// Data older than this before the report's as-of is stale.
    package static let staleAfterHours = 36

    /// The banner to show, if any: when the last import failed, a batch waits for approval,
    /// no export arrived, or the data is older than `staleAfterHours`.
    package func staleNotice(asOf: Date) -> StaleNotice? {
        var notice = StaleNotice(
            dataAsOf: "", ageHours: 0, failedBatch: lastFailure?.id, failedAt: lastFailure?.at ?? "",
            failureReason: lastFailure?.reason ?? "", held: held, noExport: noExport)
        let warned = lastFailure != nil || held != nil || noExport
        guard let dataAsOf else { return warned ? notice : nil }
        let seconds = asOf.timeIntervalSince(dataAsOf)
        guard warned || seconds > TimeInterval(Self.staleAfterHours * 3600) else { return nil }
        notice.dataAsOf = Timestamp.text(dataAsOf)
        notice.ageHours = max(0, Int(seconds / 3600))
        return notice
    }
}

/// A batch held for approval (a sync over `--max-delete`) that is newer than the data shown.
public struct HeldNotice: Sendable, Equatable {
    public var batch: Int
    /// The as-of of the run that held it (the night whose export waits).
    public var since: String
    /// The rows it would insert, update or delete.
    public var changes: Int

    public init(batch: Int, since: String, changes: Int) {
        self.batch = batch
        self.since = since
        self.changes = changes
    }
}

/// Why the data may not be current: a banner above the report, in two voices. `message` and
/// `nextStep` speak to whoever runs the import (text, JSON, CSV); `readerMessage` speaks to a
/// teacher reading a page (HTML and Markdown pages written for readers: no batch, flag or
/// command, "your administrator has the details").
public struct StaleNotice: Sendable, Equatable {
    /// The as-of of the last committed batch: the time of the data shown ("" before any).
    public var dataAsOf: String
    /// Hours between the data's time and the report's as-of.
    public var ageHours: Int
    /// Set when the last import failed: its batch, time and reason.
    public var failedBatch: Int?
    public var failedAt: String
    public var failureReason: String
    /// A batch waiting for approval, newer than the data.
    public var held: HeldNotice?
    /// No export arrived for the run that wrote the report.
    public var noExport: Bool = false

    /// The banner's text, the values exactly as stored.
    public var message: String { message(prose: { $0 }, value: { $0 }) }

    /// The banner's text with its own words passed through `prose` and the values read from the
    /// database (the failed batch's time and reason, which may name a file, and the data's
    /// time) through `value`: HTML escapes the words and isolates the values.
    package func message(prose: (String) -> String, value: (String) -> String) -> String {
        var text = ""
        if noExport { text += prose("No export arrived tonight. ") }
        if let held {
            text +=
                prose("Batch \(held.batch) (held since ") + value(held.since)
                + prose(") holds \(Self.changes(held.changes)) that wait for approval. ")
        }
        if let failedBatch {
            text +=
                prose("The last import (batch \(failedBatch), ") + value(failedAt) + prose(") failed: ") + value(failureReason)
                + prose(". ")
        }
        if dataAsOf.isEmpty { return text + prose("No data has been imported yet.") }
        return text + prose("Showing data as of ") + value(dataAsOf) + prose(" (\(age)).")
    }

    /// The banner for a teacher: what it means for the page, in words without batches, flags
    /// or commands ("No export arrived tonight; this page shows data as of …").
    /// - Parameters:
    ///   - zone: the zone its times are shown in, as the page's header (nil: UTC).
    ///   - shown: what the reader is reading ("this page"; the morning digest's "this message").
    package func readerMessage(
        in zone: TimeZone? = nil, shown: String = "this page", prose: (String) -> String = { $0 }, value: (String) -> String = { $0 }
    ) -> String {
        var clauses: [String] = []
        if noExport { clauses.append(prose("no export arrived tonight")) }
        if let held {
            clauses.append(
                prose("\(Self.changes(held.changes)) from a newer export wait for approval since ")
                    + value(Self.readable(held.since, in: zone)))
        }
        if failedBatch != nil { clauses.append(prose("the last import failed")) }
        clauses.append(
            dataAsOf.isEmpty
                ? prose("no data has been imported yet")
                : prose(shown + " shows data as of ") + value(Self.readable(dataAsOf, in: zone)) + prose(" (\(age))"))
        let joined = clauses.joined(separator: prose("; "))
        let text = joined.prefix(1).uppercased() + joined.dropFirst()
        return text + prose(".") + (failedBatch != nil || held != nil ? prose(" Your administrator has the details.") : "")
    }

    /// `readerMessage` in `lexicon`'s words (a teacher's page in their language, issue 29); in
    /// English, exactly `readerMessage`.
    /// - Parameter forMessage: the words of a message (the digest: "this message shows data as
    ///   of …"), not a page's.
    package func readerMessage(
        _ lexicon: Lexicon, in zone: TimeZone? = nil, forMessage: Bool = false, prose: (String) -> String = { $0 },
        value: (String) -> String = { $0 }
    ) -> String {
        guard lexicon != .english else {
            return readerMessage(in: zone, shown: forMessage ? "this message" : "this page", prose: prose, value: value)
        }
        let utc = TimeZone(identifier: "UTC") ?? .current
        let readable = { (stored: String) in Timestamp.parse(stored, timeZone: utc).map { lexicon.asOf($0, in: zone) } ?? stored }
        var clauses: [String] = []
        if noExport { clauses.append(prose(lexicon(.noExportTonight))) }
        if let held { clauses.append(lexicon.markup(.heldChanges, count: held.changes, value(readable(held.since)), escape: prose)) }
        if failedBatch != nil { clauses.append(prose(lexicon(.lastImportFailed))) }
        let age = ageHours >= 48 ? lexicon.count(.daysOld, ageHours / 24) : lexicon.count(.hoursOld, ageHours)
        clauses.append(
            dataAsOf.isEmpty
                ? prose(lexicon(.noDataYet))
                : lexicon.markup(
                    forMessage ? .messageShowsDataAsOf : .pageShowsDataAsOf, value(readable(dataAsOf)), prose(age), escape: prose))
        let joined = clauses.joined(separator: prose(lexicon(.clauseSeparator)))
        let text = joined.prefix(1).uppercased() + joined.dropFirst()
        let sentence = lexicon.markup(.sentence, text, escape: prose)
        return sentence + (failedBatch != nil || held != nil ? prose(" " + lexicon(.administratorHasDetails)) : "")
    }

    /// What to do about it, its commands in `wording`.
    package func nextStep(_ wording: ReportWording) -> String {
        var steps: [String] = []
        if let failedBatch { steps.append("Fix the import (\(wording.words(.showBatch(failedBatch)))) and run it again.") }
        if let held { steps.append("Review the held batch (\(wording.words(.showBatch(held.batch)))), then approve or discard it.") }
        if noExport { steps.append("Check that tonight's export reached the drop folder, then run the nightly import again.") }
        if steps.isEmpty { steps.append("Run the nightly import (\(wording.words(.runImport))), then report again.") }
        return steps.joined(separator: " ")
    }

    /// "26 hours old", "3 days old".
    var age: String {
        ageHours >= 48 ? "\(ageHours / 24) days old" : "\(ageHours) hour\(ageHours == 1 ? "" : "s") old"
    }

    /// A stored UTC time as a reader reads it, in the page's zone: `2026-11-29T02:00:00Z` →
    /// `2026-11-29 02:00 UTC`, `2026-11-29 03:00 Europe/Berlin` (any other text as it is).
    static func readable(_ stored: String, in zone: TimeZone?) -> String {
        let bytes = Array(stored.utf8)
        guard bytes.count == 20, bytes[10] == UInt8(ascii: "T"), bytes[19] == UInt8(ascii: "Z"),
            let date = Timestamp.parse(stored, timeZone: TimeZone(identifier: "UTC") ?? .current)
        else { return stored }
        return ReportWords.asOf(date, in: zone)
    }

    static func changes(_ count: Int) -> String { "\(count) change\(count == 1 ? "" : "s")" }
}
