import Foundation

extension Store: BucketWriting {
    package func categorize(
        asOf: Date, defaultTimeZone: TimeZone, actor: String, clock: any Clock
    ) throws(StoreError) -> CategorizeResult {
        var result = CategorizeResult()
        do {
            try database.inTransaction(.immediate) {
                try DataMarks.beginTrustedWrite(database)
                defer { try? DataMarks.endTrustedWrite(database) }
                // An empty plan: no batch changed data, every entry has cause `time`.
                let staging = try StagingArea(database: database)
                try staging.clear()
                let context = Categorizer.PassContext(
                    asOf: asOf, defaultTimeZone: defaultTimeZone, actor: actor, recordedAt: clock.now())
                result = try CategorizePass.run(database, plan: staging.importPlan, context: context)
                return .commit
            }
        } catch {
            throw Store.classify(error, path: path)
        }
        return result
    }
}
