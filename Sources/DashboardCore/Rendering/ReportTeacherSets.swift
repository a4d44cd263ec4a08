import Foundation

/// `--by-teacher` and `nightly`: beside the whole set, `DIR/teachers/<folder>/` holds one
/// teacher's grid and course pages only (`TeacherIndex` names the folders), and
/// `DIR/teachers/index.<ext>` lists every teacher, written last.
///
/// Policy: a teacher's set is the whole set's pipeline on exactly their live courses
/// (`ReportQuery.courseSet`, by id: another teacher's course never shows, not even in a count),
/// with the same facts and banner. A teacher with no live course (every course of theirs was
/// deleted) gets an index that says so, in every format. Memory: one teacher's courses' ids at
/// a time, and the list of teachers.
package enum ReportTeacherSets {
    /// - Returns: how many files were written.
    @discardableResult
    package static func write(
        _ reader: any ReportReading & TeacherReading, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone,
        formats: [ReportFormat], width: Int, to directory: String, fileSystem: ReportFileSystem, readerWording: ReportWording? = nil
    ) throws -> Int {
        let root = PathText.join(directory, TeacherIndex.folder)
        try fileSystem.ensureDirectory(root)
        var count = 0
        let teachers = try reader.reportTeachers()
        for teacher in teachers {
            let folder = PathText.join(root, teacher.folder)
            let ids = try reader.liveCourseIDs(teacher: teacher.name)
            var own = query
            own.courseSet = Set(ids)
            if ids.isEmpty {
                try fileSystem.ensureDirectory(folder)
                let frame = ReportBuilder.build(.grid, courses: [], facts: facts, query: own, asOf: asOf, defaultTimeZone: defaultTimeZone)
                for format in formats {
                    let page = TeacherIndex.noCourses(
                        teacher.name, format: format, frame: ReportSetStream.worded(frame, format, readerWording))
                    try fileSystem.write(page, name: ReportFileNames.index(format.fileExtension), in: folder)
                    count += 1
                }
                continue
            }
            count +=
                try ReportSetStream.write(
                    reader, facts: facts, query: own, asOf: asOf, defaultTimeZone: defaultTimeZone, formats: formats, width: width,
                    to: folder, fileSystem: fileSystem, readerWording: readerWording, onlyCourses: ids
                ).count
        }
        let frame = ReportBuilder.build(.grid, courses: [], facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
        for format in formats {
            let page = TeacherIndex.render(teachers, format: format, frame: ReportSetStream.worded(frame, format, readerWording))
            try fileSystem.write(page, name: ReportFileNames.index(format.fileExtension), in: root)
            count += 1
        }
        return count
    }
}
