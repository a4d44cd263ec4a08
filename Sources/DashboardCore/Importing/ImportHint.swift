/// A place where an import's messages point their reader at the shell that ran it: how to
/// review a held batch, the delete limit, a strict run, the date order, the encoding. The
/// library names the place; the shell words it (`ImportWording`, given in
/// `ImportOptions.wording`; the command line's is `ImportWording.commandLine` in the executable).
///
/// Policy: the words go where the message goes, so a batch's stored reason and its problems'
/// hints hold the words of the shell that ran the import (the command line's, when `dashboard
/// import` ran it), as a report file holds its wording (`ReportWording`).
package enum ImportHint: Sendable, Equatable {
    /// How to review held batch N, then approve or discard it (the held batch's reason).
    case reviewHeld(batchID: Int)
    /// How to approve the held batch (nil: no batch was recorded), in JUnit's delete guard case.
    case approveHeld(batchID: Int?)
    /// The delete limit a sync went over.
    case deleteLimit(DeleteLimit)
    /// How to run a sync with a higher delete limit.
    case raiseDeleteLimit
    /// The setting that refused a run with rejected rows (strict).
    case strict
    /// How to tell the order of slashed dates (month/day or day/month).
    case chooseDateOrder
    /// How to read a file saved in a single-byte encoding instead of UTF-8.
    case chooseEncoding
}

/// How an import words its hints; the shell that runs the import gives it.
package typealias ImportWording = Wording<ImportHint>

extension Wording where Hint == ImportHint {
    /// The wording of an import no shell has worded: each place in plain words, no flag and no
    /// command (a library user's import, the unit tests).
    package static let plain = ImportWording(name: "plain") { hint in
        switch hint {
        case .reviewHeld(let id): return "Review batch \(id)'s planned changes, then approve or discard it"
        case .approveHeld(let id): return id.map { "batch \($0)" } ?? "the held batch"
        case .deleteLimit(let limit): return "the delete limit \(limit)"
        case .raiseDeleteLimit: return "a higher delete limit"
        case .strict: return "strict"
        case .chooseDateOrder: return "give the date order (month/day or day/month)"
        case .chooseEncoding: return "read it as windows-1252 (or latin1)"
        }
    }
}
