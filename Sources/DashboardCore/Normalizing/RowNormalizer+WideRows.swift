/// Rows the CSV reader cut at `CSVReader.maxFields` (bounded memory, docs/formats.md).
extension RowNormalizer {
    /// Normalizes `record`, which may have been cut by the reader.
    ///
    /// Policy: a cut row has more fields than any header the reader accepts, so it is never
    /// normalized field by field (its values are shifted): it is a blank row when every field
    /// was blank, else `wrong_field_count` naming its real field count.
    package func normalize(_ record: CSVRecord) -> Outcome {
        guard record.droppedFields > 0 else { return normalize(record.fields) }
        if record.droppedFieldsBlank, record.fields.allSatisfy({ $0.trimmingUnicodeWhitespace().isEmpty }) { return .blank }
        return .rejected([
            Self.wrongFieldCount(record.fields, count: record.fields.count + record.droppedFields, expected: layout.fieldCount)
        ])
    }

    /// The row id of `record` when it can be trusted: never for a cut row.
    package func identity(_ record: CSVRecord) -> String? {
        record.droppedFields > 0 ? nil : identity(record.fields)
    }

    /// The problem of a row whose field count differs from the header's.
    static func wrongFieldCount(_ fields: [String], count: Int, expected: Int) -> FieldProblem {
        let fewer = count < expected
        return FieldProblem(
            code: .wrongFieldCount, column: "", value: shown(fields),
            message: "the row has \(count) fields, the header has \(expected)",
            hint: fewer
                ? "a field is missing, or a quote is not closed on the line before"
                : "a value holds the delimiter: put it in double quotes",
            frictionlessType: fewer ? "missing-cell" : "extra-cell")
    }

    /// A row's fields joined by commas, at most 200 characters: the `value` of a problem about
    /// the whole row.
    package static func shown(_ fields: [String]) -> String {
        var text = ""
        for field in fields {
            if !text.isEmpty { text += "," }
            text += field.prefix(200)
            if text.count >= 200 { break }
        }
        return String(text.prefix(200))
    }
}
