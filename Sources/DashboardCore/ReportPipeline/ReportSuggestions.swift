import Foundation

/// A `--course`, `--teacher` or `--student` value that matches nothing in the database, and
/// the nearest values that do (what the user may have meant).
package struct UnmatchedValue: Sendable, Equatable {
    /// `.course`, `.teacher` or `.student`.
    package var filter: ReportFilter
    /// The value as given.
    package var value: String
    /// Existing values to try instead, nearest first (at most `ReportSuggestions.limit`):
    /// course ids or codes, teachers' names, student ids.
    package var nearest: [String]

    package init(filter: ReportFilter, value: String, nearest: [String]) {
        self.filter = filter
        self.value = value
        self.nearest = nearest
    }
}

/// Which filter values of a report that shows nothing match nothing at all, and the nearest
/// existing ones (issue 14: "a filter value that matches no course, teacher or student says so
/// in the filtered-empty state and suggests the nearest"). Pure: the candidates are offered one
/// at a time (a store streams them), and only the best few are kept per value.
///
/// Policy:
/// - a `--course` value matches when a live course has it as its id or code; a `--teacher`
///   value when a live course's teacher has its words (`ReportMatcher`'s rule); a `--student`
///   value when a live task has it as its student id. Other filters do not count: the value
///   names something that is not there at all;
/// - only the report's own set of courses is looked at (a teacher's folder never suggests
///   another teacher's course);
/// - nearness compares the values folded (case, accents, width) with everything but letters and
///   digits left out (`MAT201` is near `MAT 210`; a teacher's name by its whole and by each of
///   its words: `okafr` is near "Mr. David Okafor"; a course by its code or its id, whichever is
///   nearer, one suggestion per course): a candidate that contains the value (or is
///   contained in it, for values of two characters or more) comes first, by length; then any
///   within an edit distance (insertions, deletions, substitutions, swaps of two neighbours) of
///   a third of the value's length, at least 2; ties in natural order. At most `limit`.
package struct ReportSuggestions: Sendable {
    /// The most suggestions per value.
    package static let limit = 3

    struct Pending: Sendable {
        var filter: ReportFilter
        var value: String
        var key: String
        var matched = false
        /// (rank, candidate); rank: 0 for containment (then length), else 1000 + distance.
        var best: [(rank: Int, text: String)] = []
    }

    private var pending: [Pending] = []
    private let courseSet: Set<String>?

    /// The values of `query`'s course, teacher and student filters, each to be matched.
    package init(_ query: ReportQuery) {
        courseSet = query.courseSet
        for value in query.courses { pending.append(Pending(filter: .course, value: value, key: Self.key(value))) }
        for value in query.teachers { pending.append(Pending(filter: .teacher, value: value, key: Self.key(value))) }
        for value in query.students { pending.append(Pending(filter: .student, value: value, key: Self.key(value))) }
    }

    /// True when a student value needs the tasks to be read (courses are read anyway).
    package var needsTasks: Bool { pending.contains { $0.filter == .student } }

    /// Offers one live course (its id, code and teacher).
    package mutating func offer(_ course: CourseRecord) {
        if let courseSet, !courseSet.contains(course.courseID) { return }
        for index in pending.indices {
            switch pending[index].filter {
            case .course:
                if course.courseID == pending[index].value || course.code == pending[index].value {
                    pending[index].matched = true
                } else {
                    // One suggestion per course: its code or its id, whichever is nearer.
                    let value = pending[index].key
                    let (code, id) = (
                        Self.rank(of: Self.key(course.code), for: value), Self.rank(of: Self.key(course.courseID), for: value)
                    )
                    if let code, code <= (id ?? Int.max) {
                        consider(course.code, rank: code, at: index)
                    } else if let id {
                        consider(course.courseID, rank: id, at: index)
                    }
                }
            case .teacher:
                guard !course.teacher.isEmpty else { continue }
                let name = Set(ReportMatcher.nameWords(course.teacher))
                let words = ReportMatcher.nameWords(pending[index].value)
                if !words.isEmpty, words.allSatisfy(name.contains) {
                    pending[index].matched = true
                } else {
                    // Near the whole name or one of its words ("okafr" is near "Mr. David Okafor").
                    let value = pending[index].key
                    let ranks = ([course.teacher] + ReportMatcher.nameWords(course.teacher)).compactMap {
                        Self.rank(of: Self.key($0), for: value)
                    }
                    if let best = ranks.min() { consider(course.teacher, rank: best, at: index) }
                }
            default:
                continue
            }
        }
    }

    /// Offers one live task's student id, of a course of the report's set.
    package mutating func offer(student: String, courseID: String) {
        guard !student.isEmpty else { return }
        if let courseSet, !courseSet.contains(courseID) { return }
        for index in pending.indices where pending[index].filter == .student {
            if student == pending[index].value {
                pending[index].matched = true
            } else if let rank = Self.rank(of: Self.key(student), for: pending[index].key) {
                consider(student, rank: rank, at: index)
            }
        }
    }

    /// The values that matched nothing, in the order given, with their nearest candidates.
    package var unmatched: [UnmatchedValue] {
        pending.filter { !$0.matched }.map { UnmatchedValue(filter: $0.filter, value: $0.value, nearest: $0.best.map(\.text)) }
    }

    private mutating func consider(_ candidate: String, rank: Int, at index: Int) {
        guard !pending[index].matched, !pending[index].best.contains(where: { $0.text == candidate }) else { return }
        var best = pending[index].best
        best.append((rank, candidate))
        best.sort { $0.rank != $1.rank ? $0.rank < $1.rank : (NaturalOrder.compare($0.text, $1.text) ?? false) }
        pending[index].best = Array(best.prefix(Self.limit))
    }

    /// The folded letters and digits of a value.
    static func key(_ text: String) -> String {
        String(ReportPipeline.fold(text).unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    /// How near `candidate` is to `value` (both keys), lower is nearer; nil when not near.
    static func rank(of candidate: String, for value: String) -> Int? {
        guard !value.isEmpty, !candidate.isEmpty else { return nil }
        if value.count >= 2, candidate.contains(value) || value.contains(candidate) {
            return abs(candidate.count - value.count)
        }
        let allowed = max(2, value.count / 3)
        guard abs(candidate.count - value.count) <= allowed else { return nil }
        let distance = editDistance(Array(candidate), Array(value), limit: allowed)
        return distance.map { 1_000 + $0 }
    }

    /// The optimal string alignment distance of `a` and `b`, or nil when it exceeds `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int? {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) <= limit ? max(a.count, b.count) : nil }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var smallest = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, before[j - 2] + 1) }
                current[j] = value
                smallest = min(smallest, value)
            }
            if smallest > limit { return nil }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}

extension ReportSuggestions {
    /// The unmatched values of `query` over the loaded data (the pipeline's source).
    package static func unmatched(in courses: [ReportCourse], query: ReportQuery) -> [UnmatchedValue] {
        var finder = ReportSuggestions(query)
        for course in courses {
            finder.offer(course.course)
            if finder.needsTasks {
                for task in course.tasks { finder.offer(student: task.task.studentID, courseID: course.course.courseID) }
            }
        }
        return finder.unmatched
    }

    /// The unmatched values of `query` read from the store: every live course, and every live
    /// task's student when a `--student` value is given (one scan). Call inside the report's
    /// `read`, only for a report that shows nothing (it reads what the report did not).
    package static func unmatched(_ reader: any ReportReading, query: ReportQuery) throws -> [UnmatchedValue] {
        var finder = ReportSuggestions(query)
        guard !query.courses.isEmpty || !query.teachers.isEmpty || !query.students.isEmpty else { return [] }
        guard finder.needsTasks else {
            for course in try reader.liveCourses(only: []) { finder.offer(course) }
            return finder.unmatched
        }
        var courseID = ""
        try reader.forEachLiveCourse(only: [], countsOnly: false) { course in
            finder.offer(course)
            courseID = course.courseID
        } task: { live in
            finder.offer(student: live.task.studentID, courseID: courseID)
        }
        return finder.unmatched
    }
}
