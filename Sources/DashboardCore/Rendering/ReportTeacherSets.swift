import Foundation

/// `--by-teacher` and `nightly`: beside the whole set, `DIR/teachers/<folder>/` holds one
/// teacher's grid and course pages only (`TeacherIndex` names the folders),
/// `DIR/teachers/unassigned/` those of the courses without a teacher, and
/// `DIR/teachers/index.<ext>` lists every teacher and that folder, written last.
///
/// Policy: a teacher's set is the whole set's pipeline on exactly their live courses
/// (`ReportQuery.courseSet`, by id: another teacher's course never shows, not even in a count),
/// with the same facts and banner. A teacher with no live course (every course of theirs was
/// deleted) gets an index that says so, in every format. The courses whose `teacher` is empty
/// are a set of their own in the same way, under the grid's name "Courses without a teacher",
/// written while any course, live or deleted, has no teacher (issue 27: an export without a
/// teacher column, such as OULAD's, puts every course there). Memory: one teacher's courses'
/// ids at a time, and the list of teachers.
package enum ReportTeacherSets {
    /// A set of more courses than this is read by a scan of every course, its own picked by
    /// `courseSet`, rather than by a list of ids bound to one statement (SQLite binds at most
    /// 32,766 values, PostgreSQL 65,535; a list binds each id twice, as an id and as a code).
    static let largestIDList = 1000

    /// What a per-teacher set wrote.
    package struct Written: Sendable, Equatable {
        /// Pages written (teachers' pages, the folder without a teacher, the index).
        package var files: Int
        /// Calendar feeds written (each folder's `calendar.ics` and its courses' feeds).
        package var calendars = 0
        /// Live courses without a teacher, whose pages are in `teachers/unassigned/`.
        package var unassignedCourses: Int
        /// The morning digests written (`digest.eml` in a teacher's folder), in teacher order.
        package var digests: [WrittenDigest] = []
        /// Teachers with a live course and no address on any of them: no digest.
        package var teachersWithoutAddress = 0
    }

    /// - Parameter idListLimit: the most courses a set reads by their ids (`largestIDList`; a
    ///   test gives 0 to read every set by a scan).
    /// - Returns: how many files were written, and how many live courses have no teacher.
    @discardableResult
    package static func write(
        _ reader: any ReportReading & TeacherReading, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone,
        formats: [ReportFormat], width: Int, to directory: String, fileSystem: ReportFileSystem, readerWording: ReportWording? = nil,
        idListLimit: Int = largestIDList, calendar: CalendarSettings? = nil, digest: DigestSettings? = nil
    ) throws -> Written {
        let root = PathText.join(directory, TeacherIndex.folder)
        try fileSystem.ensureDirectory(root)
        var count = 0
        var calendars = 0
        var digests: [WrittenDigest] = []
        var withoutAddress = 0
        let empty = ReportBuilder.build(.grid, courses: [], facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
        /// Writes one set (a teacher's, or the courses without one) into `folder`, or its empty
        /// state (`emptyPage`) when none of its courses is live.
        /// Writes one set (a teacher's, or the courses without one) into `folder` (`path` inside
        /// the set), or its empty state (`emptyPage`) when none of its courses is live, with its
        /// feed (`feedName`) when the set writes calendars: an empty feed for an empty set, so
        /// that a subscribed client drops what it showed.
        func writeSet(
            _ ids: [String], into folder: String, path: String, name: String?, teacher: String? = nil, feedName: String,
            material: DigestMaterial? = nil,
            emptyPage: (ReportFormat, Report) -> String
        ) throws {
            var own = query
            own.courseSet = Set(ids)
            own.courseSetName = name
            own.courseSetTeacher = teacher
            let feeds = calendar?.folder(path, name: feedName)
            if ids.isEmpty {
                try fileSystem.ensureDirectory(folder)
                var frame = empty
                frame.query = own
                for format in formats {
                    let page = emptyPage(format, ReportSetStream.worded(frame, format, readerWording))
                    try fileSystem.write(page, name: ReportFileNames.index(format.fileExtension), in: folder)
                    count += 1
                }
                if let feeds {
                    let feed = CalendarFeed.render(
                        name: feedName, events: [], asOf: asOf, previous: feeds.previousText(CalendarFolder.setFeed))
                    try fileSystem.write(feed, name: CalendarFolder.setFeed, in: folder)
                    calendars += 1
                }
                return
            }
            let written = try ReportSetStream.write(
                reader, facts: facts, query: own, asOf: asOf, defaultTimeZone: defaultTimeZone, formats: formats, width: width,
                to: folder, fileSystem: fileSystem, readerWording: readerWording,
                onlyCourses: ids.count <= idListLimit ? ids : [], calendar: feeds, digest: material)
            count += written.count
            calendars += written.calendars
            lastCounts = written.counts
        }
        var lastCounts: BucketCounts?
        var teachers = try reader.reportTeachers()
        for (index, teacher) in teachers.enumerated() {
            let ids = try reader.liveCourseIDs(teacher: teacher.name)
            lastCounts = nil
            let path = TeacherIndex.folder + "/" + teacher.folder
            // A digest for a teacher with a live course and an address on one of them.
            var addresses: [EmailAddress] = []
            if let digest, !ids.isEmpty {
                addresses = try digest.addresses(teacher.name).compactMap(EmailAddress.init)
                if addresses.isEmpty { withoutAddress += 1 }
            }
            let material = addresses.isEmpty ? nil : DigestMaterial()
            let folder = PathText.join(root, teacher.folder)
            try writeSet(
                ids, into: folder, path: path, name: nil, teacher: teacher.name,
                feedName: CalendarSettings.teacherFeedName(teacher.name),
                material: material
            ) { format, frame in
                TeacherIndex.noCourses(teacher.name, format: format, frame: frame)
            }
            teachers[index].counts = lastCounts
            if let digest, let material, let frame = material.frame {
                let message = digest.message(
                    teacher: teacher.name, to: addresses, folderPath: path, frame: frame, cards: material.cards, events: material.events,
                    calendar: calendar != nil, asOf: asOf, defaultTimeZone: defaultTimeZone)
                try fileSystem.write(message.rendered(), name: DigestSettings.fileName, in: folder)
                count += 1
                digests.append(WrittenDigest(teacher: teacher.name, folder: path, recipients: addresses.map(\.text)))
            }
        }
        let unassigned = try reader.unassignedCourses()
        if unassigned.all > 0 {
            try writeSet(
                try reader.liveCourseIDs(teacher: ""), into: PathText.join(root, TeacherIndex.unassignedFolder),
                path: TeacherIndex.folder + "/" + TeacherIndex.unassignedFolder, name: TeacherIndex.unassignedName,
                feedName: TeacherIndex.unassignedName + " — due dates"
            ) { format, frame in
                TeacherIndex.noUnassignedCourses(format: format, frame: frame)
            }
        }
        for format in formats {
            let page = TeacherIndex.render(
                teachers, unassigned: unassigned, format: format, frame: ReportSetStream.worded(empty, format, readerWording))
            try fileSystem.write(page, name: ReportFileNames.index(format.fileExtension), in: root)
            count += 1
        }
        return Written(
            files: count, calendars: calendars, unassignedCourses: unassigned.live, digests: digests, teachersWithoutAddress: withoutAddress
        )
    }
}
