import Testing

@testable import DashboardCore

@Suite("SHA256", .storeIndependent)
struct SHA256Tests {
    static func digest(_ bytes: [UInt8]) -> String {
        let hash = SHA256()
        hash.update(bytes)
        return hash.finalizeHex()
    }

    static let fips448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    static let fips896 =
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"

    @Test(
        "FIPS 180-4 example messages",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (fips448, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
            (fips896, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        ])
    func fipsVectors(message: String, expected: String) {
        #expect(Self.digest(Array(message.utf8)) == expected)
    }

    @Test("a million 'a's")
    func millionA() {
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(Self.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)) == expected)
        // The same million fed 1,000 bytes at a time.
        let hash = SHA256()
        let thousand = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hash.update(thousand) }
        #expect(hash.finalizeHex() == expected)
    }

    @Test(
        "lengths around the padding boundaries (one or two final blocks)",
        arguments: [
            (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
            (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
            (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
            (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
            (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
            (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
            (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
        ])
    func paddingBoundaries(count: Int, expected: String) {
        #expect(Self.digest([UInt8](repeating: UInt8(ascii: "a"), count: count)) == expected)
    }

    /// 1,000 bytes that are not all alike, digest from Python's hashlib.
    static let mixed = (0..<1000).map { UInt8(($0 * 31 + 7) % 256) }
    static let mixedDigest = "5097e7d587352f5097062ae679f37bda5802d9f875aba14c8cb4d1a188ada179"

    @Test("feeding in odd chunk sizes gives the one-shot digest", arguments: [1, 2, 3, 7, 13, 63, 64, 65, 127, 999, 1000])
    func incremental(chunk: Int) {
        #expect(Self.digest(Self.mixed) == Self.mixedDigest)
        let hash = SHA256()
        var start = 0
        while start < Self.mixed.count {
            let end = min(start + chunk, Self.mixed.count)
            hash.update(Array(Self.mixed[start..<end]))
            start = end
        }
        #expect(hash.finalizeHex() == Self.mixedDigest)
    }

    @Test("irregular chunks, empty updates included, give the one-shot digest")
    func irregularChunks() {
        let hash = SHA256()
        var start = 0
        var sizes = [0, 1, 62, 0, 5, 64, 128, 3, 200, 1]
        while start < Self.mixed.count {
            let size = sizes.isEmpty ? 97 : sizes.removeFirst()
            let end = min(start + size, Self.mixed.count)
            hash.update(Array(Self.mixed[start..<end]))
            start = end
        }
        #expect(hash.finalizeHex() == Self.mixedDigest)
    }

    @Test("the raw bytes a CSVReader sees in chunks hash to the file's one-shot digest", arguments: [1, 7, Int.max])
    func digestThroughReader(chunkLimit: Int) throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("id,title\r\n1,\"a\nb\"\r\n2,é\r\n".utf8)
        let hash = SHA256()
        let reader = CSVReader(source: MemoryByteSource(bytes, chunkLimit: chunkLimit))
        reader.rawBytesObserver = { hash.update($0) }
        try reader.read { _ in }
        #expect(hash.finalizeHex() == Self.digest(bytes))
        // From Python's hashlib.
        #expect(Self.digest(bytes) == "fe7ddb21908d7a0af0dbdc860d885e36bfaf5ed8a2ba572a8079d5b7d18498dc")
    }
}
