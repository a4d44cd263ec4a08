import Foundation

/// The search and filters of a query, decided one task at a time: the same rules as
/// `ReportPipeline.search` and `ReportPipeline.filter`, for a shell that streams tasks and
/// never holds them all (`ReportStream`). Pure.
package struct ReportMatcher: Sendable {
    let words: [String]
    let wordsAreASCII: Bool
    /// The words as UTF-8 (`found(titleBytes:courseText:cache:)`).
    let wordBytes: [[UInt8]]
    /// True when every word is ASCII with no capital letter: a store's test of a word on an
    /// ASCII title in any case of its letters (`SearchWord`) is then exactly the fold's.
    let wordsAreLowercaseASCII: Bool
    let courseSet: Set<String>
    /// Each `--teacher` value as its folded words (`ReportMatcher.nameWords`).
    let teacherWords: [[String]]
    let studentSet: Set<String>
    let bucketSet: Set<Bucket>
    let prioritySet: Set<Priority>
    /// `--status`: the submission states kept (SPEC §11); empty: every state.
    let statusSet: Set<SubmissionState>
    /// `--late`: only work handed in after its due (`ReportPipeline.handedInLate`).
    let lateOnly: Bool
    let due: DueWindow

    package init(_ query: ReportQuery) {
        words = ReportPipeline.fold(query.search).split(whereSeparator: { $0.isWhitespace }).map(String.init)
        wordsAreASCII = words.allSatisfy(TextFold.isASCII)
        wordBytes = words.map { Array($0.utf8) }
        wordsAreLowercaseASCII = wordsAreASCII && !words.contains { $0.utf8.contains { (0x41...0x5A).contains($0) } }
        courseSet = Set(query.courses)
        teacherWords = query.teachers.map(Self.nameWords).filter { !$0.isEmpty }
        studentSet = Set(query.students)
        bucketSet = Set(query.buckets)
        prioritySet = Set(query.priorities)
        statusSet = Set(query.statuses)
        lateOnly = query.late
        due = query.due
    }

    /// True when the search needs the task titles.
    package var searches: Bool { !words.isEmpty }

    /// The `--course` and `--teacher` filters: a course they leave out disappears.
    package func allows(_ course: CourseRecord) -> Bool {
        if !courseSet.isEmpty, !courseSet.contains(course.courseID), !courseSet.contains(course.code) { return false }
        if !teacherWords.isEmpty {
            // SPEC §7: any word of the name, case- and diacritic-insensitive: `--teacher okafor`
            // and `--teacher "David Okafor"` find "Mr. David Okafor"; every word of one value
            // must be a whole word of the name (`oka` finds nobody); values are alternatives.
            // The rule is `TeacherNames`' (a grant of `dashboard access` matches the same way).
            let name = Set(Self.nameWords(course.teacher))
            if !teacherWords.contains(where: { $0.allSatisfy(name.contains) }) { return false }
        }
        return true
    }

    /// A name's words, folded (case, diacritics, width): split at every character that is not
    /// a letter or a digit ("Mr. D'Arcy-Smith" → mr, d, arcy, smith): `TeacherNames.words`.
    static func nameWords(_ text: String) -> [String] {
        TeacherNames.words(text)
    }

    /// The folded course text the search also looks into, and which words it holds (computed
    /// once per course).
    package func courseText(_ course: CourseRecord) -> SearchCourseText {
        guard !words.isEmpty else { return SearchCourseText(text: "", holds: []) }
        let text = ReportPipeline.fold(course.code + " " + course.title)
        // As the whole text `title + " " + text` finds them after a title of ASCII letters.
        let spaced = " " + text
        return SearchCourseText(text: text, holds: words.map { spaced.contains($0) })
    }

    /// Every word of the search appears in the task's folded title followed by a space and the
    /// course text. ASCII words in a plain folded title (`TextFold.Folded`) are searched byte by
    /// byte (a word holds no space, so it is found in the title or in the course text, never
    /// across: `TextFoldTests` compares both ways).
    package func found(_ task: ReportTask, courseText: SearchCourseText) -> Bool {
        found(title: task.task.title, courseText: courseText)
    }

    /// `found` for a task of that title.
    package func found(title: String, courseText: SearchCourseText) -> Bool {
        guard !words.isEmpty else { return true }
        let folded = TextFold.folded(title)
        if wordsAreASCII, folded.plain {
            for (word, held) in zip(words, courseText.holds) where !held && !TextFold.asciiContains(folded.text, word) { return false }
            return true
        }
        let text = folded.text + " " + courseText.text
        return words.allSatisfy { text.contains($0) }
    }

    /// `found` for a task whose title is `title` as UTF-8 (a store's bytes, no `String` made):
    /// ASCII words in a plain fold are searched in the folded bytes (`TextFold.holdsAll`); any
    /// other title is read as `String(decoding:as:)` reads it and folded as `found` folds it.
    func found(titleBytes title: UnsafeBufferPointer<UInt8>, courseText: SearchCourseText, cache: TextFold.Cache) -> Bool {
        guard !words.isEmpty else { return true }
        if wordsAreASCII, let holds = TextFold.holdsAll(title, wordBytes, held: courseText.holds, cache: cache) { return holds }
        return found(title: String(decoding: title, as: UTF8.self), courseText: courseText)
    }

    /// The task-level filters (bucket, priority, student, completed, state, lateness, due), as
    /// of `local` in the task's course zone (`DueWindow`, `Lateness`).
    package func keeps(_ task: ReportTask, includeCompleted: Bool, at local: LocalAsOf) -> Bool {
        guard keeps(bucket: task.bucket, includeCompleted: includeCompleted) else { return false }
        if !prioritySet.isEmpty, !ReportPipeline.priority(of: task, isIn: prioritySet) { return false }
        if !statusSet.isEmpty, !statusSet.contains(task.task.state) { return false }
        if lateOnly, !ReportPipeline.handedInLate(task.task, zone: local.timeZone) { return false }
        if !studentSet.isEmpty, !studentSet.contains(task.task.studentID) { return false }
        if !due.isEmpty, !due.allows(due: task.task.due, at: local) { return false }
        return true
    }
}

