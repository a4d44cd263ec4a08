import Foundation
import Testing

/// `dashboard audit --task ID`: before the task's stored entries, a line derived from the batch
/// that created it (births are not stored as entries, SPEC §6): no entry id, cause `import`, the
/// creating batch's time, as-of and actor, and the bucket the task was born in (the `from` of its
/// first stored entry, else its bucket now). Listings without --task show no derived line.
@Suite struct AuditBirthLineTests {
    static let header =
        "entry_id,recorded_at,as_of,task_id,task_title,course_id,from,to,cause,actor,reason,batch_id,reverts,reverted_by,conflict,override_until,group,derived"

    /// When batch 1 finished: the recorded-at of the births it derives.
    static func batchOneFinished(_ sandbox: Sandbox) throws -> String {
        try DatabaseSnapshot.lines(sandbox.db, "SELECT finished_at FROM batches WHERE batch_id = 1").trimmingCharacters(in: .newlines)
    }

    @Test func textShowsTheBirthFirstWithoutAnIDAndSaysItIsDerived() throws {
        let sandbox = try AuditCommandTests.scenario()
        // t2 has no stored entry: its birth alone, in its bucket now.
        let t2 = try sandbox.dashboard(["audit", "--task", "t2"])
        #expect(t2.exitCode == 0)
        #expect(t2.stderr == "")
        #expect(
            try sandbox.maskingRecordedAt(t2.stdout) == """
                ID  RECORDED              TASK  TITLE                    COURSE  FROM  TO         CAUSE   ACTOR     BATCH  GROUP  NOTE
                 -  YYYY-MM-DDTHH:MM:SSZ  t2    Reading quiz, chapter 4  bio     -     completed  import  importer  1      -      derived: created by batch 1 in bucket completed (a birth is not stored as an entry)

                """)
        // t3 moved later: born where its first entry starts (today), then its entries.
        let t3 = try sandbox.dashboard(["audit", "--task", "t3"])
        #expect(
            try sandbox.maskingRecordedAt(t3.stdout) == """
                ID  RECORDED              TASK  TITLE        COURSE  FROM      TO        CAUSE     ACTOR     BATCH  GROUP  NOTE
                 -  YYYY-MM-DDTHH:MM:SSZ  t3    Essay draft  his     -         today     import    importer  1      -      derived: created by batch 1 in bucket today (a birth is not stored as an entry)
                 3  YYYY-MM-DDTHH:MM:SSZ  t3    Essay draft  his     today     overdue   time      cron      -      -
                 4  YYYY-MM-DDTHH:MM:SSZ  t3    Essay draft  his     overdue   upcoming  override  adams     -      -      =SUM(A1:A2), per "Ms" Adams; reverted by 5; until 2026-12-05
                 5  YYYY-MM-DDTHH:MM:SSZ  t3    Essay draft  his     upcoming  overdue   revert    adams     -      -      reverts 4; revert of entry 4 (override)

                """)
        // The whole log has no derived line.
        #expect(!(try sandbox.dashboard(["audit"]).stdout.contains("derived")))
    }

    @Test func jsonGivesTheBirthANullIDAndDerivedTrue() throws {
        let sandbox = try AuditCommandTests.scenario()
        let result = try sandbox.dashboard(["audit", "--task", "t2", "--format", "json"])
        #expect(result.exitCode == 0)
        #expect(
            result.stdout == """
                {
                  "schema": 1,
                  "entries": [
                    {
                      "entry_id": null,
                      "recorded_at": "\(try Self.batchOneFinished(sandbox))",
                      "as_of": "2026-11-29T08:00:00Z",
                      "task_id": "t2",
                      "task_title": "Reading quiz, chapter 4",
                      "course_id": "bio",
                      "from": "",
                      "to": "completed",
                      "cause": "import",
                      "actor": "importer",
                      "reason": "",
                      "batch_id": 1,
                      "reverts": null,
                      "reverted_by": [],
                      "conflict": false,
                      "override_until": null,
                      "override_before": null,
                      "group": null,
                      "derived": true
                    }
                  ]
                }

                """)
        // t1's first stored entry (the override, entry 1) starts from upcoming: the birth's bucket.
        let t1 = JSON.objects(try JSON.object(try sandbox.dashboard(["audit", "--task", "t1", "--format", "json"]).stdout)["entries"])
        #expect(
            t1.map {
                "\($0["entry_id"] is NSNull ? "-" : "\($0["entry_id"] ?? "")") \($0["from"] ?? "")→\($0["to"] ?? "") \($0["derived"] ?? "")"
            }
                == ["- →upcoming 1", "1 upcoming→today 0", "2 today→today 0"])
    }

    @Test func csvGivesTheBirthAnEmptyIDAndDerivedTrue() throws {
        let sandbox = try AuditCommandTests.scenario()
        let finished = try Self.batchOneFinished(sandbox)
        let t2 = try sandbox.dashboard(["audit", "--task", "t2", "--format", "csv"])
        #expect(t2.exitCode == 0)
        #expect(
            t2.stdout == Self.header + "\r\n"
                + ",\(finished),2026-11-29T08:00:00Z,t2,\"Reading quiz, chapter 4\",bio,,completed,import,importer,,1,,,false,,,true\r\n")
        let t1 = try sandbox.dashboard(["audit", "--task", "t1", "--cause", "import", "--format", "csv"])
        #expect(
            try sandbox.maskingRecordedAt(t1.stdout) == Self.header + "\r\n"
                + ",YYYY-MM-DDTHH:MM:SSZ,2026-11-29T08:00:00Z,t1,Lab report v2,bio,,upcoming,import,importer,,1,,,false,,,true\r\n"
                + "2,YYYY-MM-DDTHH:MM:SSZ,2026-11-29T08:00:00Z,t1,Lab report v2,bio,today,today,import,cron,"
                + "the import changed this task while override #1 pins it to today; the override was kept (import --override-manual lets the import win)"
                + ",2,,,true,,,false\r\n")
    }

    @Test func aTaskALaterImportCreatedIsBornInThatBatch() throws {
        let sandbox = try AuditSetup.imported()
        try sandbox.write("more.csv", Fixtures.tasks + "t4,his,New essay,s3,2026-12-10,,\n")
        #expect(try sandbox.dashboard(["import", "more.csv", "--actor", "cron"], asOf: "2026-11-30T08:00:00Z").exitCode == 0)
        let result = try sandbox.dashboard(["audit", "--task", "t4", "--task", "t1", "--format", "csv"])
        #expect(
            try sandbox.maskingRecordedAt(result.stdout) == Self.header + "\r\n"
                + ",YYYY-MM-DDTHH:MM:SSZ,2026-11-30T08:00:00Z,t4,New essay,his,,upcoming,import,cron,,2,,,false,,,true\r\n"
                + ",YYYY-MM-DDTHH:MM:SSZ,2026-11-29T08:00:00Z,t1,Lab report,bio,,upcoming,import,importer,,1,,,false,,,true\r\n")
        #expect(try DatabaseSnapshot.lines(sandbox.db, "SELECT * FROM batch_births WHERE batch_id = 2") == "2|upcoming|1\n")
    }
}
