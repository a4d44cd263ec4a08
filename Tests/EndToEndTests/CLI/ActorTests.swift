import Foundation
import Testing

/// Who the audit log, the batch records and the settings log name as the actor (issue 27,
/// item 11): `--actor`, else `$USER` when set and not empty, else the name the system gives the
/// process's user, else `uid N`. Cron jobs, systemd units and some tmux sessions run without
/// `$USER`: their entries must not say "unknown".
@Suite struct ActorTests {
    /// The name the system gives the user these tests run as.
    static var processUser: String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return "uid \(geteuid())" }
        return String(cString: name)
    }

    /// Imports the fixtures, pins t1 and changes the default time zone, all with `environment`
    /// and without the variables `unsetting`; returns the actors of the batch, the entry and the
    /// settings change.
    static func actors(environment: [String: String] = [:], unsetting: [String] = [], actor: [String] = []) throws -> String {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        for arguments in [
            ["import", "courses.csv", "tasks.csv"], ["reclassify", "t1", "--to", "overdue", "--reason", "late"],
            ["settings", "timezone", "Europe/Paris"],
        ] {
            let result = try sandbox.run(["--db", "db.sqlite"] + arguments + actor, environment: environment, unsetting: unsetting)
            #expect(result.exitCode == 0, "\(arguments): \(result)")
        }
        let rows = try sandbox.sqlShell(
            "db.sqlite",
            """
            SELECT (SELECT actor FROM batches WHERE batch_id = 1) || '|' || (SELECT actor FROM audit WHERE cause = 'override')
                || '|' || (SELECT actor FROM settings_log WHERE new_value = 'Europe/Paris')
            """)
        return rows.stdout
    }

    @Test func withoutUSERTheActorIsTheNameTheSystemGivesTheProcesssUser() throws {
        let user = Self.processUser
        #expect(try Self.actors(unsetting: ["USER"]) == "\(user)|\(user)|\(user)\n")
        // An empty USER counts as unset, as every other variable does.
        #expect(try Self.actors(environment: ["USER": ""]) == "\(user)|\(user)|\(user)\n")
    }

    @Test func USERAndThenActorWinOverTheProcesssUser() throws {
        #expect(try Self.actors(environment: ["USER": "cron-user"]) == "cron-user|cron-user|cron-user\n")
        #expect(try Self.actors(unsetting: ["USER"], actor: ["--actor", "alice"]) == "alice|alice|alice\n")
    }

    @Test(
        "a user the system has no name for is recorded by its uid; one it names, by its name",
        .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "setpriv needs root"))
    func aUserWithoutANameIsItsUid() throws {
        for (uid, expected) in [(UInt32(4242), "uid 4242"), (UInt32(65534), getpwuid(65534).map { String(cString: $0.pointee.pw_name) })] {
            guard let expected else { continue }
            let sandbox = try Sandbox()
            try Fixtures.writeValidSet(sandbox)
            let result = try sandbox.run(asUser: uid, ["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"])
            #expect(result.exitCode == 0, "\(result)")
            #expect(try sandbox.sqlShell("db.sqlite", "SELECT actor FROM batches").stdout == expected + "\n")
        }
    }
}
