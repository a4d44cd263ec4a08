import Testing

@testable import DashboardCore

/// Issue 11, class 4: one CSV rule for every CSV the program writes.
@Suite struct CSVWriterTests {
    @Test(
        "every formula prefix gets a quote mark, then RFC 4180 quoting, then CRLF",
        arguments: [
            ("=1+1", "'=1+1\r\n"),
            ("+x", "'+x\r\n"),
            ("-x", "'-x\r\n"),
            ("@x", "'@x\r\n"),
            ("\t=cmd", "'\t=cmd\r\n"),
            ("\r=5", "\"'\r=5\"\r\n"),
            ("=x.csv", "'=x.csv\r\n"),
            ("=a,b", "\"'=a,b\"\r\n"),
            ("-\"q\"", "\"'-\"\"q\"\"\"\r\n"),
        ])
    func formulaPrefixes(value: String, expected: String) {
        #expect(CSVWriter.line([value]) == expected)
    }

    @Test("a value holding CRLF is quoted (Swift counts \\r\\n as one character)")
    func crlfInsideAValue() {
        #expect(CSVWriter.line(["a\r\nb", "c\nd", "e\rf"]) == "\"a\r\nb\",\"c\nd\",\"e\rf\"\r\n")
    }

    @Test("values that only contain the characters elsewhere are left alone")
    func notAPrefix() {
        #expect(CSVWriter.line(["a=b", "1-2", "x@y", " =sum", ""]) == "a=b,1-2,x@y, =sum,\r\n")
    }
}
