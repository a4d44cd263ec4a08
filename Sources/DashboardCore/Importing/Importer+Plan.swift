import Foundation

extension Importer {
    /// Plans the staged rows against the database, fills the run's counts from the plan and
    /// checks the delete guard.
    /// - Parameter directTasks: the tasks written directly (`DirectTaskWriter`), if so: they
    ///   are all inserts, and no task was there to delete.
    /// - Returns: the run's result so far, and why the delete guard holds it (nil: it does not).
    func plan(
        staging: StagingArea, kinds: Set<FileKind>, options: ImportOptions, run: inout RunState, directTasks: Int? = nil
    ) throws -> (result: ImportResult, guardReason: String?) {
        let sync = options.mode == .sync
        try staging.plan(
            syncCourses: sync && kinds.contains(.courses), syncTasks: sync && kinds.contains(.tasks) && directTasks == nil,
            coursesApplied: directTasks != nil)
        try staging.fillPlannedCounts(&run.counts, kinds: kinds)
        if let directTasks {
            var counts = run.counts[.tasks] ?? ImportCounts()
            counts.inserted = directTasks
            counts.updated = 0
            counts.unchanged = 0
            counts.deleted = 0
            run.counts[.tasks] = counts
        }
        var guardReasons: [String] = []
        // With tasks written directly, the courses were checked (and applied) before them: the
        // live count the limit compares with has changed since.
        for kind in FileKind.allCases where !(directTasks != nil && kind == .courses) {
            let deleted = run.counts[kind]?.deleted ?? 0
            guard deleted > 0 else { continue }
            if let unidentified = run.unidentified[kind], unidentified > 0 {
                guardReasons.append(ImportMessages.unidentifiedRows(unidentified, kind: kind, deleted: deleted))
                continue
            }
            let live = try staging.liveCount(kind)
            if !options.maxDelete.allows(deleted: deleted, live: live) {
                guardReasons.append(
                    ImportMessages.tooManyDeletes(
                        deleted, of: live, kind: kind, limit: options.maxDelete, wording: options.wording))
            }
        }
        let result = ImportResult(
            batchID: run.batchID, status: .committed, mode: options.mode, asOf: Timestamp.text(options.asOf),
            counts: run.counts, files: run.files, problemSpool: run.problems, reason: "", categorized: nil)
        return (result, guardReasons.isEmpty ? nil : guardReasons.joined(separator: "; "))
    }

    // MARK: - Recording outcomes that commit no data

    /// Records a failed batch (after the rollback) and returns the failure to throw.
    func recordFailure(_ error: Error, startedAt: Date, options: ImportOptions, record: Bool, run: RunState) -> ImportFailure {
        var failure: ImportFailure
        switch error {
        case let f as ImportFailure: failure = f
        case let s as StoreError: failure = .store(s, batchID: nil)
        case let e as SQLiteError: failure = .store(Store.classify(e, path: store.path), batchID: nil)
        case let e as PGError: failure = .store(Store.classify(e, path: store.path), batchID: nil)
        case let e as InternalError: failure = .store(.internalFailure(e), batchID: nil)
        default: failure = .store(.internalFailure(.unexpected("\(error)")), batchID: nil)
        }
        if case .store(.busy, _) = failure { return failure }
        // A damaged file gets no clean-up and no failure record: nothing more is written to it
        // (the connection is also query-only by then, see `Database.sawDamage`).
        if case .store(.damaged, _) = failure { return failure }
        guard !database.sawDamage else { return failure }
        try? StagingArea(database: database).clear()
        guard record else { return failure }
        let problems = run.problems
        if case .fileProblem(let problem, _) = failure {
            problems.startGroup(sortedByLine: false)
            try? problems.append(problem)
        }
        let result = ImportResult(
            batchID: nil, status: .failed, mode: options.mode, asOf: Timestamp.text(options.asOf), counts: run.counts,
            files: run.files, problemSpool: problems, reason: failure.description, categorized: nil)
        guard let id = recordOutcome(result, startedAt: startedAt, options: options) else { return failure }
        switch failure {
        case .fileProblem(let p, _): failure = .fileProblem(p, batchID: id)
        case .store(let s, _): failure = .store(s, batchID: id)
        case .inputUnreadable(let path, let reason, _): failure = .inputUnreadable(path: path, reason: reason, batchID: id)
        default: break
        }
        return failure
    }

    /// Records a batch that wrote no data (failed or dry run); nil when even that fails
    /// (a full disk, a read-only file), which never hides the original failure.
    func recordOutcome(_ result: ImportResult, startedAt: Date, options: ImportOptions) -> Int? {
        var id: Int?
        try? database.inTransaction(.immediate) {
            let batchID = try BatchLog.begin(database, command: "import", startedAt: startedAt, options: options, status: result.status)
            try BatchLog.record(database, batchID: batchID, counts: result.counts, files: result.files, problems: result.problemSpool)
            try BatchLog.finish(database, batchID: batchID, status: result.status, reason: result.reason, finishedAt: clock.now())
            id = batchID
            return .commit
        }
        return id
    }
}
