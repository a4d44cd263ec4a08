import Foundation
import Testing

/// `report grid --format html --out DIR` on the sample: index.html and one page per course,
/// each equal to its golden in Goldens/html-grid/, tidy-clean, self-contained and linked.
extension ReportGoldenTests {
    static let htmlFolder = "html-grid"

    /// What `--out` writes for the sample: the index and one page per course (named from the
    /// course id and the first 8 hex digits of its SHA-256).
    static let htmlFiles = [
        "course-bio-101-nyc-f3c249c4.html", "course-eng-105-53a60a75.html", "course-hst-220-syd-3f36fc23.html",
        "course-jpn-150-tyo-e37531c5.html", "course-mat-210-ber-5b60330d.html", "index.html",
    ]

    /// Runs the HTML report into `out/` and returns the sandbox and the names written.
    static func htmlReport() throws -> (Sandbox, [String]) {
        let sandbox = try imported()
        let result = try sandbox.run(["--db", "db.sqlite", "--as-of", asOf, "report", "grid", "--format", "html", "--out", "out"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout == "")
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("out")).sorted()
        return (sandbox, names)
    }

    @Test func htmlPagesMatchTheirGoldens() throws {
        let (sandbox, names) = try Self.htmlReport()
        #expect(names == Self.htmlFiles)
        GoldenFile.pruneWhenUpdating(Self.htmlFolder, keep: names)
        if !GoldenFile.updating {
            #expect(GoldenFile.listing(Self.htmlFolder) == names, "Goldens/\(Self.htmlFolder) holds other files than --out wrote")
        }
        for name in names {
            GoldenFile.expectMatch(try sandbox.read("out/" + name), golden: Self.htmlFolder + "/" + name)
        }
    }

    @Test func everyHTMLPagePassesTidyWithNoErrorOrWarning() throws {
        let tidy = "/usr/bin/tidy"
        guard FileManager.default.isExecutableFile(atPath: tidy) else {
            Issue.record("tidy is not installed (\(tidy)): `make test` installs it (Debian package tidy)")
            return
        }
        let (sandbox, names) = try Self.htmlReport()
        #expect(!names.isEmpty)
        for name in names {
            let result = try sandbox.runTool("tidy", ["-q", "-e", "out/" + name])
            #expect(result.exitCode == 0 && result.stderr == "" && result.stdout == "", "tidy on \(name):\n\(result)")
        }
    }

    @Test func htmlPagesAreSelfContainedAndTheIndexLinksEveryCoursePage() throws {
        let (sandbox, names) = try Self.htmlReport()
        for name in names {
            let page = String(decoding: try sandbox.read("out/" + name), as: UTF8.self).lowercased()
            for forbidden in ["http://", "https://", "<link", "<img", "<iframe", "src=", "url(", "@import", "style=\""] {
                #expect(!page.contains(forbidden), "\(name) contains \(forbidden)")
            }
            #expect(page.firstMatch(of: /<[^>]*\son[a-z]+=/) == nil, "\(name) has an inline handler")
            // One inline script (the page's filters, issue 29) and one style, nothing else.
            #expect(page.components(separatedBy: "<script").count == 2, "\(name) has one script")
            #expect(page.components(separatedBy: "<style").count == 2, "\(name) has one style")
        }
        let coursePages = names.filter { $0 != "index.html" }
        #expect(coursePages.count == 5)
        let index = String(decoding: try sandbox.read("out/index.html"), as: UTF8.self)
        // Each card links its course page, and its "Needs attention" words to the page's overdue
        // section.
        let links = index.matches(of: /href="([^"]*)"/).map { String($0.output.1) }
        #expect(links.sorted() == coursePages.flatMap { [$0, $0 + "#overdue"] }, "index.html links each course page, and nothing else")
        for page in coursePages {
            let html = String(decoding: try sandbox.read("out/" + page), as: UTF8.self)
            #expect(html.matches(of: /href="([^"]*)"/).map { String($0.output.1) } == ["index.html"], "\(page) links back to the index")
        }
    }

    /// Each page's Content-Security-Policy allows exactly its one script and its one style: their
    /// SHA-256, computed here by Python's hashlib over the bytes between the tags, are the
    /// policy's hashes, and the policy allows nothing else.
    @Test func eachPagesPolicyAllowsExactlyItsScriptAndStyle() throws {
        let (sandbox, names) = try Self.htmlReport()
        let script = """
            import base64, hashlib, re, sys
            for path in sys.argv[1:]:
                page = open(path, encoding="utf-8").read()
                policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page).group(1)
                def digest(tag):
                    texts = re.findall(r"<%s>(.*?)</%s>" % (tag, tag), page, re.S)
                    return ["'sha256-" + base64.b64encode(hashlib.sha256(t.encode()).digest()).decode() + "'" for t in texts]
                print(path.split("/")[-1], "|", policy, "|", " ".join(digest("script")), "|", " ".join(digest("style")))
            """
        try sandbox.write("csp.py", script)
        let result = try sandbox.runTool("python3", ["csp.py"] + names.map { sandbox.path("out/" + $0) })
        #expect(result.exitCode == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map { $0.components(separatedBy: " | ") }
        #expect(lines.count == names.count)
        for line in lines where line.count == 4 {
            let (name, policy, scriptHash, styleHash) = (line[0], line[1], line[2], line[3])
            #expect(
                policy == "default-src 'none'; script-src \(scriptHash); style-src \(styleHash); base-uri 'none'; form-action 'none'",
                "\(name): \(policy)")
            #expect(scriptHash.hasPrefix("'sha256-") && styleHash.hasPrefix("'sha256-"), "\(name)")
        }
    }
}
