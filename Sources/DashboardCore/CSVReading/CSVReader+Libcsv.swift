import CCSV
import Foundation

// MARK: - libcsv's parser and callbacks

extension CSVReader {
    /// Sets up a fresh (or reset) libcsv parser: no byte is a space, the field buffer is capped at
    /// `fieldLimit`, and it grows in 4 KiB blocks.
    func configure(_ parser: inout csv_parser) {
        csv_set_space_func(&parser, neverSpace)
        csv_set_realloc_func(&parser, limitedRealloc)
        csv_set_blk_size(&parser, 4096)
    }
}

/// libcsv calls this with each field of a record: the field is kept (decoded as UTF-8, cut at
/// `CSVReader.fieldKeepLimit`), or past `CSVReader.maxFields` only counted.
func fieldCallback(_ data: UnsafeMutableRawPointer?, _ length: Int, _ ctx: UnsafeMutableRawPointer?) {
    guard let ctx else { return }
    let context = ctx.assumingMemoryBound(to: CSVParseContext.self)
    if context.pointee.fieldsKept >= CSVReader.maxFields {
        // Counted, not kept; a header this wide stops the file after this call.
        if context.pointee.recordsSeen == 0, context.pointee.tooManyFieldsLine == nil {
            context.pointee.tooManyFieldsLine = context.pointee.recordStartLine
        }
        context.pointee.droppedFields += 1
        if context.pointee.droppedFieldsBlank, let data, length > 0 {
            let kept = context.pointee.droppedBytes > 0 ? min(length, context.pointee.keptBytes) : length
            let text = String(decoding: UnsafeRawBufferPointer(start: data, count: kept), as: UTF8.self)
            context.pointee.droppedFieldsBlank = text.trimmingUnicodeWhitespace().isEmpty
        }
        context.pointee.droppedBytes = 0
        return
    }
    var kept = length
    if context.pointee.droppedBytes > 0 {
        // A field cut at `fieldKeepLimit`: only its first bytes are kept.
        kept = min(length, context.pointee.keptBytes)
        context.pointee.droppedBytes = 0
    }
    let field = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : kept)
    if context.pointee.keepsBytes {
        context.pointee.fieldBytes.append(field)
    } else {
        context.pointee.fields.append(field.isEmpty ? "" : String(decoding: field, as: UTF8.self))
    }
}

/// libcsv calls this at the end of each record: the fields kept so far become a `CSVRecord`
/// (its fields array handed over, not copied), queued for `CSVReader` to hand out.
func recordCallback(_ terminator: Int32, _ ctx: UnsafeMutableRawPointer?) {
    guard let ctx else { return }
    let context = ctx.assumingMemoryBound(to: CSVParseContext.self)
    var record: CSVRecord
    if context.pointee.keepsBytes {
        let previous = context.pointee.fieldBytes
        var fields = FieldBytes(reservingBytes: previous.bytes.count, fields: previous.count)
        swap(&fields, &context.pointee.fieldBytes)
        record = CSVRecord(raw: fields, line: context.pointee.recordStartLine)
    } else {
        let fieldCount = context.pointee.fields.count
        var fields: [String] = []
        fields.reserveCapacity(fieldCount)
        swap(&fields, &context.pointee.fields)
        record = CSVRecord(fields: fields, line: context.pointee.recordStartLine)
    }
    record.droppedFields = context.pointee.droppedFields
    record.droppedFieldsBlank = context.pointee.droppedFieldsBlank
    context.pointee.records.append(record)
    context.pointee.recordsSeen += 1
    context.pointee.droppedFields = 0
    context.pointee.droppedFieldsBlank = true
}

/// libcsv trims "space" characters around unquoted fields by default; we keep every byte
/// and normalize later, so nothing is a space to the parser.
private func neverSpace(_ c: UInt8) -> Int32 { 0 }

/// A realloc that refuses to grow libcsv's field buffer past `CSVReader.fieldLimit`, so a
/// hostile file cannot exhaust memory.
private func limitedRealloc(_ pointer: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
    if size > CSVReader.fieldLimit { return nil }
    return realloc(pointer, size)
}
