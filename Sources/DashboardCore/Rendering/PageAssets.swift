import Foundation

/// A page's one style and one script, and the Content-Security-Policy that allows exactly them
/// (CSP level 2 hashes): `default-src 'none'` refuses every other script, style, image, font,
/// frame and connection, `base-uri` and `form-action` close the two doors `default-src` leaves.
/// An inline handler or a style attribute is refused too, so the card's bar draws its widths
/// with classes (`.w0` to `.w100`, on the grid's style).
struct PageAssets: Sendable {
    /// The `<style>` element's text.
    let style: String
    /// The `<script>` element's text, if the page has one.
    let script: String?
    /// The policy's text, for `<meta http-equiv="Content-Security-Policy">`.
    let policy: String

    init(style: String, script: String?) {
        self.style = style
        self.script = script
        var policy = "default-src 'none'; "
        if let script { policy += "script-src \(Self.hash(script)); " }
        policy += "style-src \(Self.hash(style)); base-uri 'none'; form-action 'none'"
        self.policy = policy
    }

    /// A page's assets for `kind` in `lexicon`'s language (each made once). `states`: a list
    /// page that lists work handed in or excused (`PageScript.script`).
    static func of(_ kind: PageScript.Kind?, _ lexicon: Lexicon, states: Bool = false) -> PageAssets {
        // A page without script (a roll-up) draws no bar and no chip: its style stays the same.
        guard let kind else { return plain }
        if kind == .list, states { return (withStates[lexicon.language] ?? withStates[.en]!) }
        if kind == .grid, states { return (gridWithStates[lexicon.language] ?? gridWithStates[.en]!) }
        let pair = byLanguage[lexicon.language] ?? byLanguage[.en]!
        return kind == .list ? pair.list : pair.grid
    }

    /// The colours of SPEC §11's places (`to_grade`, `excused`) in bars and beside their words,
    /// only in pages that show them, so that every other page keeps its style and its hash.
    /// Excused work is struck through (stripes), like the text bar's `/`; to grade has a colour
    /// of its own in light and dark schemes.
    static let statesStyle = """
        :root { --to-grade: #8250df; } @media (prefers-color-scheme: dark) { :root { --to-grade: #d2a8ff; } }
        .b-to_grade, .k-to_grade::before { background: var(--to-grade); }
        .b-excused, .k-excused::before { background: repeating-linear-gradient(135deg, var(--undated) 0 1px, transparent 1px 3px); }

        """

    /// The list pages' assets with the chips of SPEC §11's places.
    static let withStates: [ReportLanguage: PageAssets] = Dictionary(
        uniqueKeysWithValues: ReportLanguage.allCases.map { language in
            let script = "\n" + PageScript.script(Lexicon(language), states: true) + "\n"
            return (language, PageAssets(style: listStyle + statesStyle, script: script))
        })

    /// The grid pages' assets when a card counts work to grade or excused.
    static let gridWithStates: [ReportLanguage: PageAssets] = Dictionary(
        uniqueKeysWithValues: ReportLanguage.allCases.map { language in
            let grid = (byLanguage[language] ?? byLanguage[.en]!).grid
            return (language, PageAssets(style: grid.style + statesStyle, script: grid.script))
        })

    static let plain = PageAssets(style: "\n" + HTMLRenderer.style + "\n", script: nil)
    /// The style of a page with a script: the pages' and the filters'.
    static let listStyle = "\n" + HTMLRenderer.style + "\n" + PageScript.style + "\n"
    static let byLanguage: [ReportLanguage: (list: PageAssets, grid: PageAssets)] = Dictionary(
        uniqueKeysWithValues: ReportLanguage.allCases.map { language in
            let script = "\n" + PageScript.script(Lexicon(language)) + "\n"
            return (
                language,
                (
                    PageAssets(style: listStyle, script: script),
                    PageAssets(style: listStyle + barWidths + "\n", script: script)
                )
            )
        })

    /// A class per whole percent of the card's bar.
    static let barWidths = stride(from: 0, through: 100, by: 10).map { tens in
        (tens..<min(tens + 10, 101)).map { ".w\($0) { width: \($0)%; }" }.joined(separator: " ")
    }.joined(separator: "\n")

    /// `'sha256-…'`: the source expression that allows an element whose text is `text`.
    static func hash(_ text: String) -> String {
        let digest = SHA256()
        digest.update(Array(text.utf8))
        return "'sha256-" + Data(digest.finalize()).base64EncodedString() + "'"
    }
}
