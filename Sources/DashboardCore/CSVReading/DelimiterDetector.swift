/// Picks the delimiter of a file from its header line.
///
/// Policy: count `,` `;` tab and `|` outside quotes on the first line that is not blank; the
/// most frequent wins, ties going to the earlier one in that order. A header with none of
/// them is read as comma-separated (a one-column file).
package enum DelimiterDetector {
    package static let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")]

    /// The delimiter, or nil when `bytes` does not yet hold the whole header line and more
    /// input may follow (`final` false).
    package static func detect(in bytes: [UInt8], final: Bool) -> UInt8? {
        var counts = [Int](repeating: 0, count: candidates.count)
        var inQuotes = false
        var seenContent = false
        for byte in bytes {
            if byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
                seenContent = true
                continue
            }
            if inQuotes { continue }
            if byte == 0x0A || byte == 0x0D {
                if seenContent { return best(counts) }
                continue
            }
            seenContent = true
            if let index = candidates.firstIndex(of: byte) { counts[index] += 1 }
        }
        // No line end yet: decide only at the end of input, or once a megabyte is held.
        if final || bytes.count >= 1 << 20 { return best(counts) }
        return nil
    }

    private static func best(_ counts: [Int]) -> UInt8 {
        var bestIndex = 0
        for index in counts.indices where counts[index] > counts[bestIndex] { bestIndex = index }
        return candidates[bestIndex]
    }
}
