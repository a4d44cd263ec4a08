/// A place where an audit entry's reason points its reader at the shell: the import's option
/// that lets it win over manual overrides. The library names the place; whoever shows the log
/// words it (`AuditWording`; the command line's is `AuditWording.commandLine` in the executable).
package enum AuditHint: Sendable, Equatable {
    /// The option an import that cleared an override ran with.
    case overrodeManual
    /// An import run with the option that lets it win over manual overrides.
    case importOverridingManual
}

/// How the audit log's reasons word their hints.
package typealias AuditWording = Wording<AuditHint>

extension Wording where Hint == AuditHint {
    /// Plain words, no flag: the words an entry's reason is stored in.
    package static let plain = AuditWording(name: "plain") { hint in
        switch hint {
        case .overrodeManual: return "the import was told to override manual pins"
        case .importOverridingManual: return "an import told to override manual pins"
        }
    }
}

/// The reason `Categorizer.decide` records when an import changes a task a manual override
/// pins: it cleared the override, or kept it (a conflict).
///
/// Policy (issue 32): the reason is stored in plain words (`AuditWording.plain`), and read
/// back by its shape, so that entries written before, whose reasons named the command line's
/// flag, read the same: `init(stored:)` takes either, and whoever shows the log words it again
/// (`AuditEntry.worded`).
package enum ImportOverrideReason: Equatable, Sendable {
    /// The import cleared override #entry, which pinned the task to `pinned`.
    case cleared(entry: Int, pinned: String)
    /// The import changed the task while override #entry pins it to `pinned`; it was kept.
    case kept(entry: Int, pinned: String)

    /// The reason in `wording`'s words.
    package func text(_ wording: AuditWording) -> String {
        switch self {
        case .cleared(let entry, let pinned):
            return "\(Self.clearedStart)\(entry) (pinned to \(pinned)); \(wording(.overrodeManual))"
        case .kept(let entry, let pinned):
            return "\(Self.keptStart)\(entry) pins it to \(pinned)\(Self.keptMiddle)\(wording(.importOverridingManual))\(Self.keptEnd)"
        }
    }

    /// The reason as the audit log stores it.
    package var stored: String { text(.plain) }

    private static let clearedStart = "the import cleared override #"
    private static let keptStart = "the import changed this task while override #"
    private static let keptMiddle = "; the override was kept ("
    private static let keptEnd = " lets the import win)"

    /// Reads a stored reason of either wording (the plain one stored now, the command line's
    /// stored before); nil for any other reason.
    package init?(stored text: String) {
        if let afterStart = text.dropping(prefix: Self.clearedStart), case (let entry, let afterEntry)? = Self.entry(afterStart),
            let pin = afterEntry.dropping(prefix: " (pinned to "), let close = pin.firstIndex(of: ")"),
            pin[close...].hasPrefix("); ")
        {
            self = .cleared(entry: entry, pinned: String(pin[..<close]))
        } else if let afterStart = text.dropping(prefix: Self.keptStart), case (let entry, let afterEntry)? = Self.entry(afterStart),
            let pin = afterEntry.dropping(prefix: " pins it to "), let middle = pin.range(of: Self.keptMiddle),
            text.hasSuffix(Self.keptEnd)
        {
            self = .kept(entry: entry, pinned: String(pin[..<middle.lowerBound]))
        } else {
            return nil
        }
    }

    /// The entry number at the start of `text`, and what follows it.
    private static func entry(_ text: Substring) -> (Int, Substring)? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard let entry = Int(digits) else { return nil }
        return (entry, text[digits.endIndex...])
    }
}

extension AuditEntry {
    /// The entry with its reason in `wording`'s words when the categorizer wrote it for an
    /// override an import met (`ImportOverrideReason`, either stored form); any other reason
    /// (a teacher's, a revert's) as stored.
    package func worded(_ wording: AuditWording) -> AuditEntry {
        guard cause == .import || cause == .restore, let reason = ImportOverrideReason(stored: reason) else { return self }
        var entry = self
        entry.reason = reason.text(wording)
        return entry
    }
}

extension StringProtocol {
    /// The text after `prefix`; nil when it does not start with it.
    fileprivate func dropping(prefix: String) -> SubSequence? {
        hasPrefix(prefix) ? self[index(startIndex, offsetBy: prefix.count)...] : nil
    }
}
