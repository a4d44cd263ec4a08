import Foundation

/// Small, valid input files shared by the tests.
enum Fixtures {
    static let courses = """
        course_id,title,code,timezone
        bio,Biology,BIO 101,America/New_York
        his,History,HIS 200,

        """

    static let tasks = """
        task_id,course_id,title,student_id,due,priority,completed
        t1,bio,Lab report,s1,2026-12-01,high,no
        t2,bio,"Reading quiz, chapter 4",s2,,low,yes
        t3,his,Essay draft,s1,2026-11-29T17:00,,

        """

    /// The rows `courses` and `tasks` leave in the database.
    static let storedCourses = """
        bio|BIO 101|Biology|||America/New_York|NULL|1||
        his|HIS 200|History||||NULL|1||

        """

    /// `created_batch` (batch 1 created them), then the state and the hand-in time (SPEC §11).
    static let storedTasks = """
        t1|bio|Lab report|s1|2026-12-01|high|0|NULL|1|upcoming||1|open|
        t2|bio|Reading quiz, chapter 4|s2||low|1|NULL|1|completed||1|completed|
        t3|his|Essay draft|s1|2026-11-29T17:00:00|normal|0|NULL|1|today||1|open|

        """

    /// A tasks file with `count` tasks `t01`, `t02`, … of course `bio`.
    static func numberedTasks(_ count: Int) -> String {
        var text = "task_id,course_id,title,due\n"
        for i in 1...count {
            let id = i < 10 ? "t0\(i)" : "t\(i)"
            text += "\(id),bio,Worksheet \(i),2026-12-\(i < 10 ? "0\(i)" : "\(i)")\n"
        }
        return text
    }

    /// Writes courses.csv and tasks.csv into the sandbox.
    static func writeValidSet(_ sandbox: Sandbox) throws {
        try sandbox.write("courses.csv", courses)
        try sandbox.write("tasks.csv", tasks)
    }
}
