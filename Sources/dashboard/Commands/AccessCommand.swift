import DashboardCore
import Foundation

/// `dashboard access grant-teacher ROLE --teacher NAME | revoke ROLE | list` (PostgreSQL only)
enum AccessCommand: Command {
    static let spec = CommandSpec(
        name: "access",
        usage:
            "dashboard access grant-teacher ROLE --teacher NAME [--reclassify] [--allow-no-courses] | revoke ROLE | list   (with --db postgresql://…)",
        abstract: "PostgreSQL: let a teacher's role read only that teacher's courses.",
        discussion: """
            Row-level security in the PostgreSQL store: a role granted a teacher reads only the
            courses whose teacher's name has every word of NAME, as `report --teacher NAME` finds
            them (case and accents aside: "Nguyen" finds "Nguyễn Văn An"; several grants add
            up), and their tasks, overrides, audit entries and history, through `dashboard
            report` or `psql` alike, plus the batch records and settings (no student data). A
            grant is a rule: courses imported later whose teacher has those words are read too.
            grant-teacher lists the teachers NAME matches now and their courses (stdout); a name
            that matches no course is refused (65) unless --allow-no-courses (a grant ahead of
            the data). It is given read access only, unless --reclassify: then it may also pin
            the buckets of those courses' tasks (`dashboard reclassify`, one task or many) and
            undo its own pins (`dashboard revert`), and nothing else. The role must exist (a
            login role the administrator makes in psql, docs/postgresql.md). Run as the owner of
            the dashboard's tables. `revoke` takes every grant of the role away; `list` shows who
            reads what, who may reclassify, and how many courses each grant gives now. Exit 0;
            64 for a SQLite --db or a NAME without a letter or digit; 65 for a role that does
            not exist, a NAME that matches no course, or a revoke of a role that holds no grant;
            74 when the server cannot be reached.
            """,
        examples: [
            "dashboard --db postgresql://admin@db.example.org/district access grant-teacher ann_lee --teacher \"Ann Lee\"",
            "dashboard --db postgresql://admin@db.example.org/district access grant-teacher ann_lee --teacher \"Ann Lee\" --reclassify",
            "dashboard --db postgresql://admin@db.example.org/district access grant-teacher new_hire --teacher \"Kim Park\" --allow-no-courses",
            "dashboard --db postgresql://admin@db.example.org/district access list",
        ],
        verbs: [
            .init(
                name: "grant-teacher", arguments: "ROLE", abstract: "Let ROLE read the courses of --teacher NAME.",
                options: [
                    .value("teacher", "NAME", "the teacher whose courses ROLE reads: every word of NAME, as report --teacher finds it"),
                    .flag("reclassify", "ROLE may also pin the buckets of that teacher's tasks and undo its own pins"),
                    .flag("allow-no-courses", "grant even when no course's teacher has NAME yet (ahead of an import)"),
                ]),
            .init(name: "revoke", arguments: "ROLE", abstract: "Take every grant of ROLE away.", options: []),
            .init(
                name: "list", arguments: nil, abstract: "Every role, the teachers it reads, whether it may reclassify, its courses now.",
                options: []),
        ])

    static func run(_ invocation: Invocation) throws -> ExitCode {
        guard case .postgres(let uri) = DatabaseLocation(invocation.global.databasePath) else {
            throw CommandError.usage("access works on a PostgreSQL database: pass --db postgresql://…", command: spec.name)
        }
        let verb = invocation.arguments.positionals.first
        switch verb {
        case "grant-teacher", "revoke":
            let given = try positionals(invocation, count: 2, names: "ROLE")
            var teacher = ""
            if verb == "grant-teacher" {
                guard let name = invocation.arguments.value("teacher"), !name.isEmpty else {
                    throw CommandError.usage("missing --teacher NAME", command: spec.name)
                }
                teacher = name
            }
            let store = try open(uri)
            do {
                if verb == "revoke" {
                    try PGAccess.revoke(store, role: given[1])
                    invocation.console.note("\(VisibleText.of(given[1])) reads no course of \(store.display) any more")
                } else {
                    try grant(invocation, store: store, role: given[1], teacher: teacher)
                }
            } catch let failure as PGAccess.Failure {
                throw words(failure)
            } catch let error as PGError {
                throw CopyCommand.postgresError(PGStore.classify(error, display: store.display))
            }
        case "list":
            _ = try positionals(invocation, count: 1, names: "")
            let store = try open(uri)
            let grants: [PGAccess.Grant]
            let misread: [String]
            do {
                grants = try PGAccess.list(store)
                misread = try PGAccess.misreadNames(store)
            } catch let error as PGError {
                throw CopyCommand.postgresError(PGStore.classify(error, display: store.display))
            }
            var rows = [["ROLE", "TEACHER", "MAY", "COURSES"]]
            for grant in grants {
                rows.append([grant.role, grant.teacher, grant.reclassify ? "read, reclassify" : "read", String(grant.courses)])
            }
            invocation.console.out(grants.isEmpty ? "No role is granted a teacher's courses.\n" : TextTable.render(rows, rightAligned: [3]))
            let empty = grants.filter { $0.courses == 0 }
            if !empty.isEmpty {
                let names = empty.map { "\(VisibleText.of($0.role)) \"\(VisibleText.of($0.teacher))\"" }.joined(separator: ", ")
                invocation.console.warning(
                    "\(empty.count == 1 ? "a grant gives" : "\(empty.count) grants give") no course now: \(names); such a role reads nothing until an import brings a course whose teacher has those words"
                )
            }
            if !misread.isEmpty {
                invocation.console.warning(
                    misreadWords(misread) + "; a grant may give other courses of theirs than `report --teacher` shows")
            }
        case nil:
            throw CommandError.usage("missing action: grant-teacher ROLE, revoke ROLE or list", command: spec.name)
        case let other?:
            throw CommandError.usage("unknown action \"\(other)\": use grant-teacher ROLE, revoke ROLE or list", command: spec.name)
        }
        return .success
    }