extension ReportMatcher {
    /// True when the filters keep a task in `bucket` as far as its bucket can tell.
    /// Completed work is listed when asked for: `--include-completed`, `--bucket completed`,
    /// `--status completed`, or `--late` (late work is work handed in, graded or not).
    func keeps(bucket: Bucket, includeCompleted: Bool) -> Bool {
        if !(includeCompleted || bucketSet.contains(.completed) || statusSet.contains(.completed) || lateOnly), bucket == .completed {
            return false
        }
        if !bucketSet.isEmpty, !bucketSet.contains(bucket) { return false }
        return true
    }

    /// True when no filter but `--bucket` looks at a task (its bucket decides `keeps`).
    var filtersOnlyBuckets: Bool { prioritySet.isEmpty && studentSet.isEmpty && statusSet.isEmpty && !lateOnly && due.isEmpty }
}

/// What a report needs to know about one course, counted task by task: memory O(1) per
/// course whatever its number of tasks.
/// A course's folded text for a search (`ReportMatcher.courseText`), and which words of the
/// search it holds.
package struct SearchCourseText: Sendable {
    let text: String
    let holds: [Bool]
}

package struct CourseTally: Sendable, Equatable {
    package var course: CourseRecord
    /// False when `--course` or `--teacher` leaves the course out.
    package var allowed: Bool
    /// Every live task.
    package var live = 0
    /// Tasks the unnarrowed query shows (completed ones only when asked, or in a grid).
    package var baseline = 0
    /// Tasks left after search and filters, per bucket (inline: no heap storage per course).
    package var matching = BucketCounts()
    /// Whether it lists work handed in or excused (SPEC §11's places).
    package var listsStates: Bool { Bucket.added.contains { matching[$0] > 0 } }
    /// Completed tasks that match the search and filters when completed tasks are included.
    package var completedMatching = 0
    /// Live tasks holding a stored value a hand edit made invalid (shown as invalid).
    package var invalid = 0
    /// A roll-up by assignment: the assignments with a listed task (its rows).
    package var assignmentRows = 0

    package init(course: CourseRecord, allowed: Bool) {
        self.course = course
        self.allowed = allowed
    }

    package var matchingTotal: Int { matching.total }

    /// Counts one task; returns true when it matches the search and filters (it is listed).
    /// - Parameter found: the search's answer for this task when the caller already has it.
    @discardableResult
    package mutating func count(
        _ task: ReportTask, kind: Report.Kind, query: ReportQuery, matcher: ReportMatcher, courseText: SearchCourseText,
        at local: LocalAsOf, found: Bool? = nil
    ) -> Bool {
        live += 1
        if !task.task.invalid.isEmpty { invalid += 1 }
        let showCompleted = query.includeCompleted || query.buckets.contains(.completed) || kind == .grid
        if showCompleted || task.bucket != .completed { baseline += 1 }
        guard allowed, found ?? matcher.found(task, courseText: courseText) else { return false }
        if task.bucket == .completed, matcher.keeps(task, includeCompleted: true, at: local) { completedMatching += 1 }
        guard matcher.keeps(task, includeCompleted: query.includeCompleted || kind == .grid, at: local) else { return false }
        matching[task.bucket] += 1
        return true
    }

    /// Counts one found task from its bucket alone, as `count` would count it: only when
    /// `matcher.filtersOnlyBuckets` and the task's values are valid (a store that proves its
    /// stored buckets holds no invalid value). Returns true when it is listed.
    mutating func countFound(bucket: Bucket, kind: Report.Kind, query: ReportQuery, matcher: ReportMatcher) -> Bool {
        live += 1
        let showCompleted = query.includeCompleted || query.buckets.contains(.completed) || kind == .grid
        if showCompleted || bucket != .completed { baseline += 1 }
        guard allowed else { return false }
        if bucket == .completed, matcher.keeps(bucket: bucket, includeCompleted: true) { completedMatching += 1 }
        guard matcher.keeps(bucket: bucket, includeCompleted: query.includeCompleted || kind == .grid) else { return false }
        matching[bucket] += 1
        return true
    }
}
