/// Turns what the CSV reader reports about one file into the importer's problems.
enum FileReading {
    struct StopReading: Error {}

    /// Reads just the header of `file` to learn its kind and layout.
    /// - Throws: `ImportFailure` for a file that cannot be opened or read, or whose header is
    ///   unusable.
    static func layout(of file: InputFile, options: ImportOptions) throws(ImportFailure) -> HeaderLayout {
        let source: ByteSource
        do {
            source = try file.open()
        } catch {
            throw openFailure(error, file: file)
        }
        let reader = CSVReader(source: source, options: readerOptions(options))
        var header: CSVRecord?
        do {
            try reader.read { event in
                if case .record(let record) = event {
                    header = record
                    throw StopReading()
                }
                if case .malformedQuote(let line, let text) = event {
                    throw ImportProblem(
                        code: .malformedQuote, file: file.path, line: line, row: 0, value: text,
                        message: "the header line breaks the quoting rules",
                        hint: "quote a header cell only as a whole: \"name\"")
                }
            }
        } catch is StopReading {
        } catch let error as CSVFileError {
            throw fileFailure(error, file: file, batchID: nil, wording: options.wording)
        } catch let problem as ImportProblem {
            throw .fileProblem(problem, batchID: nil)
        } catch {
            throw .inputUnreadable(path: file.path, reason: "\(error)", batchID: nil)
        }
        guard let header else {
            throw fileFailure(.emptyFile, file: file, batchID: nil, wording: options.wording)
        }
        do {
            let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
            var layout = try HeaderLayout(header: header.fields, file: file.path, fileNameHint: HeaderLayout.kindHint(fileName: name))
            layout.headerLine = header.line
            return layout
        } catch let problem as ImportProblem {
            var located = problem
            located.line = header.line
            throw .fileProblem(located, batchID: nil)
        } catch {
            throw .inputUnreadable(path: file.path, reason: "\(error)", batchID: nil)
        }
    }

    /// The importer's failure for a file that cannot be opened: `unreadable_file` (a file-level
    /// problem, exit 65) for something that is not a regular file (a FIFO, a device, a socket,
    /// a folder named `*.csv`), which is never read and never blocks; else `inputMissing` (66).
    static func openFailure(_ error: Error, file: InputFile) -> ImportFailure {
        guard let error = error as? ByteSourceError else { return .inputMissing(path: file.path, reason: "\(error)") }
        guard error.notRegularFile else { return .inputMissing(path: file.path, reason: error.reason) }
        return .fileProblem(
            ImportProblem(
                code: .unreadableFile, file: file.path, line: 1, row: 0,
                message: "\(error.reason); it was not read",
                hint: "keep only CSV files in an import folder (remove or rename it), or give the files one by one"),
            batchID: nil)
    }

    static func readerOptions(_ options: ImportOptions) -> CSVReaderOptions {
        CSVReaderOptions(delimiter: options.delimiter, encoding: options.encoding, chunkSize: options.chunkSize)
    }

    /// The importer's failure for a file-level reading error; `wording` names the shell's way
    /// to read another encoding in its hint.
    static func fileFailure(_ error: CSVFileError, file: InputFile, batchID: Int?, wording: ImportWording) -> ImportFailure {
        switch error {
        case .invalidEncoding(let line, let detail):
            let nul = detail.contains("NUL")
            let utf16 = detail.contains("UTF-16")
            let utf32 = detail.contains("UTF-32")
            let hint: String
            if utf16 || utf32 {
                hint = "save the file as UTF-8 (in Excel: CSV UTF-8)"
            } else if nul {
                hint = "this looks like a binary, UTF-16 or UTF-32 file: export it again as UTF-8 CSV"
            } else {
                hint = "save the file as UTF-8, or \(wording(.chooseEncoding)) if that is what it is"
            }
            return .fileProblem(
                ImportProblem(
                    code: .invalidEncoding, file: file.path, line: line, row: 0,
                    message: utf16 || utf32
                        ? "the file is \(utf32 ? "UTF-32" : "UTF-16"), not UTF-8 (it starts with a \(utf32 ? "UTF-32" : "UTF-16") byte order mark)"
                        : "the file is not valid UTF-8: line \(line) holds \(detail)",
                    hint: hint),
                batchID: batchID)
        case .unterminatedQuote(let line):
            return .fileProblem(
                ImportProblem(
                    code: .unterminatedQuote, file: file.path, line: line, row: 0,
                    message: "a quoted field opened on line \(line) is never closed",
                    hint: "close the quote; a quote inside a quoted field is written twice (\"\")"),
                batchID: batchID)
        case .fieldTooLarge(let line, let limit):
            return .fileProblem(
                ImportProblem(
                    code: .fieldTooLarge, file: file.path, line: line, row: 0,
                    message: "a field of the record starting on line \(line) is larger than \(limit / 1_048_576) MiB",
                    hint: "this is usually a quote that is never closed; check that line"),
                batchID: batchID)
        case .tooManyFields(let line, let limit):
            return .fileProblem(
                ImportProblem(
                    code: .tooManyColumns, file: file.path, line: line, row: 0,
                    message: "the record starting on line \(line) has more than \(limit) fields (columns)",
                    hint: "export only the columns you need (at most \(limit)); a line of many delimiters is usually a broken export"),
                batchID: batchID)
        case .emptyFile:
            return .fileProblem(
                ImportProblem(
                    code: .emptyFile, file: file.path, line: 1, row: 0,
                    message: "the file is empty", hint: "export it again: a file needs at least its header line"),
                batchID: batchID)
        case .readFailed(let reason):
            return .inputUnreadable(path: file.path, reason: reason, batchID: batchID)
        }
    }
}
