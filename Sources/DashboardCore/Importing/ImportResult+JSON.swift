/// The JSON form of import results (`dashboard import --format json`, `dashboard check
/// --format json`, `dashboard batches show ID --format json`), documented in docs/json.md.
extension ImportResult {
    /// The whole result as one value: loads every problem, so for tests and small results;
    /// commands write it with `writeJSON(to:)`, which gives the same bytes.
    package var json: JSONValue {
        var pairs = headPairs
        pairs.append(("rejects", .array(rejects.map(\.json))))
        pairs.append(("warnings", .array(warnings.map(\.json))))
        return .object(pairs)
    }

    /// Writes `json.rendered() + "\n"` to `sink` in pieces, streaming the problems from the
    /// spool one at a time (bounded memory whatever their number).
    package func writeJSON(to sink: @escaping (String) throws -> Void) throws {
        let writer = JSONStreamWriter(sink: sink)
        for (key, value) in headPairs { try writer.pair(key, value) }
        for severity in [ProblemSeverity.error, .warning] {
            try writer.array(severity == .error ? "rejects" : "warnings") { element in
                try forEachProblem(severity: severity) { try element($0.json) }
            }
        }
        try writer.end()
    }

    private var headPairs: [(String, JSONValue)] {
        var pairs: [(String, JSONValue)] = [
            ("schema", .int(1)),
            ("batch_id", batchID.map { .int($0) } ?? .null),
            ("status", .string(status.rawValue)),
            ("mode", .string(mode.rawValue)),
            ("as_of", .string(asOf)),
            ("reason", .string(reason)),
        ]
        pairs += total.topLevelPairs
        pairs.append(("counts", ImportResult.countsJSON(counts)))
        pairs.append(("files", .array(files.map(\.json))))
        pairs.append(("categorized", categorized.map(\.json) ?? .null))
        pairs.append(("unchanged_since", unchangedSince.map { .int($0) } ?? .null))
        return pairs
    }

    /// `{"courses": {...}, "tasks": {...}, "total": {...}}`, kinds absent from the run omitted.
    static func countsJSON(_ counts: [FileKind: ImportCounts]) -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        for kind in FileKind.allCases {
            if let c = counts[kind] { pairs.append((kind.rawValue, .object(c.jsonPairs))) }
        }
        pairs.append(("total", .object(counts.values.reduce(ImportCounts(), +).jsonPairs)))
        return .object(pairs)
    }
}

extension ImportCounts {
    /// The totals repeated at the top of a result for convenience (`jq .inserted`). The
    /// warnings count is left out there: at the top level `warnings` is the list of warnings,
    /// and the count is in `counts.total.warnings`.
    var topLevelPairs: [(String, JSONValue)] {
        jsonPairs.filter { $0.0 != "warnings" }
    }

    var jsonPairs: [(String, JSONValue)] {
        [
            ("read", .int(read)), ("inserted", .int(inserted)), ("updated", .int(updated)),
            ("unchanged", .int(unchanged)), ("deleted", .int(deleted)), ("rejected", .int(rejected)),
            ("warnings", .int(warnings)),
        ]
    }
}

extension ImportedFile {
    var json: JSONValue {
        .object([
            ("path", .string(path)), ("kind", kind.map { .string($0.rawValue) } ?? .null), ("size", .int(size)),
            ("sha256", .string(sha256)), ("rows", .int(rows)),
        ])
    }
}

extension ImportProblem {
    /// Every field of the problem, plus its Frictionless type.
    package var json: JSONValue {
        .object([
            ("code", .string(code.rawValue)), ("severity", .string(severity.rawValue)), ("type", .string(frictionlessType)),
            ("file", .string(file)), ("line", .int(line)), ("row", .int(row)), ("column", .string(column)),
            ("value", .string(value)), ("message", .string(message)), ("hint", .string(hint)),
        ])
    }
}

extension BatchRecord {
    package var json: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("batch_id", .int(id)), ("command", .string(command)), ("status", .string(status.rawValue)),
            ("mode", .string(mode.rawValue)), ("started_at", .string(startedAt)),
            ("finished_at", finishedAt.isEmpty ? .null : .string(finishedAt)), ("as_of", .string(asOf)),
            ("max_delete", .string(maxDelete)), ("actor", .string(actor)), ("reason", .string(reason)),
        ]
        pairs += total.topLevelPairs
        pairs.append(("counts", ImportResult.countsJSON(counts)))
        pairs.append(("files", .array(files.map(\.json))))
        return .object(pairs)
    }
}

/// JSON helpers for the command line.
package enum ImportResultJSON {
    /// `{"courses": {...}, "tasks": {...}, "total": {...}}`.
    package static func counts(_ counts: [FileKind: ImportCounts]) -> JSONValue {
        ImportResult.countsJSON(counts)
    }
}

extension CategorizeResult {
    /// `{"tasks": …, "entries": …, "by_cause": {…}, "conflicts": …, "expired_overrides": …, "cleared_overrides": …}`.
    package var json: JSONValue {
        .object([
            ("tasks", .int(tasks)), ("entries", .int(entries)),
            ("by_cause", .object(AuditCause.allCases.compactMap { cause in byCause[cause].map { (cause.rawValue, .int($0)) } })),
            ("conflicts", .int(conflicts)), ("expired_overrides", .int(expiredOverrides)),
            ("cleared_overrides", .int(clearedOverrides)),
        ])
    }
}
