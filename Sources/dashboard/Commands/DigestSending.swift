import DashboardCore
import Foundation

/// `nightly --digest --send`: hands each teacher's `digest.eml` of the published night to the
/// system's sendmail interface (`sendmail -t -oi -f SENDER`, which postfix, exim and msmtp all
/// provide: the recipients from the message's `To`, a line of one dot not the end, the envelope
/// sender the `mail_from` setting, so that bounces reach it).
///
/// Policy (docs/operations.md, "Morning digests"): one program run per message, its standard
/// input the message with LF line ends (the interface's convention; the file keeps CRLF), at
/// most `timeout` seconds each (then its process group is sent SIGTERM, and SIGKILL 5 s later,
/// and the message counts as failed; the messages after it are not tried: a relay that hangs
/// once would hang for each). A stop (SIGTERM, SIGINT, SIGHUP) ends the sending before the
/// next message; the messages not sent are counted as such. A message
/// that cannot be handed over (the program missing, its exit status not 0, the time out) is a
/// warning naming the teacher and the reason, never a failure of the night's import or
/// reports; the command turns failures into exit 74 when the night was otherwise well.
enum DigestSending {
    struct Outcome {
        var sent = 0
        /// The teachers whose message was not handed over, with why.
        var failures: [(teacher: String, reason: String)] = []
    }

    /// The program, unless `--sendmail PATH` names another.
    static let defaultProgram = "/usr/sbin/sendmail"
    /// The longest a message may take to hand over.
    static let timeout: TimeInterval = 60

    /// Sends each of `digests` from the night's folder `night` (its dated folder).
    static func send(
        _ digests: [WrittenDigest], night: String, program: String, sender: String, timeout: TimeInterval = timeout,
        stop: StopRequest? = nil
    ) -> Outcome {
        var outcome = Outcome()
        var skipped: String?
        for digest in digests {
            if skipped == nil, let reason = stop?.reason { skipped = "the night was stopped by \(reason) before it was sent" }
            if let skipped {
                outcome.failures.append((digest.teacher, skipped))
                continue
            }
            let path = PathText.join(PathText.join(night, digest.folder), DigestSettings.fileName)
            do {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                let message = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
                try hand(Data(message.utf8), to: program, sender: sender, timeout: timeout)
                outcome.sent += 1
            } catch let error as Failure {
                outcome.failures.append((digest.teacher, error.reason))
                if error.timedOut { skipped = "not tried: \(program) had timed out on an earlier message" }
            } catch {
                outcome.failures.append((digest.teacher, "\(path) cannot be read: \(error.localizedDescription)"))
            }
        }
        return outcome
    }

    struct Failure: Error {
        var reason: String
        var timedOut = false
    }

    /// What the program said on its standard error, read on another queue and looked at only
    /// after that read signalled its end.
    final class Complaint: @unchecked Sendable {
        var data = Data()
    }

    /// Runs `program -t -oi -f sender` with `message` on its standard input.
    /// - Throws: `Failure` saying why the message was not accepted.
    static func hand(_ message: Data, to program: String, sender: String, timeout: TimeInterval) throws {
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw Failure(reason: "\(program) is not an executable program (install postfix, exim or msmtp-mta, or give --sendmail PATH)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["-t", "-oi", "-f", sender]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw Failure(reason: "\(program) could not be started: \(error.localizedDescription)")
        }
        // The message is written, and the program's complaints read, beside the wait: neither
        // side can fill a pipe and stop the other.
        let writer = DispatchQueue(label: "digest-stdin")
        writer.async {
            try? input.fileHandleForWriting.write(contentsOf: message)
            try? input.fileHandleForWriting.close()
        }
        let complaint = Complaint()
        let reader = DispatchQueue(label: "digest-stderr")
        let readDone = DispatchSemaphore(value: 0)
        reader.async {
            complaint.data = (try? errors.fileHandleForReading.readToEnd()) ?? Data()
            readDone.signal()
        }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            // The whole group: a program it started (postfix's postdrop) must not deliver later.
            // (Foundation starts it in a group of its own; the process itself too, should not.)
            let pid = process.processIdentifier
            for signal in [SIGTERM, SIGKILL] {
                kill(-pid, signal)
                kill(pid, signal)
                if finished.wait(timeout: .now() + 5) == .success { break }
            }
            throw Failure(reason: "\(program) did not finish within \(Int(timeout)) seconds", timedOut: true)
        }
        _ = readDone.wait(timeout: .now() + 5)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let said = String(decoding: complaint.data.prefix(400), as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)
            let status =
                process.terminationReason == .exit ? "exit status \(process.terminationStatus)" : "signal \(process.terminationStatus)"
            throw Failure(reason: "\(program) refused it (\(status))" + (said.map { ": " + VisibleText.of($0) } ?? ""))
        }
    }
}
