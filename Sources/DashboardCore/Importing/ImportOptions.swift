import Foundation

/// How an import treats rows missing from the files.
public enum ImportMode: String, Sendable, CaseIterable, Codable {
    /// Insert new rows and update changed ones; never delete.
    case merge
    /// Also soft-delete live rows of each imported kind that the files no longer hold.
    case sync
}

/// The most a sync import may delete of one kind before it is held for approval.
public enum DeleteLimit: Equatable, Sendable, CustomStringConvertible {
    /// A share of the live rows of that kind, in percent.
    case percent(Double)
    /// An absolute number of rows.
    case count(Int)

    /// Parses `10%`, `2.5%` or `500`; nil for anything else.
    public init?(_ text: String) {
        let trimmed = text.trimmingUnicodeWhitespace()
        if trimmed.hasSuffix("%") {
            guard let value = Double(trimmed.dropLast()), value >= 0, value <= 100 else { return nil }
            self = .percent(value)
        } else {
            guard let value = Int(trimmed), value >= 0 else { return nil }
            self = .count(value)
        }
    }

    public var description: String {
        switch self {
        case .percent(let p):
            return p == p.rounded() ? "\(Int(p))%" : "\(p)%"
        case .count(let n): return String(n)
        }
    }

    /// True when deleting `deleted` of `live` rows stays within the limit.
    package func allows(deleted: Int, live: Int) -> Bool {
        switch self {
        case .count(let n): return deleted <= n
        case .percent(let p):
            guard deleted > 0 else { return true }
            guard live > 0 else { return false }
            return Double(deleted) * 100 <= p * Double(live)
        }
    }
}

/// Everything that shapes one import run.
public struct ImportOptions: Sendable {
    public var mode: ImportMode = .merge
    public var maxDelete: DeleteLimit = .percent(10)
    /// Any rejected row fails the whole run.
    public var strict = false
    /// Validate and count, write no data (a `dry_run` batch is still recorded).
    public var dryRun = false
    public var encoding: InputEncoding = .utf8
    /// nil detects the delimiter from each file's header.
    public var delimiter: UInt8?
    public var dateOrder: DateOrder?
    /// The instant the run is "as of" (the injected clock).
    public var asOf: Date = Date()
    /// Who ran it (recorded in the batch).
    public var actor = ""
    /// Bytes read from the source at a time.
    package var chunkSize = 64 * 1024
    /// The time zone of courses that name none (`--timezone`, else UTC) while the database has
    /// recorded none: the first import records it, and from then on the database's decides
    /// (SPEC §4; the commands and `DashboardDatabase` read it before they import).
    public var timeZone = TimeZone(identifier: "UTC") ?? TimeZone.current
    /// Let the import win over manual overrides of the tasks it changes.
    public var overrideManual = false
    /// How the run words its hints (a held batch's reason, the delete limit, a problem's hint):
    /// plain words unless the shell that runs it gives its own (`ImportHint`).
    package var wording = ImportWording.plain
    /// Stage the tasks even into a database without tasks, instead of writing them directly
    /// (`DirectTaskWriter`): the tests run both paths and compare them.
    package var forceStaging = false
    /// May an identical re-import skip reading and comparing its rows when the data is proven
    /// unchanged (`Importer.unchangedBasis`)? The tests turn it off to compare both ways.
    package var skipProvenUnchanged = true
    /// Normalize and compare every row, instead of skipping those whose print a live task
    /// keeps (`UnchangedRows`)? The tests turn it on to compare both ways.
    package var compareEveryRow = false
    /// Read tasks rows on their bytes (`ByteRowNormalizer`), leaving to `RowNormalizer` only the
    /// rows the byte path is not sure of? The tests turn it off to compare both ways.
    package var readsBytes = true

    public init() {}
}

/// One input file: its display name and a way to open it (injected for tests).
public struct InputFile: Sendable {
    public let path: String
    public let size: Int
    private let opener: @Sendable () throws -> ByteSource

    package init(path: String, size: Int, open: @escaping @Sendable () throws -> ByteSource) {
        self.path = path
        self.size = size
        self.opener = open
    }

    package func open() throws -> ByteSource { try opener() }

    /// A file on disk.
    public static func onDisk(_ path: String) -> InputFile {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return InputFile(path: path, size: size) { try FileByteSource(path: path) }
    }

    /// Bytes in memory, served `chunkLimit` at a time (tests).
    public static func inMemory(_ path: String, _ bytes: [UInt8], chunkLimit: Int = .max) -> InputFile {
        InputFile(path: path, size: bytes.count) { MemoryByteSource(bytes, chunkLimit: chunkLimit) }
    }

    public static func inMemory(_ path: String, _ text: String, chunkLimit: Int = .max) -> InputFile {
        inMemory(path, Array(text.utf8), chunkLimit: chunkLimit)
    }
}
