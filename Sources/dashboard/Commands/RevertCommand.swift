import DashboardCore
import Foundation

/// `dashboard revert ENTRY [--force]` and `dashboard revert --batch ID [--force]`
enum RevertCommand: Command {
    static let spec = CommandSpec(
        name: "revert",
        usage: "dashboard revert ENTRY [--force] | dashboard revert --batch ID [--force]",
        abstract: "Undo one audit entry, or a whole import batch; the revert is logged and revertible.",
        discussion: """
            ENTRY: an override goes back to the computed bucket (or to the override before it), a
            deleted task is restored, an import's change to the task is undone, a revert is
            re-applied. A `time` entry cannot be reverted. An entry with later changes to the
            same task is refused, naming them, unless --force.
            --batch ID: every row the batch inserted is tombstoned, every row it updated gets its
            previous values back, every row it deleted is restored. Refused when later batches
            changed the same rows, unless --force. The revert is a batch of its own: revert it to
            re-apply the original.
            ENTRY and ID are whole numbers from \(OptionValueKind.identifier.rangeText ?? "1").
            """,
        examples: [
            "dashboard revert 118",
            "dashboard revert --batch 7",
            "dashboard revert 118 --force --actor adams",
        ],
        options: [
            .value("batch", "ID", "revert a whole import batch", kind: .identifier),
            .flag("force", "revert even when later changes touch the same task or rows"),
            .value("actor", "NAME", "who reverts (default: $USER)"),
            .value("format", "text|json", "text (default) or json: the revert entries on stdout"),
            .value("wait", "SECONDS", "wait this long for a running import (default 0: exit 75)", kind: .waitSeconds),
        ])

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let format = format(invocation)
        let args = invocation.arguments
        let actor = GlobalOptions.actor(args, environment: invocation.environment)
        let batchID = args.integer("batch")
        if batchID != nil, !args.positionals.isEmpty {
            throw CommandError.usage("give either an ENTRY or --batch ID, not both", command: spec.name)
        }
        let store: any WritableStore
        let result: RevertResult
        let what: String
        if let batchID {
            store = try openExistingStoreForWriting(invocation, wait: waitSeconds(invocation))
            let zone = try defaultZone(store, invocation)
            do {
                result = try Reverter(store: store).revert(
                    batchID: batchID, force: args.has("force"), actor: actor, asOf: invocation.global.asOf,
                    defaultTimeZone: zone)
            } catch {
                throw auditFailure(error)
            }
            what = "batch \(batchID)"
        } else {
            let text = try positionals(invocation, count: 1, names: "ENTRY (an audit entry id) or --batch ID")[0]
            let entryID = try identifier(text, label: "ENTRY")
            store = try openExistingStoreForWriting(invocation, wait: waitSeconds(invocation))
            let zone = try defaultZone(store, invocation)
            do {
                result = try Reverter(store: store).revert(
                    entryID: entryID, force: args.has("force"), actor: actor, asOf: invocation.global.asOf,
                    defaultTimeZone: zone)
            } catch {
                throw auditFailure(error)
            }
            what = "entry \(entryID)"
        }
        if format == "json" {
            invocation.console.out(
                JSONValue.object([
                    ("schema", .int(1)), ("batch_id", result.batchID.map { .int($0) } ?? .null),
                    ("counts", ImportResultJSON.counts(result.counts)), ("entries", .array(result.entries.map(\.json))),
                ]).rendered() + "\n")
        }
        let batch = result.batchID.map { " as batch \($0)" } ?? ""
        let first = result.entries.first.map { " (entry \($0.id))" } ?? ""
        var undo = ""
        if args.value("batch") != nil, let id = result.batchID {
            undo = "; undo with `dashboard revert --batch \(id)`"
        } else if let entry = result.entries.first {
            undo = "; undo with `dashboard revert \(entry.id)`"
        }
        invocation.console.note(
            "reverted \(what)\(batch): \(result.entries.count) audit entr\(result.entries.count == 1 ? "y" : "ies") recorded\(first)\(undo)"
        )
        return .success
    }
}
