/// Paths as text, split and joined the way the system reads them (no file system access).
package enum PathText {
    /// Drops trailing slashes (`out/` would make the system follow a link at `out`); "" is ".".
    package static func trim(_ path: String) -> String {
        var text = Substring(path)
        while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
        return text.isEmpty ? "." : String(text)
    }

    /// `a/b/c` → (`a/b`, `c`); `c` → (`.`, `c`); `/c` → (`/`, `c`); trailing slashes dropped.
    package static func split(_ path: String) -> (parent: String, name: String) {
        let path = trim(path)
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let name = String(path[path.index(after: slash)...])
        if path[..<slash].isEmpty { return ("/", name.isEmpty ? "/" : name) }
        return (trim(String(path[..<slash])), name)
    }

    /// The folder holding `path`'s last component.
    package static func parent(_ path: String) -> String { split(path).parent }

    /// The last component of `path`.
    package static func name(_ path: String) -> String { split(path).name }

    /// `folder/name`, without doubling a slash or writing `./`.
    package static func join(_ folder: String, _ name: String) -> String {
        folder == "." ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
