import DashboardCore
import Foundation

/// The files `SchemaCommandTests` gives both the dashboard and Frictionless: the sample
/// exports of `imports/`, and every case of the third-party CSV suites the tests use
/// (`Tests/Fixtures/ThirdPartyCSV`), as published and with their header made a courses header.
enum SchemaComparisonInputs {
    /// One case of `Tests/Fixtures/ThirdPartyCSV/cases.json`: what these tests read of it.
    struct ThirdPartyCase: Decodable {
        let name: String
        let delimiter: String
        let encoding: String
        let bytes: String?

        enum CodingKeys: String, CodingKey {
            case name, delimiter, encoding
            case bytes = "csv_bytes_base64"
        }

        var data: Data? { bytes.flatMap { Data(base64Encoded: $0) } }
    }

    static let casesFile = DashboardBinary.packageRoot.appendingPathComponent("Tests/Fixtures/ThirdPartyCSV/cases.json")

    /// Every case with its bytes in `cases.json` (all but the two largest files).
    static func thirdPartyCases() throws -> [ThirdPartyCase] {
        try JSONDecoder().decode([ThirdPartyCase].self, from: Data(contentsOf: casesFile)).filter { $0.data != nil }
    }

    /// A file name for a case: its number and its name with every character but letters,
    /// digits, `-` and `_` made `_` (no `task` or `course` in it: the names of the suites have
    /// none, so the file name never hints at a kind).
    static func fileName(_ index: Int, _ name: String) -> String {
        let safe = String(
            name.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? Character($0) : "_" })
        return String(format: "%03d-", index) + safe + ".csv"
    }

    /// The case's bytes with its first line replaced by a courses header of as many columns
    /// (`course_id,title,code,term,teacher,column_6,…` with the case's delimiter), the same
    /// line end and a leading byte order mark kept; nil when the first line cannot be replaced
    /// alone (it holds a quote, so it may go on past its line end), has a single column, or the
    /// case is UTF-16 or empty.
    static func reheaded(_ testCase: ThirdPartyCase) -> Data? {
        guard let data = testCase.data, !data.isEmpty, !testCase.encoding.hasPrefix("utf-16") else { return nil }
        var bytes = Array(data)
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let prefix = bytes.starts(with: bom) ? bom : []
        bytes.removeFirst(prefix.count)
        let end = bytes.firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.endIndex
        let first = bytes[..<end]
        guard !first.contains(UInt8(ascii: "\"")) else { return nil }
        let separator = testCase.delimiter.utf8.first ?? UInt8(ascii: ",")
        let columns = first.filter { $0 == separator }.count + 1
        guard columns >= 2 else { return nil }
        let names = ["course_id", "title", "code", "term", "teacher"]
        let header = (0..<columns).map { $0 < names.count ? names[$0] : "column_\($0 + 1)" }
        return Data(prefix + Array(header.joined(separator: testCase.delimiter).utf8) + bytes[end...])
    }
}
