import Foundation
import FoundationXML

/// A JUnit XML report read back (`--format junit`), as a CI system reads it: suites, their
/// attributes and properties, and each test case's failures, errors, skips and output.
struct JUnitDocument {
    struct Failure: Equatable {
        var element: String
        var attributes: [String: String]
        var text: String
    }

    struct TestCase {
        var attributes: [String: String]
        /// `failure`, `error` and `skipped` children, in order.
        var outcomes: [Failure] = []
        var systemOut = ""
        var name: String { attributes["name"] ?? "" }
        var failures: [Failure] { outcomes.filter { $0.element == "failure" } }
    }

    struct Suite {
        var attributes: [String: String]
        var properties: [(name: String, value: String)] = []
        var cases: [TestCase] = []
        var name: String { attributes["name"] ?? "" }
        func property(_ name: String) -> String? { properties.first { $0.name == name }?.value }
        func testCase(_ name: String) -> TestCase? { cases.first { $0.name == name } }
    }

    var attributes: [String: String] = [:]
    var suites: [Suite] = []

    func suite(_ name: String) -> Suite? { suites.first { $0.name == name } }

    /// Parses `text`; throws when it is not well-formed XML.
    static func parse(_ text: String) throws -> JUnitDocument {
        let reader = Reader()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = reader
        guard parser.parse() else {
            throw HarnessError("not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "unknown error")")
        }
        return reader.document
    }

    /// The vendored JUnit XML schema (Jenkins xunit's junit-10.xsd, Tests/Fixtures/JUnit/).
    static let schema = DashboardBinary.packageRoot.appendingPathComponent("Tests/Fixtures/JUnit/junit-10.xsd").path

    /// Checks `report` against the schema with `xmllint --noout --schema` (as `make test`
    /// installs it); its result is exit 0 and "report.xml validates" for a valid report.
    static func validate(_ report: String, in sandbox: Sandbox, name: String = "report.xml") throws -> CommandResult {
        try sandbox.write(name, report)
        return try sandbox.runTool("xmllint", ["--noout", "--schema", schema, name])
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var document = JUnitDocument()
        private var text = ""
        private var outcome: Failure?

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String]
        ) {
            text = ""
            switch name {
            case "testsuites": document.attributes = attributes
            case "testsuite": document.suites.append(Suite(attributes: attributes))
            case "property":
                document.suites[document.suites.count - 1].properties.append((attributes["name"] ?? "", attributes["value"] ?? ""))
            case "testcase": lastSuite { $0.cases.append(TestCase(attributes: attributes)) }
            case "failure", "error", "skipped": outcome = Failure(element: name, attributes: attributes, text: "")
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "failure", "error", "skipped":
                guard var outcome else { return }
                outcome.text = text
                lastSuite { $0.cases[$0.cases.count - 1].outcomes.append(outcome) }
                self.outcome = nil
            case "system-out":
                let output = text
                lastSuite { $0.cases[$0.cases.count - 1].systemOut = output }
            default: break
            }
            text = ""
        }

        private func lastSuite(_ change: (inout Suite) -> Void) {
            guard !document.suites.isEmpty else { return }
            change(&document.suites[document.suites.count - 1])
        }
    }
}
