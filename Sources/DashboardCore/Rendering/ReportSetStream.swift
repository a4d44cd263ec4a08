import Foundation

/// `ReportSet.write` for a database of any size: the same files (the grid as `index.<ext>`,
/// one list file per course, linked from the HTML index), written while the courses are read
/// one at a time (`ReportCourseStream`), each file as soon as its course is read, the index
/// last. Memory is bounded by the largest course, not by the number of courses or tasks.
package enum ReportSetStream {
    /// Writes every format of `formats` into `directory`.
    /// - Parameter readerWording: the wording of the HTML and Markdown pages, when they are
    ///   written for teachers (`nightly`); nil: the query's wording in every format.
    /// - Returns: how many files were written, and the index of each format (the names of the
    ///   course files are not kept: tens of thousands of courses would hold as many strings).
    /// - Throws: `ReportWriteError` when a file cannot be written; the store's errors as they are.
    @discardableResult
    package static func write(
        _ reader: any ReportReading, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone,
        formats: [ReportFormat], width: Int, to directory: String, fileSystem: ReportFileSystem,
        readerWording: ReportWording? = nil, onlyCourses: [String] = [], calendar: CalendarFolder? = nil,
        digest: DigestMaterial? = nil
    ) throws -> WrittenReports {
        try fileSystem.ensureDirectory(directory)
        var written = WrittenReports(count: 0, indexes: [])
        var query = query
        query.calendarEvents = calendar != nil || digest != nil
        // HTML course pages: a big course's opens on its assignments; a teacher's index lists
        // the assignments that need them (issue 29).
        query.rollUpBeside = formats.contains(.html)
        var attention: [AttentionItem] = []
        var attentionCounts: BucketCounts?
        var lexicons: [Lexicon] = []
        // The folder's feed of all its courses: its events, kept until the last course (a
        // teacher's courses; memory: a few hundred bytes an event).
        var setEvents: [CalendarEvent] = []
        // Course files first, so the index never links to a page that is not there yet.
        try ReportCourseStream.forEachGroup(
            reader, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone, onlyCourses: onlyCourses
        ) {
            plan, group in
            digest?.events[group.course.courseID] = group.events
            if let calendar {
                var events = group.events
                let address = calendar.pageAddress(group.course.courseID)
                for index in events.indices { events[index].url = address }
                let name = ReportFileNames.course(group.course.courseID, ext: ReportSetLayout.calendarExtension)
                let feed = CalendarFeed.render(
                    name: group.course.code + " — " + group.course.title, events: events, asOf: asOf,
                    previous: calendar.previousText(name))
                try fileSystem.write(feed, name: name, in: directory)
                written.calendars += 1
                if calendar.name != nil { setEvents += events }
            }
            var single = plan.list
            single.groups = [group]
            single.listsStates = group.listsStates
            // The course's page in its own language (`ReportQuery.lexicon(of:)`).
            single.query.lexicon = query.lexicon(of: group.course)
            lexicons.append(single.query.lexicon)
            single.page = PageInfo(
                page: 1, pageCount: 1, limit: nil, totalItems: group.taskCount, firstItem: group.taskCount == 0 ? 0 : 1,
                lastItem: group.taskCount)
            for format in formats {
                let ext = format.fileExtension
                let name = ReportFileNames.course(group.course.courseID, ext: ext)
                if format == .html, HTMLRenderer.isBigCourse(group) {
                    let (pages, places) = HTMLRenderer.coursePages(
                        worded(single, format, readerWording), indexLink: ReportFileNames.index(ext)
                    ) { ReportFileNames.coursePage(group.course.courseID, page: $0, ext: ext) }
                    for (index, page) in pages.enumerated() {
                        try fileSystem.write(
                            page, name: ReportFileNames.coursePage(group.course.courseID, page: index + 1, ext: ext), in: directory)
                        written.count += 1
                    }
                    attention += needing(group, single) { places[AssignmentRollUp.key($0)] ?? name }
                    continue
                }
                if format == .html { attention += needing(group, single) { AttentionItem.listLink($0, page: name) } }
                let page = format.render(worded(single, format, readerWording), width: width, indexLink: ReportFileNames.index(ext))
                try fileSystem.write(page, name: name, in: directory)
                written.count += 1
            }
        } grid: { cards in
            attentionCounts = cards.frame.gridTotals.counts
            if let digest {
                digest.frame = cards.frame
                // The digest speaks as the teacher's index does: the language their courses share.
                if !query.languageForced, let shared = Lexicon.shared(lexicons) {
                    digest.frame?.query.lexicon = shared
                }
                try cards.forEachCard { card, _ in digest.cards.append(card) }
            }
            for format in formats {
                let ext = format.fileExtension
                let index = ReportFileNames.index(ext)
                // The index is written from the grid's cards as the store gives them back (never
                // held whole), and renamed into place last.
                try fileSystem.write(name: index, in: directory) { emit in
                    var worded = cards
                    worded.frame = Self.worded(cards.frame, format, readerWording)
                    // The index in the language its courses share, else the database's.
                    if !query.languageForced, let shared = Lexicon.shared(lexicons) {
                        worded.frame.query.lexicon = shared
                    }
                    // A teacher's index says what needs them (a whole set's index is the
                    // administrator's: every course, no one's to-do).
                    if format == .html, readerWording != nil { worded.frame.attention = AttentionItem.ordered(attention) }
                    try ReportGridStream.write(
                        worded, format: format, width: width, link: { $1 ? ReportFileNames.course($0.courseID, ext: ext) : nil },
                        emit: emit)
                }
                written.count += 1
                written.indexes.append(index)
            }
        }
        written.counts = attentionCounts
        if let calendar, let name = calendar.name {
            setEvents.sort { ($0.instant, $0.uid) < ($1.instant, $1.uid) }
            let feed = CalendarFeed.render(
                name: name, events: setEvents, asOf: asOf, previous: calendar.previousText(CalendarFolder.setFeed))
            try fileSystem.write(feed, name: CalendarFolder.setFeed, in: directory)
            written.calendars += 1
        }
        return written
    }

    /// The assignments of `group` that need its teacher today, each linking to `link(row)`.
    static func needing(_ group: CourseGroup, _ report: Report, link: (AssignmentRow) -> String) -> [AttentionItem] {
        let zone = zoneOf(group.course, report)
        return group.assignments.filter(AttentionItem.needs).map {
            AttentionItem(course: group.course, row: $0, zone: zone, link: link($0))
        }
    }

    /// The report as `format` shows it: HTML and Markdown pages take `readerWording` when one
    /// is given (pages teachers open); text, JSON and CSV keep the query's wording (read by
    /// whoever runs the program, and by machines).
    static func worded(_ report: Report, _ format: ReportFormat, _ readerWording: ReportWording?) -> Report {
        guard let readerWording, format == .html || format == .markdown else { return report }
        var worded = report
        worded.query.wording = readerWording
        return worded
    }
}

/// What a set gives its teacher's morning digest (`MorningDigest`), collected while the set
/// is written: the grid's frame, its cards in the grid's order, each course's events. Memory:
/// one teacher's courses and assignments.
package final class DigestMaterial {
    package var frame: Report?
    package var cards: [CourseCard] = []
    package var events: [String: [CalendarEvent]] = [:]

    package init() {}
}

/// What `ReportSetStream.write` wrote.
package struct WrittenReports: Sendable, Equatable {
    /// Every page written (course pages and indexes).
    package var count: Int
    /// The index of each format, in the order of the formats.
    package var indexes: [String]
    /// The calendar feeds written (`<course>.ics`, `calendar.ics`).
    package var calendars = 0
    /// The grid's counts, every card together (a teacher's attention on the teachers' index).
    package var counts: BucketCounts?

    package init(count: Int, indexes: [String], calendars: Int = 0) {
        self.count = count
        self.indexes = indexes
        self.calendars = calendars
    }
}
