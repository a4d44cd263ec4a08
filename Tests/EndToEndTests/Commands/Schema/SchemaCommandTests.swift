import DashboardCore
import Foundation
import Testing

/// `dashboard schema`: the input contract as a Frictionless data package descriptor, read by
/// the frictionless package itself, and compared row by row with `dashboard check` on the
/// sample exports and the third-party CSV cases; every difference is one docs/formats.md lists.
@Suite(.storeIndependent) struct SchemaCommandTests {
    @Test func schemaPrintsTheDescriptorOfItsGoldenAndReadsNoDatabaseNorSetting() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["schema"])
        #expect(result.exitCode == 0 && result.stderr == "", "\(result)")
        GoldenFile.expectMatch(result.stdout, golden: "schema/datapackage.json")
        let elsewhere = try sandbox.run(["--db", "missing/none.sqlite", "schema"], environment: ["DASHBOARD_TZ": "Mars/Olympus"])
        #expect(elsewhere == result)
        #expect(try sandbox.listing() == [])
    }

    @Test func theReadingOptionsChangeOnlyTheDelimiterTheEncodingAndTheDueDates() throws {
        let sandbox = try Sandbox()
        let plain = try JSON.object(try sandbox.run(["schema"]).stdout)
        let given = try sandbox.run(["schema", "--delimiter", "semicolon", "--encoding", "cp1252", "--date-order", "dmy"])
        #expect(given.exitCode == 0 && given.stderr == "")
        var read = try JSON.object(given.stdout)
        var resources = JSON.objects(read["resources"])
        let due = try #require(JSON.objects((resources[1]["schema"] as? [String: Any])?["fields"]).first { $0["name"] as? String == "due" })
        let pattern = try #require((due["constraints"] as? [String: Any])?["pattern"] as? String)
        let regex = try NSRegularExpression(pattern: "\\A(?:\(pattern))\\z")
        for (value, accepted) in [("29.11.2026", true), ("29/11/2026 14:30", true), ("11/29/2026", false), ("2026-11-29", true)] {
            #expect((regex.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil) == accepted, "\(value)")
        }
        let plainResources = JSON.objects(plain["resources"])
        for index in resources.indices {
            var dialect = try #require(resources[index]["dialect"] as? [String: Any])
            #expect(dialect["delimiter"] as? String == ";")
            #expect(resources[index]["encoding"] as? String == "windows-1252")
            dialect["delimiter"] = ","
            dialect["description"] = (plainResources[index]["dialect"] as? [String: Any])?["description"]
            resources[index]["dialect"] = dialect
            resources[index]["encoding"] = "utf-8"
        }
        var schema = try #require(resources[1]["schema"] as? [String: Any])
        schema["fields"] = (plainResources[1]["schema"] as? [String: Any])?["fields"]
        resources[1]["schema"] = schema
        read["resources"] = resources
        #expect(NSDictionary(dictionary: read).isEqual(to: plain))
    }

    @Test func argumentsAndValuesItDoesNotTakeAreUsageErrors() throws {
        let sandbox = try Sandbox()
        for arguments in [
            ["schema", "tasks.csv"], ["schema", "--delimiter", "x"], ["schema", "--date-order", "ymd"], ["schema", "--mode", "sync"],
        ] {
            let result = try sandbox.run(arguments)
            #expect(
                result.exitCode == 64 && result.stdout == "" && result.stderr.hasPrefix("dashboard: error: "), "\(arguments): \(result)")
        }
    }

    @Test func frictionlessReadsTheDescriptorAsAValidDataPackage() throws {
        let sandbox = try Sandbox()
        try sandbox.write("datapackage.json", try sandbox.run(["schema"]).stdout)
        let result = try PythonTools.run([FrictionlessComparison.script.path, "descriptor", "datapackage.json"], in: sandbox)
        #expect(result.exitCode == 0 && result.stderr == "", "\(result)")
        let read = try JSON.object(result.stdout)
        #expect(read["valid"] as? Bool == true && (read["errors"] as? [Any])?.isEmpty == true, "\(result.stdout)")
        #expect(JSON.objects(read["resources"]).map { $0["name"] as? String } == ["courses", "tasks"])
        GoldenFile.expectMatch(result.stdout, golden: "schema/frictionless-reads.json")
    }

    /// The comparison: each sample export and third-party case is checked by `dashboard check
    /// --format json` and validated by frictionless against the printed descriptor; the
    /// differences between the two verdicts are exactly those of
    /// `Tests/Fixtures/Frictionless/disagreements.json`.
    @Test func frictionlessAgreesWithCheckExceptWhereTheDocsSayWhy() throws {
        let sandbox = try Sandbox()
        try sandbox.write("datapackage.json", try sandbox.run(["schema"]).stdout)
        let runs = try Self.inputs(sandbox)
        let checks = try Self.check(runs, in: sandbox)
        let plan: [String: Any] = [
            "descriptor": "datapackage.json",
            "runs": runs.enumerated().map { index, run in
                [
                    "name": "run-\(index)", "delimiter": run[0].delimiter,
                    "files": run.map { ["path": $0.path, "kind": $0.kind?.rawValue ?? NSNull(), "labels": $0.labels] as [String: Any] },
                ] as [String: Any]
            },
        ]
        try sandbox.write("plan.json", bytes: try JSONSerialization.data(withJSONObject: plan, options: [.sortedKeys]))
        let validated = try PythonTools.run([FrictionlessComparison.script.path, "plan.json"], in: sandbox)
        #expect(validated.exitCode == 0 && validated.stderr == "", "\(validated.stderr)")
        let verdicts = JSON.objects(try JSON.object(validated.stdout)["runs"])
        try #require(verdicts.count == runs.count)
        var observed: [FrictionlessComparison.Disagreement] = []
        var agreed = (files: [0, 0], rows: 0)
        for (index, run) in runs.enumerated() {
            let ours = try FrictionlessComparison.dashboardVerdicts(checks[index].stdout, paths: run.map(\.path))
            for (input, theirs) in zip(run, JSON.objects(verdicts[index]["files"])) {
                let dashboard = try #require(ours[input.path], "\(input.path): \(checks[index])")
                let frictionless = FrictionlessComparison.frictionlessVerdict(theirs["adapted"] as? [String: Any] ?? [:])
                observed += FrictionlessComparison.disagreements(
                    file: input.name, dashboard: dashboard, frictionless: frictionless,
                    asPrinted: FrictionlessComparison.frictionlessVerdict(theirs["as_printed"] as? [String: Any] ?? [:]))
                if dashboard.valid == frictionless.valid { agreed.files[dashboard.valid ? 0 : 1] += 1 }
                agreed.rows += dashboard.rows.filter { !$0.value.isEmpty && frictionless.rows[$0.key] == $0.value }.count
            }
        }
        #expect(runs.joined().count > 200, "only \(runs.joined().count) files compared")
        // Not a comparison of nothing: many files each side finds valid, many it refuses, and
        // many rows both refuse for the same reasons.
        #expect(agreed.files[0] >= 60 && agreed.files[1] >= 200 && agreed.rows >= 120, "agreed on \(agreed)")
        try Self.expectDocumented(observed.sorted())
    }

    @Test func docsFormatsGivesTheReasonOfEveryDocumentedDisagreement() throws {
        let documented = try JSONDecoder().decode(
            FrictionlessComparison.Documented.self, from: Data(contentsOf: FrictionlessComparison.documentedFile)
        ).disagreements
        var counts: [String: Int] = [:]
        for entry in documented {
            let reasons = entry.reasons ?? []
            #expect(!reasons.isEmpty && !reasons.contains("undocumented"), "no reason for \(entry)")
            for reason in reasons { counts[reason, default: 0] += 1 }
        }
        let formats = try String(contentsOf: DashboardBinary.packageRoot.appendingPathComponent("docs/formats.md"), encoding: .utf8)
        let section = formats.components(separatedBy: "## The input contract as a Frictionless schema").dropFirst().first ?? ""
        var table: [String: Int] = [:]
        for match in section.matches(of: /\n\| `([a-z-]+)` \| ([0-9]+) \|/) { table[String(match.output.1)] = Int(match.output.2) }
        #expect(table == counts, "docs/formats.md's table of disagreements (reason | count) differs from disagreements.json")
    }

    // MARK: - Inputs and runs

    /// The runs to compare, each a list of files checked together: the two sample exports in
    /// one run, then each third-party case alone, as published and re-headed, then each file
    /// of the hostile corpus (Tests/Corpus/hostile) under 64 KiB alone. A third-party case is
    /// read with the delimiter its suite declares, any other file with the one the dashboard
    /// detects.
    static func inputs(_ sandbox: Sandbox) throws -> [[FrictionlessComparison.Input]] {
        func input(_ path: String, name: String, delimiter: String? = nil) -> FrictionlessComparison.Input {
            let header = FrictionlessComparison.header(of: sandbox.directory.appendingPathComponent(path))
            return .init(path: path, name: name, delimiter: delimiter ?? header.delimiter, kind: header.kind, labels: header.labels)
        }
        var runs: [[FrictionlessComparison.Input]] = [[]]
        for kind in FileKind.allCases {
            let source = DashboardBinary.packageRoot.appendingPathComponent("imports/\(kind.rawValue).csv")
            try sandbox.write("samples/\(kind.rawValue).csv", bytes: try Data(contentsOf: source))
            runs[0].append(input("samples/\(kind.rawValue).csv", name: "imports/\(kind.rawValue).csv"))
        }
        for (index, testCase) in try SchemaComparisonInputs.thirdPartyCases().enumerated() {
            let file = SchemaComparisonInputs.fileName(index + 1, testCase.name)
            try sandbox.write("third-party/\(file)", bytes: testCase.data ?? Data())
            runs.append([input("third-party/\(file)", name: "third-party/\(testCase.name)", delimiter: testCase.delimiter)])
            if let reheaded = SchemaComparisonInputs.reheaded(testCase) {
                try sandbox.write("re-headed/\(file)", bytes: reheaded)
                runs.append([input("re-headed/\(file)", name: "re-headed/\(testCase.name)", delimiter: testCase.delimiter)])
            }
        }
        let corpus = DashboardBinary.packageRoot.appendingPathComponent("Tests/Corpus/hostile")
        for name in try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted() where name.hasSuffix(".csv") {
            let bytes = try Data(contentsOf: corpus.appendingPathComponent(name))
            guard bytes.count < 64 * 1024 else { continue }
            try sandbox.write("hostile/\(name)", bytes: bytes)
            runs.append([input("hostile/\(name)", name: "hostile/\(name)")])
        }
        return runs
    }

    /// `dashboard check --format json` on each run, a few at a time; each exits 0 or 65.
    static func check(_ runs: [[FrictionlessComparison.Input]], in sandbox: Sandbox) throws -> [CommandResult] {
        var results: [CommandResult] = []
        for start in stride(from: 0, to: runs.count, by: 4) {
            let launched = try runs[start..<min(start + 4, runs.count)].map { run in
                try sandbox.launch(["check", "--format", "json"] + run.map(\.path))
            }
            for command in launched {
                let result = try command.finish()
                #expect([0, 65].contains(result.exitCode), "\(result)")
                results.append(result)
            }
        }
        return results
    }

    /// Expects `observed` to be the documented disagreements; with `UPDATE_GOLDENS=1` writes
    /// them there instead, keeping the reasons of those already documented (a new one gets
    /// `undocumented`, which `docsFormatsGivesTheReasonOfEveryDocumentedDisagreement` refuses).
    static func expectDocumented(_ observed: [FrictionlessComparison.Disagreement]) throws {
        let url = FrictionlessComparison.documentedFile
        let documented =
            (try? JSONDecoder().decode(FrictionlessComparison.Documented.self, from: Data(contentsOf: url)))?.disagreements ?? []
        let expected = documented.map(\.observed).sorted()
        if GoldenFile.updating {
            let reasons = Dictionary(documented.map { ($0.observed, $0.reasons ?? []) }) { first, _ in first }
            let entries = observed.map { entry in
                var entry = entry
                entry.reasons = reasons[entry] ?? ["undocumented"]
                return entry
            }
            try Data(FrictionlessComparison.documentedText(entries).utf8).write(to: url)
            if expected != observed { Issue.record("disagreements.json updated, re-run without UPDATE_GOLDENS") }
            return
        }
        let missing = Set(expected).subtracting(observed).sorted()
        let unexpected = Set(observed).subtracting(expected).sorted()
        #expect(unexpected.isEmpty, "disagreements nobody documented: \(unexpected.map(String.init(describing:)).joined(separator: "\n"))")
        #expect(
            missing.isEmpty, "documented disagreements no longer seen: \(missing.map(String.init(describing:)).joined(separator: "\n"))")
    }
}
