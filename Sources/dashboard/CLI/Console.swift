import DashboardCore
import Foundation

/// Writes to stdout and stderr; knows whether each is a terminal and whether colour is wanted.
final class Console {
    let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    let stderrIsTerminal = isatty(STDERR_FILENO) == 1
    var quiet = false
    /// `NO_COLOR` set to anything but the empty string turns colour off (no-color.org; an empty
    /// variable counts as unset, as every variable of this program does).
    var colorAllowed = (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty

    /// Colour for the data on stdout: only on a terminal that can show it (not `TERM=dumb`),
    /// never with `NO_COLOR` or `--no-color` (SPEC §8).
    var stdoutColour: Bool {
        stdoutIsTerminal && colorAllowed && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// Data for stdout. A closed pipe (`dashboard … | head`) ends the program quietly.
    func out(_ text: String) {
        write(STDOUT_FILENO, text)
    }

    /// A message for stderr.
    func err(_ text: String) {
        write(STDERR_FILENO, text)
    }

    /// `dashboard: error: …` and its hint. Messages and hints are plain sentences that name
    /// paths, ids and values of the user's data, never text of ours that must act on the
    /// terminal, so every control, bidi and invisible character in them is shown as a visible
    /// escape (`VisibleText`): a file name cannot clear the screen or fake a second line.
    func error(_ message: String, hint: String = "") {
        err("dashboard: error: \(VisibleText.of(message))\n")
        if !hint.isEmpty { err("dashboard: hint: \(VisibleText.of(hint))\n") }
    }

    /// `dashboard: warning: …`, made visible like `error`.
    func warning(_ message: String) {
        err("dashboard: warning: \(VisibleText.of(message))\n")
    }

    /// A note on stderr, unless `--quiet`, made visible like `error`.
    func note(_ message: String) {
        if !quiet { err("dashboard: \(VisibleText.of(message))\n") }
    }

    /// Wraps `text` in an ANSI colour when stderr is a terminal and colour is allowed. `text` is
    /// our own word: data is made visible before it is put next to a styled word, never after.
    func styled(_ text: String, _ code: String) -> String {
        guard stderrIsTerminal, colorAllowed else { return text }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    /// Policy: a reader that went away (`dashboard … | head`, EPIPE) is not an error: the
    /// program stops quietly with 0. Any other failure to write the data on stdout (a full disk
    /// behind `> file`, a closed stdout, an I/O error) is: the data did not arrive, so the
    /// program says so on stderr and exits 74, never 0. A failure to write stderr itself cannot
    /// be reported anywhere and is ignored.
    private func write(_ fd: Int32, _ text: String) {
        let failure = FileDescriptorWriter.writeAll(fd, text)
        guard failure != 0 else { return }
        if failure == EPIPE { exit(0) }
        guard fd == STDOUT_FILENO else { return }
        FileDescriptorWriter.writeAll(
            STDERR_FILENO,
            "dashboard: error: cannot write standard output: \(String(cString: strerror(failure)))\n"
                + "dashboard: hint: check the disk or the file that standard output goes to; the output is incomplete\n")
        exit(ExitCode.ioError.rawValue)
    }
}

/// A one-line progress bar on stderr: bytes, rows per second and time left.
final class ProgressBar {
    private let console: Console
    private let start = Date()
    private var lastDraw = Date.distantPast
    private(set) var drawn = false

    init(console: Console) { self.console = console }

    func update(bytes: Int, total: Int, rows: Int, writing: Bool = false) {
        let now = Date()
        if writing {
            console.err("\r\u{1B}[K" + "planning and writing \(Format.number(rows)) rows…")
            drawn = true
            return
        }
        guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let fraction = total > 0 ? min(1, Double(bytes) / Double(total)) : 0
        let width = 24
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let rate = Int(Double(rows) / elapsed)
        var eta = ""
        if fraction > 0.01, fraction < 1 {
            eta = "  ETA \(Int((elapsed / fraction - elapsed).rounded())) s"
        }
        let line = "[\(bar)] \(Int(fraction * 100))%  \(Format.bytes(bytes))/\(Format.bytes(total))  \(Format.number(rate)) rows/s\(eta)"
        console.err("\r\u{1B}[K" + line)
        drawn = true
    }

    func clear() {
        if drawn { console.err("\r\u{1B}[K") }
        drawn = false
    }
}

enum Format {
    static func bytes(_ n: Int) -> String {
        if n < 1024 { return "\(n) B" }
        if n < 1024 * 1024 { return String(format: "%.1f KiB", Double(n) / 1024) }
        return String(format: "%.1f MiB", Double(n) / 1_048_576)
    }

    /// 1234567 → "1,234,567". Any Int, `Int.min` included (its magnitude, not `abs`, which
    /// traps on it: counts can come from a hand-edited database).
    static func number(_ n: Int) -> String {
        let digits = String(n.magnitude)  // not abs(n), which traps on Int.min
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }
}
