import Foundation
import Testing

@testable import DashboardCore

/// Replays the fuzzing seeds and every input the fuzzer ever broke (Fuzz/corpus and
/// Fuzz/regressions) through the same checks as Fuzz/FuzzTarget.swift, so a fixed crash stays
/// fixed without libFuzzer.
@Suite("Fuzz regressions", .storeIndependent)
struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static var inputs: [String] {
        ["corpus", "regressions"].flatMap { folder -> [String] in
            let dir = root.appendingPathComponent(folder).path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(folder)/\($0)" }
        }
    }

    @Test("the seed corpus and the regressions are there")
    func present() {
        #expect(Self.inputs.filter { $0.hasPrefix("corpus/") }.count >= 6)
        #expect(Self.inputs.contains("regressions/header-only.csv"))
    }

    @Test("every saved input reads the same in any chunk size and keeps the normalizer's invariants", arguments: inputs)
    func replay(_ name: String) throws {
        let bytes = Array(try Data(contentsOf: Self.root.appendingPathComponent(name)))
        let whole = Self.read(bytes, chunk: 64 * 1024)
        #expect(Self.read(bytes, chunk: 1) == whole)
        #expect(Self.read(bytes, chunk: 3) == whole)
        guard case .success(let events) = whole else { return }
        for case .record(let record) in events {
            for field in record.fields {
                for order in [nil, DateOrder.mdy, .dmy] {
                    if let due = try? DueDateParser.parse(field, dateOrder: order) {
                        #expect(DueDate(storageText: due.storageText) == due, "\(field)")
                    }
                }
                let text = TextNormalizer.text(field)
                #expect(TextNormalizer.text(text) == text)
                let id = TextNormalizer.id(field)
                #expect(TextNormalizer.id(id) == id)
            }
        }
    }

    static func read(_ bytes: [UInt8], chunk: Int) -> Result<[CSVEvent], CSVFileError> {
        var events: [CSVEvent] = []
        do {
            try CSVReader(source: MemoryByteSource(bytes, chunkLimit: chunk), options: CSVReaderOptions(chunkSize: 4096)).read {
                events.append($0)
            }
        } catch let error as CSVFileError {
            return .failure(error)
        } catch {
            return .failure(.readFailed(reason: "\(error)"))
        }
        return .success(events)
    }
}
