import Foundation
import Testing

extension Sandbox {
    /// Runs `dashboard ARGS` with the umask `mask` (octal digits, as the shell's `umask` takes
    /// them), set by `sh` just before it becomes the program: the test process's own umask is not
    /// used, because other tests of this process change it for a moment.
    func run(umask mask: String, _ arguments: [String]) throws -> CommandResult {
        let binary = try DashboardBinary.url().path
        return try runTool("sh", ["-c", "umask \(mask) && exec \"$0\" \"$@\"", binary] + arguments)
    }

    /// The permission bits of `name` (relative to the working directory), without following a link.
    func mode(_ name: String) throws -> Int {
        var info = stat()
        guard lstat(path(name), &info) == 0 else { throw HarnessError("cannot stat \(name): \(String(cString: strerror(errno)))") }
        return Int(info.st_mode & 0o7777)
    }
}
