import Foundation
import Testing

@testable import DashboardCore

/// SPEC §11 (issue 31): every accepted word of each state, in every spelling an export uses,
/// a rejected near-miss per state, the conflict rule between `status` and `completed`, and
/// lateness in the course's zone across the DST changes of New York and London.
@Suite struct SubmissionStateTests {
    /// Each accepted word of §11's table (as the SPEC writes it) and its state.
    static let specWords: [(String, SubmissionState)] =
        ["open", "assigned", "new", "created", "unsubmitted", "missing", "draft", "reopened", "reclaimed by student"].map { ($0, .open) }
        + ["submitted", "turned in", "handed in", "pending review", "needs grading"].map { ($0, .submitted) }
        + ["completed", "complete", "graded", "marked", "returned", "done"].map { ($0, .completed) }
        + ["excused", "exempt", "excluded"].map { ($0, .excused) }

    @Test("every word of §11 names its state in any case, with _, - or spaces alike, trimmed")
    func everyWord() {
        #expect(Self.specWords.count == 23)
        for (word, state) in Self.specWords {
            let spellings = [
                word, word.uppercased(), word.capitalized, word.replacingOccurrences(of: " ", with: "_").uppercased(),
                word.replacingOccurrences(of: " ", with: "-"), " \t" + word.replacingOccurrences(of: " ", with: " _ ") + "  ",
            ]
            for spelling in spellings {
                #expect(SubmissionStateParser.read(spelling) == .state(state), "\(spelling)")
            }
        }
        // The LMS exports' own spellings: Canvas, Google Classroom, Moodle.
        let exports: [(String, SubmissionState)] = [
            ("pending_review", .submitted), ("TURNED_IN", .submitted), ("RETURNED", .completed),
            ("RECLAIMED_BY_STUDENT", .open), ("unsubmitted", .open), ("graded", .completed), ("NEW", .open),
        ]
        for (word, state) in exports { #expect(SubmissionStateParser.read(word) == .state(state), "\(word)") }
    }

    @Test(
        "a word of no state is unknown; an empty cell says nothing",
        arguments: ["opened", "turnedin", "submit", "handed", "complet", "grade", "excuse", "exempted", "yes", "true", "0", "✓", "é"])
    func rejected(word: String) {
        #expect(SubmissionStateParser.read(word) == .unknown, "\(word)")
    }

    @Test func emptyCells() {
        for empty in ["", " ", "\t", "_", " - ", "\u{A0}"] {
            #expect(SubmissionStateParser.read(empty) == .empty, "\(Array(empty.unicodeScalars))")
        }
        #expect(SubmissionStateParser.key("  Pending__Review - ") == "pending review")
    }

    @Test("the hint lists every state and its words")
    func hint() {
        #expect(
            SubmissionStateParser.hint
                == "use one of: open (open, assigned, new, created, unsubmitted, missing, draft, reopened, reclaimed by student); "
                + "submitted (submitted, turned in, handed in, pending review, needs grading); "
                + "completed (completed, complete, graded, marked, returned, done); excused (excused, exempt, excluded); "
                + "empty takes the state from completed")
    }

    @Test(
        "status and completed: the state, or nil for conflicting_status",
        arguments: [
            (nil, nil, .open), (nil, false, .open), (nil, true, .completed),
            (.open, nil, .open), (.open, false, .open), (.open, true, nil),
            (.submitted, nil, .submitted), (.submitted, false, .submitted), (.submitted, true, nil),
            (.completed, nil, .completed), (.completed, true, .completed), (.completed, false, nil),
            (.excused, nil, .excused), (.excused, true, .excused), (.excused, false, .excused),
        ] as [(SubmissionState?, Bool?, SubmissionState?)])
    func reconcile(status: SubmissionState?, completed: Bool?, expected: SubmissionState?) {
        #expect(SubmissionStateParser.state(status: status, completed: completed) == expected)
    }

    // MARK: - Lateness

    static func zone(_ name: String) -> TimeZone { TimeZone(identifier: name)! }
    static func day(_ y: Int, _ m: Int, _ d: Int) -> DueDate { .date(CivilDate(year: y, month: m, day: d)) }
    static func local(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int, _ s: Int = 0) -> DueDate {
        .local(CivilDate(year: y, month: m, day: d), hour: h, minute: min, second: s)
    }
    static func utc(_ text: String) -> DueDate {
        guard case .instant(let seconds)? = try? DueDateParser.parse(text, dateOrder: nil) else { fatalError(text) }
        return .instant(seconds)
    }

