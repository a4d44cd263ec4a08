import Foundation

/// The feeds a report set has read before: the text of a feed by its path inside the set
/// (`teachers/amaka-okafor-8a68922c/calendar.ics`), from which a new feed carries each
/// unchanged event's `SEQUENCE` and `LAST-MODIFIED` (`CalendarFeed`).
package protocol PreviousFeeds {
    /// The feed's text, or nil when there is none (or it cannot be read).
    func text(of path: String) -> String?
}

/// No earlier feeds: every event starts at `SEQUENCE:0`.
package struct NoPreviousFeeds: PreviousFeeds {
    package init() {}
    package func text(of path: String) -> String? { nil }
}

/// The feeds of a folder on disk: a night's previous folder (`latest`), or the folder that
/// `report --out DIR` writes over. A regular file of at most `limit` bytes, opened without
/// following a link; anything else is no feed.
package struct FolderPreviousFeeds: PreviousFeeds {
    package let root: String
    /// Larger files are not read (a feed of 200,000 events is about 100 MB).
    package var limit = 256 << 20

    package init(root: String) {
        self.root = root
    }

    package func text(of path: String) -> String? {
        let fd = open(PathText.join(root, path), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) <= limit else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            filled += n
        }
        return String(decoding: bytes[..<filled], as: UTF8.self)
    }
}

/// What a report set's folder writes of calendars: each course's feed (`<course>.ics`) and,
/// for a teacher's folder, the feed of all their courses (`calendar.ics`).
package struct CalendarFolder {
    /// The set's feed name (`X-WR-CALNAME` of `calendar.ics`); nil: no `calendar.ics`.
    package var name: String?
    /// The folder's path inside the set ("" for the set's own folder, `teachers/<folder>`).
    package var path: String
    /// The `base_url` setting: the address the set's folder is served at; nil: events carry no
    /// address.
    package var baseURL: String?
    /// Whether the set writes HTML course pages (an event links its course's page only then).
    package var linksPages: Bool
    package var previous: any PreviousFeeds

    package init(name: String?, path: String, baseURL: String?, linksPages: Bool, previous: any PreviousFeeds) {
        self.name = name
        self.path = path
        self.baseURL = baseURL
        self.linksPages = linksPages
        self.previous = previous
    }

    /// The feed of all the courses of a folder.
    package static let setFeed = "calendar.ics"

    /// The address of a course's page in this folder, when there is a base URL and pages.
    func pageAddress(_ courseID: String) -> String? {
        guard let baseURL, linksPages else { return nil }
        let base = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        return base + (path.isEmpty ? "" : path + "/") + ReportFileNames.course(courseID, ext: ReportFormat.html.fileExtension)
    }

    /// The text of the feed `name` of this folder the last time.
    func previousText(_ name: String) -> String? {
        previous.text(of: path.isEmpty ? name : path + "/" + name)
    }
}

/// What a per-teacher report set needs to write its feeds: the `base_url` setting, whether it
/// writes HTML pages for the events to link, and the feeds written before.
package struct CalendarSettings {
    package var baseURL: String?
    package var linksPages: Bool
    package var previous: any PreviousFeeds

    package init(baseURL: String?, linksPages: Bool, previous: any PreviousFeeds) {
        self.baseURL = baseURL
        self.linksPages = linksPages
        self.previous = previous
    }

    /// The feeds of the folder at `path` inside the set; `name`: its `calendar.ics`'s name
    /// (nil: none).
    package func folder(_ path: String, name: String?) -> CalendarFolder {
        CalendarFolder(name: name, path: path, baseURL: baseURL, linksPages: linksPages, previous: previous)
    }

    /// The name of a teacher's feed: "Amaka Okafor — courses due".
    package static func teacherFeedName(_ teacher: String) -> String { teacher + " — due dates" }
}
