import CCrypto

/// The fingerprint of a tasks row as the import reads it (issue 26): 128 bits of a SHA-256 over
/// the raw bytes of every column the import stores, with what else decides their meaning.
///
/// Why it may stand for the row: the normalizer is a function of those bytes, the file's
/// columns and the date order alone (a task's values do not depend on its course's zone: the
/// zone decides its bucket, which the time pass recomputes). A row whose print equals the one
/// stored with a live task normalizes to exactly that task's values, as long as the stored
/// row is still what the importer wrote from those bytes: every other writer clears the print
/// (`RowPrints`' triggers), so a print is never older than its row's values. What is hashed,
/// in order (docs/formats.md):
/// - the text `dashboard-row-print`, the rules' version (`version`), the date order's name;
/// - the set of task columns the file has (a column the file lacks is a default, not a value);
/// - for each of those columns in `Column.allCases` order: its position, its byte length (4
///   bytes, little-endian) and its bytes as read (after transcoding, before any trimming).
/// Lengths make the encoding unambiguous (`a|bc` and `ab|c` differ). A collision needs two
/// different rows with the same 128 bits of SHA-256: about 2^64 rows for any pair at all, and
/// 2^128 tries to match one given row, so a crafted title cannot pass for another.
struct RowPrint: Equatable, Sendable {
    var high: UInt64
    var low: UInt64

    /// The rules' version: raise it whenever the normalizer changes what some bytes mean, and
    /// every stored print stops matching (the next import compares every row once).
    static let version: UInt8 = 1

    /// The 16 bytes as stored (`tasks.print`).
    var bytes: [UInt8] {
        withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { Array($0) }
    }

    /// The print stored as `bytes`; nil for anything that is not 16 bytes.
    init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for i in 0..<8 { high = high << 8 | UInt64(bytes[i]) }
        for i in 8..<16 { low = low << 8 | UInt64(bytes[i]) }
        self.high = high
        self.low = low
    }

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }
}

/// Computes the prints of one tasks file's rows (one per reading thread).
///
/// The digest runs on OpenSSL's SHA-256 (its CPU instructions where the CPU has them) through
/// the low-level `SHA256_*` calls: a row's print costs about 0.15 µs, where the `EVP_Digest*`
/// interface costs 0.2 µs more (a context set up per digest) and `EVP_sha256()` another 0.3 µs
/// (OpenSSL 3 looks the algorithm up under a lock at every digest).
final class RowPrinter {
    private let layout: HeaderLayout
    /// The stored columns the file has, with their field index, in `Column.allCases` order.
    private let columns: [(position: UInt8, index: Int)]
    /// The digest's state after the bytes every row of the file starts with.
    private let start: SHA256_CTX

    /// nil for a courses file: only tasks rows are skipped.
    init?(layout: HeaderLayout, dateOrder: DateOrder?) {
        guard layout.kind == .tasks else { return nil }
        self.layout = layout
        let stored = Column.allCases.filter { layout.indexes[$0] != nil }
        columns = stored.map { (UInt8($0.position), layout.indexes[$0] ?? 0) }
        var prefix = Array("dashboard-row-print".utf8)
        prefix.append(RowPrint.version)
        prefix.append(contentsOf: Array((dateOrder?.rawValue ?? "-").utf8))
        prefix.append(0)
        var mask: UInt32 = 0
        for column in stored { mask |= 1 << UInt32(column.position) }
        withUnsafeBytes(of: mask.littleEndian) { prefix.append(contentsOf: $0) }
        var start = SHA256_CTX()
        guard SHA256_Init(&start) == 1, prefix.withUnsafeBytes({ SHA256_Update(&start, $0.baseAddress, $0.count) }) == 1 else {
            return nil
        }
        self.start = start
    }

    /// The print of a data row, or nil when the row must be read in full whatever the database
    /// holds: a row whose fields are not the header's number (`wrong_field_count`), with fields
    /// past the reader's limit, or that reads as a header (`HeaderLayout.headerRow`): none of
    /// them can be a stored task, and what they are is the normalizer's to say.
    func print(_ record: CSVRecord) -> RowPrint? {
        guard record.fields.count == layout.fieldCount, record.droppedFields == 0, layout.headerRow(record.fields) == nil else {
            return nil
        }
        return printOfTask(record)
    }

    /// The print of a row the normalizer found a valid task (which it never finds a row that
    /// `print` refuses), without `print`'s checks.
    func printOfTask(_ record: CSVRecord) -> RowPrint? {
        var context = start
        for (position, index) in columns {
            let field = record.fields[index]
            let hashed: Int32? = field.utf8.withContiguousStorageIfAvailable { bytes in
                // The field's column and byte length (little-endian), then its bytes.
                let n = UInt32(truncatingIfNeeded: bytes.count)
                var header: (UInt8, UInt8, UInt8, UInt8, UInt8) = (
                    position, UInt8(truncatingIfNeeded: n), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n >> 16),
                    UInt8(truncatingIfNeeded: n >> 24)
                )
                let headerDone = withUnsafeBytes(of: &header) { SHA256_Update(&context, $0.baseAddress, 5) }
                guard headerDone == 1 else { return 0 }
                return bytes.isEmpty ? 1 : SHA256_Update(&context, bytes.baseAddress, bytes.count)
            }
            guard hashed == 1 else { return nil }
        }
        var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let done = withUnsafeMutableBytes(of: &digest) { out in
            SHA256_Final(out.baseAddress?.assumingMemoryBound(to: UInt8.self), &context)
        }
        guard done == 1 else { return nil }
        return RowPrint(high: UInt64(bigEndian: digest.0), low: UInt64(bigEndian: digest.1))
    }
}
