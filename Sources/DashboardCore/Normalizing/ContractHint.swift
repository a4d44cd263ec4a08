/// A place where the input contract's descriptions (`InputContract`) point their reader at
/// the shell: the commands that read the files and print the contract, the options that set
/// the delimiter and the date order, and the reports that use a column. The library names the
/// place; the shell words it (`ContractWording`; the command line's is
/// `ContractWording.commandLine` in the executable, which `dashboard schema` prints).
package enum ContractHint: Sendable, Equatable {
    /// The commands that read the files (import and check).
    case readingCommands
    /// The command that prints the contract.
    case schemaCommand
    /// The contract printed for a given delimiter.
    case schemaForDelimiter
    /// The option that gives the delimiter.
    case delimiterOption
    /// The option that gives the order of slashed dates: this order, or (nil) either one.
    case dateOrder(DateOrder?)
    /// The contract printed for a given date order.
    case schemaForDateOrder
    /// The report filter that matches a word of the teacher's name.
    case teacherFilter
    /// The nightly run's morning digests.
    case digest
    /// The task list grouped by assignment.
    case groupByAssignment
}

/// How the input contract words its hints.
package typealias ContractWording = Wording<ContractHint>

extension Wording where Hint == ContractHint {
    /// Plain words, no flag and no command: the contract of a library user.
    package static let plain = ContractWording(name: "plain") { hint in
        switch hint {
        case .readingCommands: return "the dashboard's import and check"
        case .schemaCommand: return "the dashboard"
        case .schemaForDelimiter: return "the contract generated for that delimiter"
        case .delimiterOption: return "its delimiter setting"
        case .dateOrder(let order?): return "the date order \(order.rawValue)"
        case .dateOrder(nil): return "a date order, mdy or dmy"
        case .schemaForDateOrder: return "the contract generated for a date order"
        case .teacherFilter: return "a report's teacher filter"
        case .digest: return "the nightly run's digests"
        case .groupByAssignment: return "the task list grouped by assignment"
        }
    }
}
