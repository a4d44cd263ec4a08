import Foundation

/// The files and folders a report set writes into its folder, read as one rule by the check a
/// run makes before its first write, so that a name that cannot be written is found before any
/// page is.
///
/// Policy: a set folder (the whole set's, and with `byTeacher` each teacher's) holds
/// `index.<ext>` and `course-<slug>-<hash>.<ext>` files (`ReportSetStream`, `ReportFileNames`);
/// `teachers/` holds `index.<ext>` and one `<slug>-<hash>` folder per teacher
/// (`ReportTeacherSets`, `TeacherIndex`). The check reads what is in the folder now and judges
/// every name of those forms, whether or not this run's courses use it: a name that is not
/// there cannot be in the way, and no store needs to be read. The writers name their files
/// with the functions these forms are read by (`couldWrite`, `couldBeFolder`), and
/// `HardeningOutputPreflightTests.everyNameARunWritesIsOneTheCheckReads` holds every file and
/// folder a real run writes to them. Memory: one name at a time, and the teachers' folder names.
package struct ReportSetLayout: Sendable, Equatable {
    /// The extensions of the formats written.
    package var extensions: [String]
    /// Whether `teachers/` is written too (`--by-teacher`, `nightly`); such a set also writes
    /// calendar feeds in every set folder (`calendar.ics`, `course-<slug>-<hash>.ics`).
    package var byTeacher: Bool

    package init(formats: [ReportFormat], byTeacher: Bool) {
        extensions = formats.map(\.fileExtension)
        self.byTeacher = byTeacher
    }

    /// The extension of the calendar feeds.
    package static let calendarExtension = "ics"

    /// Every extension the set writes: its formats', and the feeds' in a per-teacher set.
    package var allExtensions: [String] { byTeacher ? extensions + [Self.calendarExtension] : extensions }

    /// Whether the set writes a file called `name` in a set folder.
    package func isSetFile(_ name: String) -> Bool {
        if byTeacher,
            name == CalendarFolder.setFeed
                || (name != ReportFileNames.index(Self.calendarExtension) && ReportFileNames.couldWrite(name, ext: Self.calendarExtension))
        {
            return true
        }
        return extensions.contains { ReportFileNames.couldWrite(name, ext: $0) }
    }

    /// Whether the set writes a file called `name` in `teachers/` (the index of teachers).
    package func isTeachersFile(_ name: String) -> Bool { extensions.contains { name == ReportFileNames.index($0) } }

    /// Whether `relative` (`index.html`, `teachers/<folder>/course-….md`, `teachers`) is a file
    /// or folder the set may write under its folder.
    package func mayWrite(_ relative: String) -> Bool {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1: return isSetFile(parts[0]) || (byTeacher && parts[0] == TeacherIndex.folder)
        case 2: return byTeacher && parts[0] == TeacherIndex.folder && (isTeachersFile(parts[1]) || TeacherIndex.couldBeFolder(parts[1]))
        case 3: return byTeacher && parts[0] == TeacherIndex.folder && TeacherIndex.couldBeFolder(parts[1]) && isSetFile(parts[2])
        default: return false
        }
    }

    /// Checks every name the set could write under `folder` that is there now: a file's name
    /// must be one `SafeFolder.write` may replace (`SafeFolder.obstacle`), and `teachers/` and
    /// each teacher's folder must be folders the writer may write into (`existingChild`).
    /// In a folder, an `index.<ext>` is reported before a course file, then names in order.
    /// - Throws: `ReportSetObstacle` for a name in the way; `SafeFileError` for a folder of
    ///   the set that cannot be written into (a link, a file, another user's).
    package func check(_ folder: SafeFolder) throws {
        let root = folder.path
        try checkFiles(in: folder, as: "", of: root, where: isSetFile)
        guard byTeacher, let teachers = try folder.existingChild(TeacherIndex.folder) else { return }
        try checkFiles(in: teachers, as: TeacherIndex.folder + "/", of: root, where: isTeachersFile)
        var names: [String] = []
        try teachers.forEachName { if TeacherIndex.couldBeFolder($0) { names.append($0) } }
        for name in names.sorted() {
            guard let teacher = try teachers.existingChild(name) else { continue }
            try checkFiles(in: teacher, as: TeacherIndex.folder + "/" + name + "/", of: root, where: isSetFile)
        }
    }

    /// Checks the names `written` of `folder`, which is `prefix` under the set's folder `root`.
    private func checkFiles(in folder: SafeFolder, as prefix: String, of root: String, where written: (String) -> Bool) throws {
        var first: (index: Bool, name: String, problem: SafeFileError.Problem)?
        try folder.forEachName { name in
            guard written(name), let problem = folder.obstacle(name) else { return }
            let index = extensions.contains { name == ReportFileNames.index($0) }
            if let current = first, (current.index && !index) || (current.index == index && current.name < name) { return }
            first = (index, name, problem)
        }
        if let first { throw ReportSetObstacle(folder: root, name: prefix + first.name, problem: first.problem) }
    }
}

/// A name a report set would write that is not a file it may replace (a folder, a FIFO, the
/// database …), found before the run writes anything.
package struct ReportSetObstacle: Error, Equatable {
    /// The folder checked, as the caller gave it.
    package let folder: String
    /// The name, relative to `folder` (`teachers/<folder>/index.html`).
    package let name: String
    /// What is wrong (`SafeFolder.obstacle`).
    package let problem: SafeFileError.Problem

    package init(folder: String, name: String, problem: SafeFileError.Problem) {
        self.folder = folder
        self.name = name
        self.problem = problem
    }

    /// What is at the name, in words: "a folder", "a FIFO (named pipe)" …; nil for a protected
    /// file (`problem` names it).
    package var kind: String? {
        switch problem {
        case .finalNameIsFolder: return "a folder"
        case .notRegularFile(_, let kind), .notOurLink(_, let kind): return kind
        default: return nil
        }
    }
}
