import Foundation

/// What the reading thread hands to the writing thread for each line of a data file (the
/// header is checked on the reading side and not handed over).
enum ReadRow: Sendable {
    /// A physical line with nothing on it.
    case blankLine(line: Int)
    /// A record that breaks the quoting rules.
    case malformedQuote(line: Int, text: String)
    /// A record, normalized: `identity` is the id of a rejected row when it can be trusted,
    /// `bucket` the bucket of a task whose course is valid for this run.
    /// `course` is the course id of a rejected tasks row when it can be read (checked against
    /// the known courses by the writing side).
    /// `print` is the row's fingerprint when the run keeps them (`RowPrint`; valid tasks only).
    case record(
        line: Int, outcome: RowNormalizer.Outcome, identity: String?, bucket: Bucket?, course: String? = nil, print: RowPrint? = nil)
    /// A tasks row not normalized yet, with its fingerprint: the writing side looks the print up
    /// among the live tasks (`UnchangedRows`) and normalizes the row (`RecordPreparer`) only
    /// when it is not the stored one.
    case candidate(CSVRecord, print: RowPrint)
    /// Raw bytes read so far (for the progress bar).
    case progress(bytes: Int)
}

/// A bounded hand-off of batches between one producer and one consumer thread.
///
/// The producer blocks while `capacity` batches wait; either side can stop the other: the
/// consumer with `cancel()` (the producer's next `put` returns false), the producer with
/// `finish()`.
final class RowHandoff: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [[ReadRow]] = []
    private var finished = false
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int = 4) {
        self.capacity = capacity
    }

    /// Queues a batch; false once the consumer has cancelled.
    func put(_ batch: [ReadRow]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        batches.append(batch)
        condition.broadcast()
        return true
    }

    /// The producer is done (normally or not).
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch; nil once the producer has finished and everything was taken.
    func take() -> [ReadRow]? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && !finished { condition.wait() }
        if batches.isEmpty { return nil }
        let batch = batches.removeFirst()
        condition.broadcast()
        return batch
    }

    /// The consumer gives up: the producer stops at its next batch.
    func cancel() {
        condition.lock()
        cancelled = true
        batches.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the producer has finished.
    func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}

/// What a reading thread does with the fingerprints of a tasks file's rows (`RowPrint`).
enum PrintMode: Sendable {
    /// None are computed (a courses file, a run that stores none).
    case none
    /// Each valid task carries its print, to be stored with it.
    case attach
    /// Rows that have a print are handed over as `ReadRow.candidate`, not normalized: the
    /// writing side skips those it finds unchanged.
    case candidates
}

/// Turns one data row (not the header) into what the writing side takes: the normalized
/// record, its trusted id when rejected, a task's computed bucket. The reading thread runs it
/// on every row, the writing thread on the candidates it did not find unchanged.
struct RecordPreparer {
    let file: String
    let layout: HeaderLayout
    let normalizer: RowNormalizer
    /// The byte path for the common tasks row (nil for a courses file, or when the options turn
    /// it off); `normalizer` reads every row it leaves.
    let byteNormalizer: ByteRowNormalizer?
    /// The courses tasks may reference, with their time zones (empty for a courses file).
    let validCourses: [String: String]
    private var zones: CourseZones
    private var localByCourse: [String: LocalAsOf] = [:]

    init(file: String, layout: HeaderLayout, options: ImportOptions, validCourses: [String: String]) {
        self.file = file
        self.layout = layout
        self.validCourses = validCourses
        normalizer = RowNormalizer(layout: layout, dateOrder: options.dateOrder, wording: options.wording)
        byteNormalizer = options.readsBytes ? ByteRowNormalizer(layout: layout) : nil
        zones = CourseZones(asOf: options.asOf, defaultTimeZone: options.timeZone)
    }

    /// The computed bucket of a valid task of this file ("" when its course is not valid).
    mutating func bucket(of task: TaskRecord) -> String {
        computedBucket(of: task)?.rawValue ?? ""
    }

    /// The computed bucket of a task, nil when its course is not valid for the run: a task an
    /// override pins keeps its stored bucket when the plan is applied, and the categorizer's pass
    /// decides it. One lookup per task: each valid course's as-of, found the first time.
    private mutating func computedBucket(of task: TaskRecord) -> Bucket? {
        var local = localByCourse[task.courseID]
        if local == nil, let zone = validCourses[task.courseID] {
            local = zones.local(zone)
            localByCourse[task.courseID] = local
        }
        return local.map { BucketPolicy.computed(for: task, at: $0) }
    }

    /// The row as the writing side takes it.
    /// - Throws: `ImportFailure.fileProblem` for a row that is another layout's header: nothing
    ///   after it can be read with this file's header.
    mutating func prepare(_ record: CSVRecord, print: RowPrint?) throws -> ReadRow {
        var record = record
        if let raw = record.raw {
            if record.droppedFields == 0, let task = byteNormalizer?.task(raw) {
                return .record(line: record.line, outcome: .task(task), identity: nil, bucket: computedBucket(of: task), print: print)
            }
            record = record.materialized()
        }
        let outcome = normalizer.normalize(record)
        switch outcome {
        case .otherHeader(let other):
            throw ImportFailure.fileProblem(
                ImportMessages.mismatchedHeader(
                    other, of: layout, file: file, line: record.line, value: RowNormalizer.shown(record.fields)),
                batchID: nil)
        case .rejected:
            return .record(
                line: record.line, outcome: outcome, identity: normalizer.identity(record), bucket: nil,
                course: normalizer.courseReference(record.fields))
        case .task(let task):
            return .record(line: record.line, outcome: outcome, identity: nil, bucket: computedBucket(of: task), print: print)
        default:
            return .record(line: record.line, outcome: outcome, identity: nil, bucket: nil)
        }
    }
}

