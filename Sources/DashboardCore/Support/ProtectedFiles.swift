import Foundation

/// The files a run must not replace and the folders it must not write into, by identity, as
/// `SafeFolder` checks them on its open descriptor at the moment of writing.
///
/// Policy (SPEC §9): the output guard of the command line refuses a protected path up front,
/// from its spelling (64). This is the second check, on what is actually opened: before a file
/// is written, the folder's descriptor (`fstat`) must not be a protected folder, the name's file
/// (`fstatat`, links followed) must not be a protected file, and the folder and name must not be
/// a protected name that does not exist yet (a database's `-wal`). So no spelling of a path the
/// guard missed can replace the database or an input. Refused as `SafeFileError.protectedFile`.
package struct ProtectedFiles: Sendable {
    struct Key: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    struct Entry: Hashable, Sendable {
        let folder: Key
        let name: String
    }

    private var files: [Key: String] = [:]
    private var entries: [Entry: String] = [:]
    private var folders: [Key: String] = [:]

    package init() {}

    /// Protects the file `identity` (shown as `path`): an existing file by device and inode, a
    /// missing name of an existing folder by that folder and name.
    package mutating func protectFile(_ identity: FileIdentity, path: String) {
        switch identity {
        case .inode(let device, let inode): files[Key(device: device, inode: inode)] = path
        case .entry(.inode(let device, let inode), let name): entries[Entry(folder: Key(device: device, inode: inode), name: name)] = path
        default: break
        }
    }

    /// Protects the folder `identity` (shown as `path`): nothing is written into it.
    package mutating func protectFolder(_ identity: FileIdentity, path: String) {
        if case .inode(let device, let inode) = identity { folders[Key(device: device, inode: inode)] = path }
    }

    /// The protected path that writing `name` into the folder open at `folder` would replace or
    /// write into, or nil.
    func conflict(folder: Int32, name: String) -> String? {
        var info = stat()
        guard fstat(folder, &info) == 0 else { return nil }
        let key = Key(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        if let path = folders[key] { return path }
        if let path = entries[Entry(folder: key, name: name)] { return path }
        if fstatat(folder, name, &info, 0) == 0, let path = files[Key(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))] {
            return path
        }
        return nil
    }
}
