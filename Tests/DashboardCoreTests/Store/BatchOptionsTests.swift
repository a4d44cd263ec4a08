import Foundation
import Testing

@testable import DashboardCore

/// `batches.options`: a JSON object of the run's reading options, and the flags text of
/// batches written before it (issue 32), which still reads.
@Suite("BatchOptions: the stored options of a batch, in both forms")
struct BatchOptionsTests {
    static let all = BatchOptions(strict: true, dryRun: true, encoding: .latin1, delimiter: 9, dateOrder: .dmy)

    /// What a run's options are written as, and read back.
    static let written: [(BatchOptions, String)] = [
        (BatchOptions(), "{}"),
        (BatchOptions(strict: true), #"{"strict":true}"#),
        (BatchOptions(dryRun: true), #"{"dry_run":true}"#),
        (BatchOptions(encoding: .windows1252), #"{"encoding":"windows-1252"}"#),
        (BatchOptions(delimiter: UInt8(ascii: ";")), #"{"delimiter":";"}"#),
        (BatchOptions(delimiter: UInt8(ascii: "|"), dateOrder: .mdy), #"{"delimiter":"|","date_order":"mdy"}"#),
        (all, #"{"strict":true,"dry_run":true,"encoding":"latin1","delimiter":"tab","date_order":"dmy"}"#),
    ]

    @Test("options are written as a JSON object of what differs from the defaults, and read back", arguments: written)
    func writtenAndReadBack(options: BatchOptions, text: String) {
        #expect(options.storedText == text)
        #expect(BatchOptions(storedText: text) == options)
    }

    /// The flags text batches were written with before, as the old writer made it.
    static let oldForms: [(String, BatchOptions)] = [
        ("", BatchOptions()),
        ("--strict", BatchOptions(strict: true)),
        ("--dry-run", BatchOptions(dryRun: true)),
        ("--encoding windows-1252 --delimiter |", BatchOptions(encoding: .windows1252, delimiter: UInt8(ascii: "|"))),
        ("--delimiter , --date-order mdy", BatchOptions(delimiter: UInt8(ascii: ","), dateOrder: .mdy)),
        ("--strict --dry-run --encoding latin1 --delimiter tab --date-order dmy", all),
        (
            "--strict --dry-run --encoding latin1 --delimiter ; --date-order dmy",
            BatchOptions(strict: true, dryRun: true, encoding: .latin1, delimiter: UInt8(ascii: ";"), dateOrder: .dmy)
        ),
    ]

    @Test("the flags text of an older batch still reads, and is written again as JSON", arguments: oldForms)
    func oldFlagsTextReads(text: String, options: BatchOptions) throws {
        let read = try #require(BatchOptions(storedText: text))
        #expect(read == options)
        #expect(BatchOptions(storedText: read.storedText) == options)
    }

    @Test(
        "text of neither form reads as nil",
        arguments: [
            "strict", "--bogus", "--delimiter", "--encoding utf-16", "--date-order ymd", "--delimiter ;;",
            #"{"encoding":"utf-16"}"#, #"{"delimiter":"ab"}"#, #"{"date_order":"ymd"}"#, "{", #"{"strict":"yes"}"#,
        ])
    func unreadableText(text: String) {
        #expect(BatchOptions(storedText: text) == nil)
    }

    @Test("an import stores its options as JSON, and the batch reads them back")
    func anImportStoresJSON() throws {
        let f = try ImporterFixture()
        var options = ImporterFixture.options(strict: true, dryRun: true)
        options.encoding = .latin1
        options.delimiter = UInt8(ascii: ";")
        options.dateOrder = .dmy
        try f.run([("courses.csv", ImporterFixture.courses.replacingOccurrences(of: ",", with: ";"))], options)
        try f.run([("courses.csv", ImporterFixture.courses)])
        #expect(
            try f.store.database.rows("SELECT batch_id, options FROM batches ORDER BY batch_id") == [
                [.integer(1), .text(#"{"strict":true,"dry_run":true,"encoding":"latin1","delimiter":";","date_order":"dmy"}"#)],
                [.integer(2), .text("{}")],
            ])
        #expect(
            try f.store.batch(id: 1)?.options
                == BatchOptions(strict: true, dryRun: true, encoding: .latin1, delimiter: UInt8(ascii: ";"), dateOrder: .dmy))
        #expect(try f.store.batch(id: 2)?.options == BatchOptions())
    }

    @Test("a database whose batches hold the older flags text reads them")
    func anOlderDatabaseReads() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses)])
        try f.run([("courses.csv", ImporterFixture.courses)])
        try f.store.database.run(
            "UPDATE batches SET options = ? WHERE batch_id = 1", ["--strict --encoding windows-1252 --delimiter tab --date-order mdy"])
        try f.store.database.run("UPDATE batches SET options = '' WHERE batch_id = 2")
        #expect(
            try f.store.batch(id: 1)?.options == BatchOptions(strict: true, encoding: .windows1252, delimiter: 9, dateOrder: .mdy))
        #expect(try f.store.batch(id: 2)?.options == BatchOptions())
    }
}
