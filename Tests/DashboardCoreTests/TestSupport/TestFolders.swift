import Foundation

/// The core tests' temporary folders: all under one folder per test process, removed when the
/// process exits, so that a test that keeps its database for the next assertion (most store
/// tests) leaves nothing behind in the system's temporary folder.
enum TestFolders {
    /// The process's folder, made on first use; removed by an exit handler.
    static let root: String = {
        let root = NSTemporaryDirectory() + "dashboard-core-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestFolders.root) }
        return root
    }()

    /// A new path under `root`, `prefix-UUID`, not yet made.
    static func path(_ prefix: String) -> String {
        root + "/" + prefix + "-" + UUID().uuidString
    }
}
