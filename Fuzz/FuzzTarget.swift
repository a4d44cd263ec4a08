// libFuzzer target over the CSV reader and the normalizer (`make fuzz`).
//
// Built with `swiftc -sanitize=fuzzer,address` together with the DashboardCore sources it
// exercises (see the Makefile). Besides crashes, it checks invariants and traps when one
// breaks, so libFuzzer keeps the input:
// - reading the same bytes in 1-byte chunks and in 64 KiB chunks gives the same events, and
//   keeping the fields as bytes (`CSVReaderOptions.fieldBytes`) gives the same events again;
// - the byte path (`ByteRowNormalizer`) builds no record the normalizer would not build from
//   the same row, whichever file's header the input starts with (issue 26);
// - every due the parser accepts reads back from its stored text as the same due;
// - normalizing text twice changes nothing the second time;
// - the byte shortcut that looks for a header row (`Column.mayNameCourseID`) agrees with
//   `Column.named`, and an id without its invisible characters has none left.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = readAll(bytes, chunk: 64 * 1024)
    let tiny = readAll(bytes, chunk: 1)
    if whole != tiny {
        fatalError("chunk size changed the result: \(whole) vs \(tiny)")
    }
    let asBytes = readAll(bytes, chunk: 64 * 1024, fieldBytes: true)
    if whole != asBytes {
        fatalError("keeping fields as bytes changed the result: \(whole) vs \(asBytes)")
    }
    guard case .events(let events) = asBytes else { return 0 }
    var layout: HeaderLayout?
    for event in events {
        guard case .record(let record) = event else { continue }
        for field in record.fields.prefix(16) {
            check(field)
        }
        if layout == nil {
            layout = try? HeaderLayout(header: record.fields, file: "fuzz.csv", fileNameHint: .tasks)
            if layout == nil, record.fieldCount >= 3 {
                // Any other first line: the rows as those of a tasks file of as many columns,
                // so the byte path meets every row the fuzzer makes.
                let names = ["task_id", "course_id", "title", "student_id", "due", "priority", "completed", "assignment_id"]
                let header = Array(names.prefix(record.fieldCount)) + (names.count..<max(names.count, record.fieldCount)).map { "x\($0)" }
                layout = try? HeaderLayout(header: header, file: "fuzz.csv", fileNameHint: .tasks)
            }
            continue
        }
        if let layout {
            let strings = record.materialized()
            for order in [nil, DateOrder.mdy, .dmy] {
                let oracle = RowNormalizer(layout: layout, dateOrder: order).normalize(strings)
                if let raw = record.raw, record.droppedFields == 0, let task = ByteRowNormalizer(layout: layout)?.task(raw),
                    oracle != .task(task)
                {
                    fatalError("the byte path read \(strings.fields) as \(task), the normalizer as \(oracle)")
                }
            }
        }
    }
    return 0
}

enum Outcome: Equatable {
    case events([CSVEvent])
    case failed(CSVFileError)
}

func readAll(_ bytes: [UInt8], chunk: Int, fieldBytes: Bool = false) -> Outcome {
    var events: [CSVEvent] = []
    let options = CSVReaderOptions(chunkSize: 4096, fieldBytes: fieldBytes)
    let reader = CSVReader(source: MemoryByteSource(bytes, chunkLimit: chunk), options: options)
    do {
        try reader.read { events.append($0) }
    } catch let error as CSVFileError {
        return .failed(error)
    } catch {
        fatalError("unexpected error \(error)")
    }
    return .events(events)
}

func check(_ field: String) {
    for order in [nil, DateOrder.mdy, .dmy] {
        if let due = try? DueDateParser.parse(field, dateOrder: order) {
            let text = due.storageText
            guard DueDate(storageText: text) == due else { fatalError("due \(field) stored as \(text) reads back differently") }
        }
    }
    let once = TextNormalizer.text(field)
    guard TextNormalizer.text(once) == once else { fatalError("normalizing \(field) twice changed it") }
    let id = TextNormalizer.id(field)
    guard TextNormalizer.id(id) == id else { fatalError("normalizing id \(field) twice changed it") }
    guard Column.mayNameCourseID(field) == (Column.named(field.trimmingUnicodeWhitespace()) == .courseID) else {
        fatalError("mayNameCourseID(\(field.debugDescription)) disagrees with Column.named")
    }
    guard InvisibleCharacters.find(in: InvisibleCharacters.removed(from: field)).isEmpty else {
        fatalError("removing the invisible characters of \(field.debugDescription) left some")
    }
    _ = try? Priority.parse(field)
    _ = try? CompletedParser.parse(field)
    // Every due the byte path reads is the parser's.
    var bytes = Array(field.utf8)
    let iso = bytes.withUnsafeMutableBufferPointer { ISODueBytes.parse(UnsafeBufferPointer($0)) }
    if let iso, (try? DueDateParser.parse(field, dateOrder: nil)) != iso {
        fatalError("the byte path reads the due \(field.debugDescription) as \(iso), the parser does not")
    }
}