/// Reads and normalizes one data file on its own thread, so that parsing and normalizing
/// (one core) overlap with the writes into SQLite (the other core).
///
/// Everything the reading thread produces is values: rows go through a `RowHandoff`, and the
/// outcome (bytes read, SHA-256, or the file-level failure) is read once the thread has
/// finished.
final class RowReader: @unchecked Sendable {
    /// How the thread ended.
    struct Outcome {
        var bytesRead = 0
        var sha256 = ""
        var failure: Error?
        /// CPU time the reading thread used (for `DASHBOARD_TRACE`).
        var cpuNanoseconds: UInt64 = 0
    }

    let handoff = RowHandoff()
    private(set) var outcome = Outcome()
    private let file: InputFile
    private let layout: HeaderLayout
    private let options: ImportOptions
    private let validCourses: [String: String]
    private let printing: PrintMode

    /// - Parameter validCourses: the courses tasks may reference, with their time zones
    ///   (empty for a courses file).
    init(
        file: InputFile, layout: HeaderLayout, options: ImportOptions, validCourses: [String: String], printing: PrintMode = .none
    ) {
        self.file = file
        self.layout = layout
        self.options = options
        self.validCourses = validCourses
        self.printing = layout.kind == .tasks ? printing : .none
    }

    /// Starts the reading thread.
    func start() {
        let thread = Thread { [self] in
            var outcome = self.readAll()
            outcome.cpuNanoseconds = Self.threadCPUTime()
            self.outcome = outcome
            self.handoff.finish()
        }
        thread.name = "dashboard-reader"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// CPU time of the calling thread so far.
    private static func threadCPUTime() -> UInt64 {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private struct Cancelled: Error {}

    private func readAll() -> Outcome {
        var result = Outcome()
        let source: ByteSource
        do {
            source = try file.open()
        } catch {
            result.failure = FileReading.openFailure(error, file: file)
            return result
        }
        var readerOptions = FileReading.readerOptions(options)
        readerOptions.fieldBytes = options.readsBytes && layout.kind == .tasks
        let reader = CSVReader(source: source, options: readerOptions)
        let digest = SHA256()
        reader.rawBytesObserver = { digest.update($0) }
        var preparer = RecordPreparer(file: file.path, layout: layout, options: options, validCourses: validCourses)
        let printer = printing == .none ? nil : RowPrinter(layout: layout, dateOrder: options.dateOrder)
        let batchSize = 2048
        var batch: [ReadRow] = []
        batch.reserveCapacity(batchSize)
        var headerSeen = false
        func emit(_ row: ReadRow) throws {
            batch.append(row)
            if batch.count >= batchSize {
                guard handoff.put(batch) else { throw Cancelled() }
                batch.removeAll(keepingCapacity: true)
            }
        }
        reader.progressObserver = { bytes in try? emit(.progress(bytes: bytes)) }
        do {
            try reader.read { event in
                switch event {
                case .blankLine(let line):
                    if headerSeen { try emit(.blankLine(line: line)) }
                case .malformedQuote(let line, let text):
                    if headerSeen { try emit(.malformedQuote(line: line, text: text)) }
                case .record(let record):
                    guard headerSeen else {
                        headerSeen = true
                        // The file is read twice (header first, before the lock): refuse one
                        // whose header changed in between, rather than map columns wrongly.
                        var current = try? HeaderLayout(header: record.fields, file: file.path, fileNameHint: layout.kind)
                        current?.headerLine = record.line
                        if current != layout {
                            throw ImportFailure.fileProblem(
                                ImportProblem(
                                    code: .unreadableFile, file: file.path, line: record.line, row: 0,
                                    message: "the file's header changed while it was being imported",
                                    hint: "import again once the export has finished writing the file"),
                                batchID: nil)
                        }
                        return
                    }
                    switch printing {
                    case .none:
                        try emit(try preparer.prepare(record, print: nil))
                    case .attach:
                        // Only a valid task keeps its print (computed once the row is one).
                        var row = try preparer.prepare(record, print: nil)
                        if case .record(let line, .task(let task), let identity, let bucket, let course, nil) = row {
                            row = .record(
                                line: line, outcome: .task(task), identity: identity, bucket: bucket, course: course,
                                print: printer?.printOfTask(record))
                        }
                        try emit(row)
                    case .candidates:
                        if let print = printer?.print(record) {
                            try emit(.candidate(record, print: print))
                        } else {
                            try emit(try preparer.prepare(record, print: nil))
                        }
                    }
                }
            }
            if !batch.isEmpty, !handoff.put(batch) { throw Cancelled() }
        } catch let error as CSVFileError {
            result.failure = FileReading.fileFailure(error, file: file, batchID: nil, wording: options.wording)
        } catch {
            result.failure = error
        }
        result.bytesRead = reader.bytesRead
        result.sha256 = digest.finalizeHex()
        return result
    }
}
