/// The status of an import batch (SPEC §4).
public enum BatchStatus: String, Sendable, Codable, CaseIterable {
    case running, committed, failed
    case dryRun = "dry_run"
    case held
    /// A held batch someone approved; its changes were applied as a new batch.
    case approved
    case discarded, reverted
}

/// Row counts of one kind in one batch.
public struct ImportCounts: Equatable, Sendable, Codable {
    public var read = 0
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    public var deleted = 0
    public var rejected = 0
    public var warnings = 0

    public init(
        read: Int = 0, inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, deleted: Int = 0, rejected: Int = 0, warnings: Int = 0
    ) {
        self.read = read
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.deleted = deleted
        self.rejected = rejected
        self.warnings = warnings
    }

    /// The sum, saturating: counts are also read back from the database, where a hand edit can
    /// leave any 64-bit number, and a sum of those must not trap (`dashboard verify` names them).
    public static func + (a: ImportCounts, b: ImportCounts) -> ImportCounts {
        func add(_ x: Int, _ y: Int) -> Int {
            let (sum, overflow) = x.addingReportingOverflow(y)
            return overflow ? (y < 0 ? Int.min : Int.max) : sum
        }
        return ImportCounts(
            read: add(a.read, b.read), inserted: add(a.inserted, b.inserted), updated: add(a.updated, b.updated),
            unchanged: add(a.unchanged, b.unchanged), deleted: add(a.deleted, b.deleted),
            rejected: add(a.rejected, b.rejected), warnings: add(a.warnings, b.warnings))
    }
}

/// A file an import read.
public struct ImportedFile: Equatable, Sendable {
    public var path: String
    public var kind: FileKind?
    public var size: Int
    public var sha256: String
    public var rows: Int
}

/// What one import (or check, or approval) did.
public struct ImportResult: Sendable {
    /// nil for `check`, which records nothing.
    public var batchID: Int?
    public var status: BatchStatus
    public var mode: ImportMode
    public var asOf: String
    /// Counts per kind present in the files.
    public var counts: [FileKind: ImportCounts]
    public var files: [ImportedFile]
    /// Every rejected row and every warning, in file order (courses files first), kept out of
    /// memory when there are many (see `ProblemSpool`). Read them with `forEachProblem`.
    package var problemSpool: ProblemSpool
    /// Why a batch failed or was held; empty otherwise.
    public var reason: String
    /// The bucket changes recorded at the end of the import (nil when nothing was applied).
    public var categorized: CategorizeResult?
    /// The batch this identical re-import relied on: its rows were neither read nor compared,
    /// the data being proven unchanged since that batch (SPEC §5); nil for every other run.
    public var unchangedSince: Int? = nil

    public var total: ImportCounts { counts.values.reduce(ImportCounts(), +) }

    /// Calls `body` with every problem (of `severity`, when given), in file order, one at a
    /// time: memory stays bounded whatever the number of problems.
    public func forEachProblem(severity: ProblemSeverity? = nil, _ body: (ImportProblem) throws -> Void) throws {
        try problemSpool.forEachProblem(severity: severity, body)
    }

    /// How many problems there are.
    public var problemCount: Int { problemSpool.count }

    /// Every problem in one array: loads them all, so only for tests and callers that know the
    /// run is small. Commands use `forEachProblem`.
    package var problems: [ImportProblem] { load(nil) }
    /// The rejected rows' problems in one array (see `problems`).
    package var rejects: [ImportProblem] { load(.error) }
    /// The warnings in one array (see `problems`).
    package var warnings: [ImportProblem] { load(.warning) }

    private func load(_ severity: ProblemSeverity?) -> [ImportProblem] {
        var all: [ImportProblem] = []
        try? problemSpool.forEachProblem(severity: severity) { all.append($0) }
        return all
    }
}

/// Why an import did not complete.
public enum ImportFailure: Error, CustomStringConvertible {
    /// A file-level problem; nothing was committed. The failed batch id is given when recorded.
    case fileProblem(ImportProblem, batchID: Int?)
    /// A strict run and at least one row was rejected; nothing was committed. Its description
    /// is the batch's stored reason (`ImportMessages.strictRejected`).
    case strictRejected(ImportResult)
    /// An input path does not exist or cannot be opened.
    case inputMissing(path: String, reason: String)
    /// An input file failed while it was being read.
    case inputUnreadable(path: String, reason: String, batchID: Int?)
    /// `batches approve|discard` named a batch that is not held.
    case notHeld(batchID: Int, status: BatchStatus?)
    /// Batches committed after the held one; approving it would overwrite newer data.
    case staleHeld(batchID: Int, newer: [Int])
    /// The store failed (locked, full, read-only, newer schema…).
    case store(StoreError, batchID: Int?)

    public var description: String {
        switch self {
        case .fileProblem(let problem, _): return problem.formatted
        case .strictRejected(let result): return result.reason
        case .inputMissing(let path, let reason): return "cannot open \(path): \(reason)"
        case .inputUnreadable(let path, let reason, _): return "reading \(path) failed: \(reason)"
        case .staleHeld(let id, let newer):
            return
                "batch \(id) was held before batch\(newer.count == 1 ? "" : "es") \(newer.map(String.init).joined(separator: ", ")) committed; approving it now could overwrite newer data"
        case .notHeld(let id, let status):
            guard let status else { return "there is no batch \(id)" }
            return "batch \(id) is \(status.rawValue), not held: only a held batch can be approved or discarded"
        case .store(let error, _): return error.description
        }
    }
}
