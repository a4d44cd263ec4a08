import DashboardCore
import Foundation

/// `dashboard access grant-teacher ROLE --teacher NAME | revoke ROLE | list` (PostgreSQL only)
enum AccessCommand: Command {
    static let spec = CommandSpec(
        name: "access",
        usage: "dashboard access grant-teacher ROLE --teacher NAME [--reclassify] | revoke ROLE | list   (with --db postgresql://…)",
        abstract: "PostgreSQL: let a teacher's role read only that teacher's courses.",
        discussion: """
            Row-level security in the PostgreSQL store: a role granted a teacher reads only the
            courses whose teacher is that name (several grants add up), and their tasks,
            overrides, audit entries and history, through `dashboard report` or `psql` alike,
            plus the batch records and settings (no student data). It is given read access only,
            unless --reclassify: then it may also pin the buckets of that teacher's tasks
            (`dashboard reclassify`, one task or many), and nothing else. The role must exist (a
            login role the administrator makes in psql, docs/postgresql.md). Run as the owner of
            the dashboard's tables. `revoke` takes every grant of the role away; `list` shows who
            reads what and who may reclassify. Exit 0; 64 for a SQLite --db;
            65 for a role that does not exist, or a revoke of a role that holds no grant; 74
            when the server cannot be reached.
            """,
        examples: [
            "dashboard --db postgresql://admin@db.example.org/district access grant-teacher ann_lee --teacher \"Ann Lee\"",
            "dashboard --db postgresql://admin@db.example.org/district access grant-teacher ann_lee --teacher \"Ann Lee\" --reclassify",
            "dashboard --db postgresql://admin@db.example.org/district access list",
        ],
        verbs: [
            .init(
                name: "grant-teacher", arguments: "ROLE", abstract: "Let ROLE read the courses of --teacher NAME.",
                options: [
                    .value("teacher", "NAME", "the teacher whose courses ROLE reads, as the courses file names them"),
                    .flag("reclassify", "ROLE may also pin the buckets of that teacher's tasks (dashboard reclassify)"),
                ]),
            .init(name: "revoke", arguments: "ROLE", abstract: "Take every grant of ROLE away.", options: []),
            .init(name: "list", arguments: nil, abstract: "Every role, the teachers it reads, and whether it may reclassify.", options: []),
        ])

    static func run(_ invocation: Invocation) throws -> ExitCode {
        guard case .postgres(let uri) = DatabaseLocation(invocation.global.databasePath) else {
            throw CommandError.usage("access works on a PostgreSQL database: pass --db postgresql://…", command: spec.name)
        }
        let verb = invocation.arguments.positionals.first
        switch verb {
        case "grant-teacher", "revoke":
            let given = try positionals(invocation, count: 2, names: "ROLE")
            let store = try open(uri)
            do {
                if verb == "revoke" {
                    try PGAccess.revoke(store, role: given[1])
                    invocation.console.note("\(VisibleText.of(given[1])) reads no course of \(store.display) any more")
                } else {
                    guard let teacher = invocation.arguments.value("teacher"), !teacher.isEmpty else {
                        throw CommandError.usage("missing --teacher NAME", command: spec.name)
                    }
                    let reclassify = invocation.arguments.has("reclassify")
                    try PGAccess.grant(store, role: given[1], teacher: teacher, reclassify: reclassify)
                    invocation.console.note(
                        "\(VisibleText.of(given[1])) reads\(reclassify ? " and may reclassify" : "") the courses of \(VisibleText.of(teacher)) in \(store.display)"
                    )
                }
            } catch let failure as PGAccess.Failure {
                switch failure {
                case .noSuchRole(let role):
                    throw CommandError(
                        .dataError, "no role \"\(VisibleText.of(role))\" on the server; nothing was granted",
                        hint: "the administrator makes it first: a login role with a password (docs/postgresql.md)")
                case .notGranted(let role):
                    throw CommandError(
                        .dataError, "\"\(VisibleText.of(role))\" holds no grant; nothing was revoked", hint: "see `dashboard access list`")
                }
            } catch let error as PGError {
                throw CopyCommand.postgresError(PGStore.classify(error, display: store.display))
            }
        case "list":
            _ = try positionals(invocation, count: 1, names: "")
            let store = try open(uri)
            let grants: [PGAccess.Grant]
            do {
                grants = try PGAccess.list(store)
            } catch let error as PGError {
                throw CopyCommand.postgresError(PGStore.classify(error, display: store.display))
            }
            var rows = [["ROLE", "TEACHER", "MAY"]]
            for grant in grants {
                rows.append([VisibleText.of(grant.role), VisibleText.of(grant.teacher), grant.reclassify ? "read, reclassify" : "read"])
            }
            invocation.console.out(grants.isEmpty ? "No role is granted a teacher's courses.\n" : TextTable.render(rows, rightAligned: []))
        case nil:
            throw CommandError.usage("missing action: grant-teacher ROLE, revoke ROLE or list", command: spec.name)
        case let other?:
            throw CommandError.usage("unknown action \"\(other)\": use grant-teacher ROLE, revoke ROLE or list", command: spec.name)
        }
        return .success
    }

    private static func open(_ uri: String) throws -> PGStore {
        do {
            return try PGStore(uri: uri, create: false)
        } catch {
            throw CopyCommand.postgresError(error)
        }
    }
}
