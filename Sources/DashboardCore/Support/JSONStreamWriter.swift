/// Writes a JSON object whose arrays can be too large for memory, one element at a time.
///
/// Policy (bounded memory, docs/reliability.md): an output that grows with the data (the
/// problems of an import, the audit log) is never built as one `JSONValue` or one string.
/// The object's head is written, then each element of a large array is rendered and written
/// on its own, then the tail. The bytes are exactly those `JSONValue.rendered()` gives for
/// the same object (indent 2, same key order), so the documented format (docs/json.md)
/// does not depend on the size of the output. Text is handed to `sink` in pieces of about
/// 64 KiB.
package final class JSONStreamWriter {
    /// Buffered text is handed to the sink once it reaches this many bytes.
    package static let flushThreshold = ChunkedText.threshold

    private var buffer: ChunkedText
    private var pairs = 0
    private static let indent = 2

    /// Starts the object (`{`); call `end()` to finish it.
    package init(sink: @escaping (String) throws -> Void) {
        buffer = ChunkedText(sink: sink)
        buffer.text += "{"
    }

    /// Writes `"key": value` (a value small enough to build).
    package func pair(_ key: String, _ value: JSONValue) throws {
        try startPair(key)
        buffer.text += value.rendered(indent: Self.indent, level: 1)
        try buffer.flushIfFull()
    }

    /// Writes `"key": [ … ]`, the elements given one at a time by `elements`, which calls the
    /// closure it receives once per element.
    package func array(_ key: String, _ elements: ((JSONValue) throws -> Void) throws -> Void) throws {
        try startPair(key)
        var count = 0
        try elements { element in
            self.buffer.text += count == 0 ? "[\n    " : ",\n    "
            self.buffer.text += element.rendered(indent: Self.indent, level: 2)
            count += 1
            try self.buffer.flushIfFull()
        }
        buffer.text += count == 0 ? "[]" : "\n  ]"
    }

    /// Closes the object, adds `trailer` (a final newline) and hands everything left to the sink.
    package func end(trailer: String = "\n") throws {
        buffer.text += pairs == 0 ? "}" : "\n}"
        buffer.text += trailer
        try buffer.flush()
    }

    private func startPair(_ key: String) throws {
        buffer.text += pairs == 0 ? "\n  " : ",\n  "
        JSONValue.escape(key, into: &buffer.text)
        buffer.text += ": "
        pairs += 1
    }
}
