import DashboardCore
import Foundation

/// The words of a refusal by the PostgreSQL server (`StoreError.refused`: SQLSTATE 42501) for
/// the command that was refused: what the role tried, what a teacher's role may do instead and
/// who can grant the rest. The server's own message is only the last detail (issue 27).
///
/// Policy (docs/postgresql.md, "Roles and teachers"): a teacher's role reads its courses and,
/// granted `--reclassify`, pins their tasks and undoes its own pins (`reclassify`, `revert
/// ENTRY`, `revert --group G` of its own entries); every other write is the administrator's
/// (the role that owns the dashboard's tables). A refusal is exit 74, as before; nothing was
/// written (the command's transaction rolled back).
enum RefusalWords {
    /// The tables `reclassify` writes: a refusal of privileges on one of them, for a write a
    /// teacher's role may make, means its grant is to read only.
    static let reclassifyTables: Set<String> = ["audit", "overrides", "tasks", "data_marks"]

    /// The error for `refusal` met by `command` (with its parsed arguments) on `database`.
    static func error(_ refusal: RoleRefusal, database: String, command: String, arguments: ParsedArguments?) -> CommandError {
        let role = refusal.role.map { "role \(VisibleText.of($0))" } ?? "this role"
        let named = refusal.role.map { VisibleText.of($0) } ?? "ROLE"
        let action = action(command: command, arguments: arguments)
        let teacherWrite = isTeacherWrite(command: command, arguments: arguments)
        let detail = refusal.serverMessage.isEmpty ? "" : " (the server said: \(VisibleText.of(refusal.serverMessage)))"
        let message: String
        let hint: String
        switch refusal.kind {
        case .privilege where teacherWrite && reclassifyTables.contains(refusal.table ?? ""):
            message =
                "\(role) may not \(action) in \(database): its grant lets it read its courses, not pin their tasks; nothing was changed"
            hint =
                "the administrator can give it that right: `dashboard access grant-teacher \(named) --teacher NAME --reclassify` (NAME: a teacher `dashboard access list` shows for it)"
        case .rowSecurity where command == "revert" && refusal.table == "audit":
            message =
                "\(role) may not \(action) in \(database): a teacher's role undoes only its own pins (override entries recorded under its name, and its reverts of them); nothing was changed"
            hint =
                "`dashboard audit --task TASK` shows who recorded each entry; the administrator can revert it, or pin the task again with `dashboard reclassify`"
        case .rowSecurity where teacherWrite:
            message = "\(role) may not \(action) in \(database): the task is not in a course it may reclassify; nothing was changed"
            hint = "`dashboard access list` (as the administrator) shows which teachers' courses each role may reclassify"
        case .appendOnly:
            message =
                "\(role) may not \(action) in \(database): the audit log is append-only: no role but its owner changes or deletes an entry"
            hint = "a revert is a new entry: `dashboard revert ENTRY`"
        default:
            if writes(command: command, arguments: arguments) {
                message =
                    "\(role) may not \(action) in \(database): that is the administrator's (the role that owns the dashboard's tables); nothing was changed"
            } else {
                let what = refusal.table.map { "read \(VisibleText.of($0))" } ?? "read what it needs"
                message = "\(role) may not \(what) in \(database), which \(action) needs: that is the administrator's"
            }
            hint =
                "a teacher's role reads its courses and, granted --reclassify, pins their tasks and undoes its own pins; run this as the administrator (docs/postgresql.md, \"Roles and teachers\")"
        }
        var error = CommandError(.ioError, message + detail, hint: hint)
        error.aboutDatabase = true
        return error
    }

    /// What the command tried, in words: "import files", "revert entry 3", "pin task T1".
    static func action(command: String, arguments: ParsedArguments?) -> String {
        let first = arguments?.positionals.first
        switch command {
        case "import": return "import files"
        case "check": return "check files against the database"
        case "categorize": return "run the time pass (categorize)"
        case "nightly": return "run the nightly job"
        case "reclassify":
            if let arguments, ReclassifyCommand.selects(arguments) { return "pin the selected tasks" }
            return first.map { "pin task \(VisibleText.of($0))" } ?? "pin a task"
        case "revert":
            if let batch = arguments?.value("batch") { return "revert batch \(batch)" }
            if let group = arguments?.value("group") { return "revert group \(group)" }
            return first.map { "revert entry \(VisibleText.of($0))" } ?? "revert an entry"
        case "batches":
            let id = arguments?.positionals.dropFirst().first.map { " \(VisibleText.of($0))" } ?? ""
            switch first {
            case "approve": return "approve batch" + id
            case "discard": return "discard batch" + id
            default: return "read the batches"
            }
        case "settings": return first == "timezone" ? "change the default time zone" : "read the settings"
        case "verify": return "verify the database"
        case "copy": return "copy the database"
        case "access": return "change or list the grants"
        default: return "run `dashboard \(command)`"
        }
    }

    /// The writes a teacher's role may make with `--reclassify`: pins, and reverts of its own
    /// entries (not of batches).
    static func isTeacherWrite(command: String, arguments: ParsedArguments?) -> Bool {
        command == "reclassify" || (command == "revert" && arguments?.value("batch") == nil)
    }

    /// True for a command that writes to the database (its refusal changed nothing there).
    static func writes(command: String, arguments: ParsedArguments?) -> Bool {
        switch command {
        case "import", "categorize", "nightly", "reclassify", "revert", "copy", "access": return true
        case "batches": return ["approve", "discard"].contains(arguments?.positionals.first ?? "")
        case "settings": return arguments?.positionals.first == "timezone"
        default: return false
        }
    }
}