    /// (what, hand-in, due, zone, late?)
    static let lateness: [(String, DueDate?, DueDate?, String, Bool)] = [
        ("on the due date itself", day(2026, 12, 2), day(2026, 12, 2), "UTC", false),
        ("a day after", day(2026, 12, 3), day(2026, 12, 2), "UTC", true),
        ("a day before", day(2026, 12, 1), day(2026, 12, 2), "UTC", false),
        ("late in the evening of a date-only due", local(2026, 12, 2, 23, 59, 59), day(2026, 12, 2), "Europe/Berlin", false),
        ("just after that day", local(2026, 12, 3, 0, 0), day(2026, 12, 2), "Europe/Berlin", true),
        ("a date-only hand-in on the day of a timed due", day(2026, 12, 2), local(2026, 12, 2, 9, 0), "Europe/Berlin", false),
        ("a date-only hand-in the day after a timed due", day(2026, 12, 3), local(2026, 12, 2, 9, 0), "Europe/Berlin", true),
        ("an instant on the local date of a date-only due", utc("2026-12-02T22:59:59Z"), day(2026, 12, 2), "Europe/Berlin", false),
        ("an instant on the next local date", utc("2026-12-02T23:00:00Z"), day(2026, 12, 2), "Europe/Berlin", true),
        ("the same moment, local and instant", local(2026, 12, 2, 10, 0), utc("2026-12-02T09:00:00Z"), "Europe/Berlin", false),
        ("a second after", local(2026, 12, 2, 10, 0, 1), utc("2026-12-02T09:00:00Z"), "Europe/Berlin", true),
        // New York springs forward on 2026-03-08 (02:00 → 03:00): a due of 02:30 is 03:30 EDT (07:30Z).
        ("NY spring: before a due in the skipped hour", utc("2026-03-08T07:29:00Z"), local(2026, 3, 8, 2, 30), "America/New_York", false),
        ("NY spring: after it", utc("2026-03-08T07:31:00Z"), local(2026, 3, 8, 2, 30), "America/New_York", true),
        // New York falls back on 2026-11-01: 01:30 is first EDT (05:30Z); 01:00 EST (06:00Z) is later.
        ("NY autumn: 01:00 EST is after 01:30 EDT", utc("2026-11-01T06:00:00Z"), local(2026, 11, 1, 1, 30), "America/New_York", true),
        ("NY autumn: 01:20 EDT is before", utc("2026-11-01T05:20:00Z"), local(2026, 11, 1, 1, 30), "America/New_York", false),
        ("NY autumn: 23:30 EST on the due date", utc("2026-11-02T04:30:00Z"), day(2026, 11, 1), "America/New_York", false),
        ("NY autumn: 00:30 EST the day after", utc("2026-11-02T05:30:00Z"), day(2026, 11, 1), "America/New_York", true),
        // London springs forward on 2026-03-29 and falls back on 2026-10-25.
        ("London spring: 23:59 BST on the due date", utc("2026-03-29T22:59:00Z"), day(2026, 3, 29), "Europe/London", false),
        ("London spring: 00:30 BST the next day", utc("2026-03-29T23:30:00Z"), day(2026, 3, 29), "Europe/London", true),
        ("London autumn: 23:30 GMT on the due date", utc("2026-10-25T23:30:00Z"), day(2026, 10, 25), "Europe/London", false),
        ("London autumn: 00:30 BST on the due date", utc("2026-10-24T23:30:00Z"), day(2026, 10, 25), "Europe/London", false),
        ("London autumn: a local time against an instant", local(2026, 10, 25, 1, 30), utc("2026-10-25T00:45:00Z"), "Europe/London", false),
        ("no due is never late", day(2027, 1, 1), nil, "UTC", false),
        ("no hand-in time is never late", nil, day(2026, 1, 1), "UTC", false),
    ]

    @Test(arguments: lateness.indices) func lateWhenHandedInAfterTheDueInTheCoursesZone(index: Int) {
        let (what, submitted, due, zone, late) = Self.lateness[index]
        #expect(Lateness.isLate(submitted: submitted, due: due, in: Self.zone(zone)) == late, "\(what)")
        #expect((Lateness.secondsLate(submitted: submitted, due: due, in: Self.zone(zone)) > 0) == late, "\(what)")
    }

    @Test func howLate() {
        let utc = Self.zone("UTC")
        #expect(Lateness.secondsLate(submitted: Self.day(2026, 12, 4), due: Self.day(2026, 12, 1), in: utc) == 3 * 86_400)
        #expect(Lateness.secondsLate(submitted: Self.local(2026, 12, 1, 11, 30), due: Self.local(2026, 12, 1, 9, 0), in: utc) == 9_000)
        // New York's autumn day has 25 hours: 00:00 to 23:00 local is 24 hours of time.
        let newYork = Self.zone("America/New_York")
        #expect(
            Lateness.secondsLate(submitted: Self.local(2026, 11, 1, 23, 0), due: Self.local(2026, 11, 1, 0, 0), in: newYork) == 24 * 3600)
    }
}
