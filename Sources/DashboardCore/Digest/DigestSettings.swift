import Foundation

/// What a night needs to write its teachers' morning digests (`nightly --digest`): the sender
/// (the `mail_from` setting), where the night's folder is served (`base_url`) or lies, and
/// each teacher's addresses (the `teacher_email` of their live courses).
///
/// Policy (docs/reports.md, "The morning digest"): a teacher gets one message, to every
/// distinct address their live courses give (sorted; two courses with two addresses reach
/// both), written as `digest.eml` in their folder of the night. A teacher with live courses
/// and no address gets none (the night's summary counts them); a teacher without a live course
/// gets none either. The message's `Date` is the night's as-of and its `Message-ID` a hash of
/// the teacher and the as-of, so a night written again writes the same message.
package struct DigestSettings {
    /// The file a teacher's folder holds the message in.
    package static let fileName = "digest.eml"
    /// The sender's name beside the `mail_from` address.
    package static let senderName = "Course dashboard"

    package var from: EmailAddress
    /// The `base_url` setting: the address the night's folder (`latest`) is served at.
    package var baseURL: String?
    /// The night's folder as a path (`<reports>/latest`), for the links when there is no base URL.
    package var localRoot: String
    /// The zone the message's own times are shown in (the night's `--timezone`); nil: the
    /// database's default zone.
    package var displayTimeZone: TimeZone?
    /// The distinct addresses of a teacher's live courses, sorted.
    package var addresses: (String) throws -> [String]

    package init(
        from: EmailAddress, baseURL: String?, localRoot: String, displayTimeZone: TimeZone?,
        addresses: @escaping (String) throws -> [String]
    ) {
        self.from = from
        self.baseURL = baseURL
        self.localRoot = localRoot
        self.displayTimeZone = displayTimeZone
        self.addresses = addresses
    }

    /// The message for `teacher`, whose folder is `folderPath` inside the set.
    func message(
        teacher: String, to addresses: [EmailAddress], folderPath: String, frame: Report, cards: [CourseCard],
        events: [String: [CalendarEvent]], calendar: Bool, asOf: Date, defaultTimeZone: TimeZone
    ) -> MailMessage {
        let zone = displayTimeZone ?? defaultTimeZone
        let base = baseURL.map { ($0.hasSuffix("/") ? $0 : $0 + "/") + folderPath + "/" }
        let local = PathText.join(localRoot, folderPath)
        let folder = base ?? PathText.join(local, ReportFileNames.index(ReportFormat.html.fileExtension))
        let feed = calendar ? (base.map { $0 + CalendarFolder.setFeed } ?? PathText.join(local, CalendarFolder.setFeed)) : nil
        let courses = cards.map { card in
            DigestCourse(
                card: card,
                zone: card.course.timezone.isEmpty ? defaultTimeZone : TimeZone(identifier: card.course.timezone) ?? defaultTimeZone,
                events: events[card.course.courseID] ?? [],
                page: base.map { $0 + ReportFileNames.course(card.course.courseID, ext: ReportFormat.html.fileExtension) })
        }
        let digest = MorningDigest.compose(teacher: teacher, frame: frame, courses: courses, folder: folder, calendar: feed, zone: zone)
        let domain = from.text.split(separator: "@").last.map(String.init) ?? "dashboard"
        return MailMessage(
            from: MailMessage.Mailbox(name: Self.senderName, address: from),
            to: addresses.map { MailMessage.Mailbox(name: teacher, address: $0) }, subject: digest.subject, date: asOf,
            messageID: MailMessage.messageID(seed: teacher + "\u{0}" + Timestamp.text(asOf), domain: domain), text: digest.text,
            html: digest.html)
    }
}

/// A digest a night wrote: whose, in which folder of the set, to whom.
package struct WrittenDigest: Sendable, Equatable {
    package var teacher: String
    /// The teacher's folder inside the night's folder (`teachers/amaka-okafor-8a68922c`).
    package var folder: String
    package var recipients: [String]

    package init(teacher: String, folder: String, recipients: [String]) {
        self.teacher = teacher
        self.folder = folder
        self.recipients = recipients
    }
}
