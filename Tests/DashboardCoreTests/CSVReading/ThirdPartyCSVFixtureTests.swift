import Foundation
import Testing

@testable import DashboardCore

/// The third-party suites' fixtures are in the repository, intact, and named with their source
/// and licence (Tests/Fixtures/ThirdPartyCSV/README.md).
@Suite("Third-party CSV fixtures in Tests/Fixtures/ThirdPartyCSV")
struct ThirdPartyCSVFixtureTests {
    static let suites = [
        "commons-csv", "csv-spectrum", "csv-test-data", "csvkit-examples", "csvlint-fixtures", "csvw-tests", "frictionless-data",
        "mapnik-test-data-csv",
    ]

    @Test("the fixtures folder is inside the package, beside the tests that read it")
    func folderIsInTheRepository() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .standardized.path
        #expect(ThirdPartySuite.folder.standardized.path == tests + "/Fixtures/ThirdPartyCSV")
        #expect(FileManager.default.fileExists(atPath: ThirdPartySuite.casesFile.path))
    }

    @Test("every case's bytes have the size and SHA-256 its source recorded")
    func bytesAreIntact() throws {
        let cases = try ThirdPartySuite.load()
        try #require(!cases.isEmpty)
        var checked = 0
        for testCase in cases where testCase.csvBytesBase64 != nil {
            let bytes = try #require(testCase.csvBytesBase64.flatMap { Data(base64Encoded: $0) }, "\(testCase.name)")
            let digest = SHA256()
            digest.update(Array(bytes))
            #expect(bytes.count == testCase.sizeBytes, "\(testCase.name)")
            #expect(digest.finalizeHex() == testCase.sha256, "\(testCase.name)")
            checked += 1
        }
        // All but the two largest files carry their bytes.
        #expect(checked == cases.count - 2)
    }

    @Test("the files read from disk are here, byte for byte")
    func filesOnDiskAreIntact() throws {
        let testCase = try ThirdPartySuite.named("csv-test-data/bad-header-no-header")
        let data = try Data(contentsOf: ThirdPartySuite.folder.appendingPathComponent(testCase.file))
        #expect(data.count == testCase.sizeBytes)
        #expect(data.isEmpty)
    }

    @Test("every suite has its provenance record and a row in the README, and no case comes from elsewhere")
    func everySuiteIsNamed() throws {
        let cases = try ThirdPartySuite.load()
        #expect(Set(cases.map(\.suite)) == Set(Self.suites))
        let readme = try String(contentsOf: ThirdPartySuite.folder.appendingPathComponent("README.md"), encoding: .utf8)
        for suite in Self.suites {
            let folder = ThirdPartySuite.folder.appendingPathComponent("external/" + suite)
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("SOURCE.md").path), "\(suite)")
            #expect(readme.contains("| `\(suite)` |"), "\(suite) has no row in the README")
            #expect(cases.filter { $0.suite == suite }.allSatisfy { $0.file.hasPrefix("external/\(suite)/") }, "\(suite)")
        }
    }

    @Test("the suites that state a licence have their licence file here")
    func licenceFilesArePresent() {
        let licences = [
            "commons-csv": ["upstream-LICENSE.txt", "upstream-NOTICE.txt"], "csv-spectrum": ["upstream-package.json"],
            "csvkit-examples": ["upstream-COPYING"], "csvlint-fixtures": ["upstream-LICENSE.md"],
            "csvw-tests": ["upstream-license.md"], "frictionless-data": ["upstream-LICENSE.md"],
        ]
        for (suite, files) in licences {
            for file in files {
                let path = ThirdPartySuite.folder.appendingPathComponent("external/\(suite)/\(file)").path
                #expect(FileManager.default.fileExists(atPath: path), "\(path)")
            }
        }
    }
}
