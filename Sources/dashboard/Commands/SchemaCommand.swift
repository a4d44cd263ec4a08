import DashboardCore

/// `dashboard schema`
enum SchemaCommand: InfoCommand {
    static let spec = CommandSpec(
        name: "schema",
        usage: "dashboard schema [--encoding NAME] [--delimiter CHAR] [--date-order mdy|dmy]",
        abstract: "Print the input contract as a Frictionless data package descriptor (JSON).",
        discussion: """
            The two kinds of input file (courses, tasks) as a Data Package v2 descriptor: for
            each, a CSV dialect and a Table Schema (fields, required values, patterns, lengths, the
            primary key, the foreign key from tasks to courses), every field's description listing
            its other header names and what the dashboard normalizes. Generated from the
            declarations the reader uses; reads no database. With the reading options of `import`,
            the contract of an import run with them. Validate an export with the frictionless tool:
            docs/formats.md, "The input contract as a Frictionless schema".
            """,
        examples: [
            "dashboard schema > datapackage.json",
            "dashboard schema --delimiter ';' --date-order dmy > datapackage.json",
        ],
        options: ImportInputs.readingOptions.filter { ["encoding", "delimiter", "date-order"].contains($0.name) })

    static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        if let extra = arguments.positionals.first {
            throw CommandError.usage("unexpected argument \"\(extra)\"", command: spec.name)
        }
        let contract = InputContract(
            delimiter: try ImportInputs.delimiter(arguments, command: spec.name),
            encoding: try ImportInputs.encoding(arguments, command: spec.name) ?? .utf8,
            dateOrder: arguments.choice("date-order", as: DateOrder.self), wording: .commandLine)
        console.out(contract.descriptor.rendered() + "\n")
        return .success
    }
}
