import DashboardCore
import Foundation

/// `dashboard revert ENTRY [--force]`, `dashboard revert --batch ID [--force]` and
/// `dashboard revert --group G [--force]`
enum RevertCommand: Command {
    static let spec = CommandSpec(
        name: "revert",
        usage: "dashboard revert ENTRY [--force] | dashboard revert --batch ID [--force] | dashboard revert --group G [--force]",
        abstract: "Undo an audit entry, an import batch or a bulk group; the revert is logged and revertible.",
        discussion: """
            ENTRY: an override goes back to the computed bucket (or to the override before it), a
            deleted task is restored, an import's change to the task is undone, a revert is
            re-applied. A `time` entry cannot be reverted. An entry with later changes to the
            same task is refused, naming them, unless --force.
            --batch ID: every row the batch inserted is tombstoned, every row it updated gets its
            previous values back, every row it deleted is restored. Refused when later batches
            changed the same rows, unless --force. The revert is a batch of its own: revert it to
            re-apply the original.
            --group G: every entry of the group a bulk `reclassify --yes` recorded is undone as
            ENTRY would be, in one transaction; refused, naming every blocking entry, when later
            changes touch its tasks, unless --force. Entries already undone one by one stay
            undone. The revert entries form a group of their own: revert it to re-apply the group.
            ENTRY, ID and G are whole numbers from \(OptionValueKind.identifier.rangeText ?? "1").
            """,
        examples: [
            "dashboard revert 118",
            "dashboard revert --batch 7",
            "dashboard revert --group 3",
            "dashboard revert 118 --force --actor adams",
        ],
        options: [
            .value("batch", "ID", "revert a whole import batch", kind: .identifier),
            .value("group", "G", "revert every entry of a bulk reclassify's group", kind: .identifier),
            .flag("force", "revert even when later changes touch the same task or rows"),
            .value("actor", "NAME", "who reverts (default: $USER, else the name of the user running it; a teacher's role: itself)"),
            .value("format", "text|json", "text (default) or json: the revert entries on stdout"),
            .value("wait", "SECONDS", "wait this long for a running import (default 0: exit 75)", kind: .waitSeconds),
        ])

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let format = format(invocation)
        let args = invocation.arguments
        let batchID = args.integer("batch")
        let groupID = args.integer("group")
        if [batchID != nil, groupID != nil, !args.positionals.isEmpty].filter({ $0 }).count > 1 {
            throw CommandError.usage("give one of ENTRY, --batch ID or --group G", command: spec.name)
        }
        if let groupID { return try revertGroup(groupID, invocation) }
        let store: any WritableStore
        let result: RevertResult
        let what: String
        if let batchID {
            store = try openExistingStoreForWriting(invocation, wait: waitSeconds(invocation))
            let zone = try defaultZone(store, invocation)
            let actor = try Self.actor(invocation, store: store)
            try requireMayRevert(.batch(batchID), store, invocation)
            do {
                result = try Reverter(store: store).revert(
                    batchID: batchID, force: args.has("force"), actor: actor, asOf: invocation.global.asOf,
                    defaultTimeZone: zone)
            } catch {
                throw auditFailure(error)
            }
            what = "batch \(batchID)"
        } else {
            let text = try positionals(invocation, count: 1, names: "ENTRY (an audit entry id), --batch ID or --group G")[0]
            let entryID = try identifier(text, label: "ENTRY")
            store = try openExistingStoreForWriting(invocation, wait: waitSeconds(invocation))
            let zone = try defaultZone(store, invocation)
            let actor = try Self.actor(invocation, store: store)
            try requireMayRevert(.entry(entryID), store, invocation)
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

    /// `revert --group G`: every entry of the group, one `revert` entry each, as a new group.
    static func revertGroup(_ groupID: Int, _ invocation: Invocation) throws -> ExitCode {
        let args = invocation.arguments
        let store = try openExistingStoreForWriting(invocation, wait: waitSeconds(invocation))
        let zone = try defaultZone(store, invocation)
        let actor = try Self.actor(invocation, store: store)
        try requireMayRevert(.group(groupID), store, invocation)
        let result: RevertResult
        do {
            result = try Reverter(store: store).revert(
                groupID: groupID, force: args.has("force"), actor: actor, asOf: invocation.global.asOf, defaultTimeZone: zone)
        } catch {
            throw auditFailure(error)
        }
        if format(invocation) == "json" {
            invocation.console.out(
                JSONValue.object([
                    ("schema", .int(1)), ("group", result.groupID.map { .int($0) } ?? .null),
                    ("already_undone", .array(result.alreadyUndone.map { .int($0) })),
                    ("entries", .array(result.entries.map(\.json))),
                ]).rendered() + "\n")
        }
        let count = result.entries.count
        let ids = result.entries.map(\.id)
        let range = count == 1 ? "entry \(ids[0])" : "entries \(ids.min() ?? 0)–\(ids.max() ?? 0)"
        var note = "reverted group \(groupID) as group \(result.groupID ?? 0): \(count) task\(count == 1 ? "" : "s") put back (\(range))"
        if !result.alreadyUndone.isEmpty {
            let undone = result.alreadyUndone.count
            note +=
                "; \(undone) entr\(undone == 1 ? "y was" : "ies were") already undone (by \(result.alreadyUndone.map(String.init).joined(separator: ", ")))"
        }
        if let group = result.groupID { note += "; undo with `dashboard revert --group \(group)`" }
        invocation.console.note(note)
        return .success
    }

    /// A teacher's role (PostgreSQL) asking to revert what is not its own pin, or a batch, or
    /// without the right to write the log: refused before the revert begins, in the words of the
    /// server's refusal (`RefusalWords`), so that it is never first told to pass --force or to
    /// revert later entries it may not revert either.
    private static func requireMayRevert(_ target: RevertTarget, _ store: any WritableStore, _ invocation: Invocation) throws {
        let refusal: RoleRefusal?
        do {
            refusal = try store.revertRefusal(target)
        } catch {
            let path = invocation.global.databasePath
            throw CommandError.store(StoreFactory.storeFailure(error, path: path) ?? .internalFailure(.unexpected("\(error)")))
        }
        guard let refusal else { return }
        throw RefusalWords.error(
            refusal, database: invocation.global.databaseDisplay, command: spec.name, arguments: invocation.arguments)
    }
}
