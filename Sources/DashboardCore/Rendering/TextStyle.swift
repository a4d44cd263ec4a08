import Foundation

/// How text reports mark buckets: plain, or with ANSI colours for a terminal (SPEC §8: colour
/// only on a terminal, never with `NO_COLOR`; the shell decides). Status is always written in
/// words as well: colour only repeats it. Pure.
///
/// Policy: overdue red, due today yellow, upcoming green, no due date cyan, completed dim; a
/// card that needs attention bold red. Only finished pieces are coloured (after a cut or a
/// wrap), and `DisplayWidth` gives a colour sequence no column, so layouts are those of the
/// plain text.
package struct TextStyle: Sendable, Equatable {
    package var colour: Bool

    package init(colour: Bool) { self.colour = colour }

    package static let plain = TextStyle(colour: false)
    package static let terminal = TextStyle(colour: true)

    /// The SGR code of each bucket.
    static func code(_ bucket: Bucket) -> String {
        switch bucket {
        case .overdue: return "31"
        case .today: return "33"
        case .upcoming: return "32"
        case .undated: return "36"
        case .completed: return "2"
        case .toGrade: return "35"
        case .excused: return "2"
        }
    }

    func wrap(_ text: String, _ code: String) -> String {
        guard colour, !text.isEmpty else { return text }
        return "\u{1B}[\(code)m" + text + "\u{1B}[0m"
    }

    /// `text` in `bucket`'s colour.
    package func bucket(_ text: String, _ bucket: Bucket) -> String { wrap(text, Self.code(bucket)) }
    /// A card's "needs attention" words, and its frame.
    package func attention(_ text: String) -> String { wrap(text, "1;31") }
    /// Headings.
    package func strong(_ text: String) -> String { wrap(text, "1") }
    /// What matters least (completed counts).
    package func muted(_ text: String) -> String { wrap(text, "2") }
}
