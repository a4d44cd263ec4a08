import Foundation
import Testing

@testable import DashboardCore

/// `VisibleText`: the one visible form of control, bidi and invisible characters of user data.
@Suite("VisibleText: control, bidi and invisible characters are shown, never obeyed", .storeIndependent)
struct VisibleTextTests {
    /// (input, what a person is shown)
    static let cases: [(String, String)] = [
        ("plain é ü 東京 🧪", "plain é ü 東京 🧪"),
        ("", ""),
        ("\u{1B}]0;pwned\u{07}", "␛]0;pwned␇"),
        ("\u{1B}[2J", "␛[2J"),
        ("a\rb", "a␍b"),
        ("a\nb\r\nc", "a␊b␍␊c"),
        ("a\tb", "a␉b"),
        ("nul\u{0}", "nul␀"),
        ("del\u{7F}", "del␡"),
        ("c1\u{85}\u{9B}", "c1<U+0085><U+009B>"),
        ("exe\u{202E}txt.exe", "exe<U+202E>txt.exe"),
        ("\u{202A}\u{202B}\u{202C}\u{202D}", "<U+202A><U+202B><U+202C><U+202D>"),
        ("\u{2066}x\u{2067}y\u{2068}z\u{2069}", "<U+2066>x<U+2067>y<U+2068>z<U+2069>"),
        ("\u{200E}\u{200F}\u{061C}", "<U+200E><U+200F><U+061C>"),
        ("pay\u{200B}pal", "pay<U+200B>pal"),
        ("zero\u{200C}width\u{200D}join", "zero<U+200C>width<U+200D>join"),
        ("word\u{2060}joiner\u{FEFF}bom", "word<U+2060>joiner<U+FEFF>bom"),
        ("line\u{2028}para\u{2029}", "line<U+2028>para<U+2029>"),
        // Every other format character (Cf) and the Hangul fillers: invisible, so escaped.
        ("soft\u{AD}hyphen", "soft<U+00AD>hyphen"),
        ("tag\u{E0041}\u{E0042}", "tag<U+E0041><U+E0042>"),
        ("note\u{FFF9}a\u{FFFA}b\u{FFFB}", "note<U+FFF9>a<U+FFFA>b<U+FFFB>"),
        ("music\u{1D173}short\u{1BCA0}", "music<U+1D173>short<U+1BCA0>"),
        ("fill\u{3164}\u{115F}\u{1160}\u{FFA0}", "fill<U+3164><U+115F><U+1160><U+FFA0>"),
        // The joiners that draw something stay: an emoji sequence, Persian and Hindi words.
        ("Lab 👩\u{200D}💻 report", "Lab 👩\u{200D}💻 report"),
        ("🏳\u{FE0F}\u{200D}🌈", "🏳\u{FE0F}\u{200D}🌈"),
        ("می\u{200C}خواهم", "می\u{200C}خواهم"),
        ("क्\u{200D}ष", "क्\u{200D}ष"),
        // …but not at an edge or next to a letter that does not join.
        ("\u{200D}👩", "<U+200D>👩"),
        ("a\u{200D}👩", "a<U+200D>👩"),
        // Right-to-left letters are text, not controls: they stay.
        ("שלום", "שלום"),
    ]

    @Test("each character is shown in its one visible form", arguments: cases)
    func visibleForm(input: String, shown: String) {
        #expect(VisibleText.of(input) == shown)
    }

    @Test("the result never holds a character it escapes, and escaping twice changes nothing", arguments: cases)
    func idempotent(input: String, shown: String) {
        let once = VisibleText.of(input)
        #expect(!VisibleText.hasHidden(once))
        #expect(VisibleText.of(once) == once)
    }

    @Test("every C0, DEL and C1 control is escaped")
    func everyControl() {
        for value in Array(0..<0x20) + Array(0x7F...0x9F) {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            let shown = VisibleText.of("a" + String(Character(scalar)) + "b")
            #expect(!shown.unicodeScalars.contains(scalar), "U+\(String(value, radix: 16)) reached the output")
        }
    }

    @Test("JSON keeps the exact value and writes every such character as \\uXXXX")
    func jsonEscapes() throws {
        let value = "a\u{1B}[2J\u{07}\r\u{7F}\u{85}\u{202E}\u{200B}\u{2066}\u{FEFF}z"
        let text = JSONValue.string(value).rendered()
        #expect(text == "\"a\\u001b[2J\\u0007\\r\\u007f\\u0085\\u202e\\u200b\\u2066\\ufeffz\"")
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? String
        #expect(parsed == value)
    }

    @Test("an HTML value is isolated in <bdi> when it holds right-to-left letters or direction controls, only then")
    func htmlIsolation() {
        #expect(HTMLRenderer.value("Biology") == "Biology")
        #expect(HTMLRenderer.value("Café <b>") == "Café &lt;b&gt;")
        #expect(HTMLRenderer.value("שלום 2026") == "<bdi>שלום 2026</bdi>")
        #expect(HTMLRenderer.value("exe\u{202E}txt") == "<bdi>exe&lt;U+202E&gt;txt</bdi>")
        #expect(HTMLRenderer.value("t\u{1B}[2J") == "<bdi>t␛[2J</bdi>")
    }

    @Test("a course without tasks names its id isolated in HTML, visible in text")
    func courseWithoutTasks() {
        let course = ReportSample.course("קורס\u{202E}1")
        #expect(
            ReportMessages.courseWithoutTasks(course, prose: HTMLRenderer.escape, value: HTMLRenderer.value)
                == "No tasks yet for this course. If you expected some, check that tasks.csv uses course_id <bdi>קורס&lt;U+202E&gt;1</bdi>."
        )
        #expect(ReportMessages.courseWithoutTasks(course).hasSuffix("course_id קורס\u{202E}1."))
    }

    @Test("the stale banner isolates the values read from the database, not its own words")
    func staleBannerValues() {
        let notice = StaleNotice(
            dataAsOf: "", ageHours: 0, failedBatch: 4, failedAt: "2026-11-29T07:00:00Z",
            failureReason: "bad/t\u{1B}]0;pwned\u{07}.csv:1: no title")
        #expect(
            notice.message
                == "The last import (batch 4, 2026-11-29T07:00:00Z) failed: bad/t\u{1B}]0;pwned\u{07}.csv:1: no title. No data has been imported yet."
        )
        #expect(
            notice.message(prose: HTMLRenderer.escape, value: HTMLRenderer.value)
                == "The last import (batch 4, 2026-11-29T07:00:00Z) failed: <bdi>bad/t␛]0;pwned␇.csv:1: no title</bdi>. No data has been imported yet."
        )
    }
}