    /// `grant-teacher`: the teachers NAME matches now on stdout (TEACHER, COURSES), what was
    /// granted on stderr.
    private static func grant(_ invocation: Invocation, store: PGStore, role: String, teacher: String) throws {
        let console = invocation.console
        let reclassify = invocation.arguments.has("reclassify")
        let outcome = try PGAccess.grant(
            store, role: role, teacher: teacher, reclassify: reclassify,
            allowNoCourses: invocation.arguments.has("allow-no-courses"))
        let may = reclassify ? "reads and may reclassify" : "reads"
        let quotedName = "\"\(VisibleText.of(teacher))\""
        guard outcome.courses > 0 else {
            console.note("\(VisibleText.of(role)) \(may) the courses of \(quotedName) in \(store.display)")
            console.warning(
                "no course's teacher has the name \(quotedName) now: \(VisibleText.of(role)) reads nothing until an import brings one (`dashboard access list` counts them)"
            )
            return
        }
        var rows = [["TEACHER", "COURSES"]]
        for match in outcome.teachers { rows.append([match.name, String(match.courses)]) }
        console.out(TextTable.render(rows, rightAligned: [1]))
        let count = outcome.teachers.count
        console.note(
            "\(VisibleText.of(role)) \(may) the courses of \(quotedName) in \(store.display): \(outcome.courses) course\(outcome.courses == 1 ? "" : "s") of \(count) teacher\(count == 1 ? "" : "s") now, and later courses whose teacher has that name"
        )
        if count > 1 {
            console.warning(
                "\(quotedName) matches \(count) teachers: to give one teacher's courses only, `dashboard access revoke \(VisibleText.of(role))` and grant that teacher's full name"
            )
        }
    }

    /// The words of a refused `access` command.
    private static func words(_ failure: PGAccess.Failure) -> CommandError {
        switch failure {
        case .noSuchRole(let role):
            return CommandError(
                .dataError, "no role \"\(VisibleText.of(role))\" on the server; nothing was granted",
                hint: "the administrator makes it first: a login role with a password (docs/postgresql.md)")
        case .notGranted(let role):
            return CommandError(
                .dataError, "\"\(VisibleText.of(role))\" holds no grant; nothing was revoked", hint: "see `dashboard access list`")
        case .noWords(let teacher):
            return CommandError.usage(
                "--teacher \(OptionValueKind.quoted(teacher)) has no letter or digit: it names no teacher", command: spec.name)
        case .noCourses(let teacher, let nearest):
            let suggestion =
                nearest.isEmpty ? "" : "; the nearest: \(nearest.map { "\"\(VisibleText.of($0))\"" }.joined(separator: ", "))"
            return CommandError(
                .dataError,
                "no course's teacher has the name \"\(VisibleText.of(teacher))\" (every word of it, case and accents aside\(suggestion)); nothing was granted",
                hint:
                    "check the name against the teachers `dashboard report list` shows; to grant it before those courses are imported, add --allow-no-courses"
            )
        case .rulesDisagree(let names):
            return CommandError(
                .dataError, misreadWords(names) + "; nothing was granted",
                hint:
                    "correct the name in the courses export (precomposed letters, full-width katakana), import it, and grant again (docs/postgresql.md, \"How a grant names a teacher\")"
            )
        }
    }

    /// `the server cannot read the teachers' names "…" as report --teacher does (…)`.
    private static func misreadWords(_ names: [String]) -> String {
        let listed =
            names.prefix(5).map { "\"\(VisibleText.of($0))\"" }.joined(separator: ", ")
            + (names.count > 5 ? " and \(names.count - 5) more" : "")
        return
            "the server cannot read the teacher\(names.count == 1 ? "'s name" : "s' names") \(listed) as `report --teacher` does (a character whose fold depends on its neighbours: a half-width voiced mark, an accent after a space or a sign, an Arabic number sign)"
    }

    private static func open(_ uri: String) throws -> PGStore {
        do {
            return try PGStore(uri: uri, create: false)
        } catch {
            throw CopyCommand.postgresError(error)
        }
    }
}
