import Testing

@testable import DashboardCore

/// `ImportPath.choose`: the tasks of a run go straight into `tasks` only for a recorded, real
/// run into a database without any task whose course plan the delete guard would not hold, and
/// not when staging is forced; every other run stages them.
@Suite("ImportPath: the path of a run's tasks is chosen before they are read", .storeIndependent)
struct ImportPathChoiceTests {
    struct Case: CustomStringConvertible {
        var recorded = true
        var dryRun = false
        var forceStaging = false
        var hasTasks = false
        var coursesWouldHold = false
        var expected: ImportPath
        var description: String {
            "recorded \(recorded), dry run \(dryRun), forced \(forceStaging), has tasks \(hasTasks), hold \(coursesWouldHold)"
        }
    }

    static let cases: [Case] = [
        Case(expected: .direct),
        Case(recorded: false, expected: .staged),
        Case(dryRun: true, expected: .staged),
        Case(forceStaging: true, expected: .staged),
        Case(hasTasks: true, expected: .staged),
        Case(coursesWouldHold: true, expected: .staged),
    ]

    @Test("one condition against the direct path is enough to stage", arguments: cases)
    func choice(_ c: Case) throws {
        try #require(!Self.cases.isEmpty)
        var options = ImportOptions()
        options.dryRun = c.dryRun
        options.forceStaging = c.forceStaging
        let path = ImportPath.choose(
            recorded: c.recorded, options: options, databaseHasTasks: c.hasTasks, coursesWouldHold: c.coursesWouldHold)
        #expect(path == c.expected)
    }
}
