/// Text handed to a sink in pieces of about 64 KiB, never as a whole: the buffer of the
/// streaming writers (`JSONStreamWriter`, `XMLStreamWriter`), whose outputs grow with the data
/// (docs/reliability.md, bounded memory).
package struct ChunkedText {
    /// Buffered text is handed to the sink once it reaches this many bytes.
    package static let threshold = 64 * 1024

    /// The text not handed on yet; the writers append to it.
    package var text = ""
    private let sink: (String) throws -> Void

    package init(sink: @escaping (String) throws -> Void) {
        self.sink = sink
        text.reserveCapacity(Self.threshold + 4096)
    }

    /// Hands the buffered text to the sink once it has reached `threshold` bytes.
    package mutating func flushIfFull() throws {
        if text.utf8.count >= Self.threshold { try flush() }
    }

    /// Hands everything buffered to the sink (nothing when the buffer is empty).
    package mutating func flush() throws {
        guard !text.isEmpty else { return }
        let piece = text
        text = ""
        text.reserveCapacity(Self.threshold + 4096)
        try sink(piece)
    }
}
