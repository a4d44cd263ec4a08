import Foundation

/// The stages of the report pipeline, each a pure function:
/// source → search → filter → sort → group → paginate → render.
package enum ReportPipeline {
    /// Whether `task` passes a `--priority` filter of `set`: an invalid stored priority matches
    /// none (it is not the normal it sorts as). The one rule for the pipeline and the streamed
    /// reports (`ReportMatcher`).
    static func priority(of task: ReportTask, isIn set: Set<Priority>) -> Bool {
        set.contains(task.task.priority) && !task.task.invalid.contains(where: { $0.column == "priority" })
    }

    /// SPEC §11's late: a submitted or completed task handed in after its due, in the course's
    /// zone (`Lateness`: a date on either side compares local dates). Without a hand-in time, a
    /// due, or with either unreadable, it is not late.
    package static func handedInLate(_ task: TaskRecord, zone: TimeZone) -> Bool {
        guard task.state == .submitted || task.state == .completed, !task.submittedAt.isEmpty, !task.due.isEmpty else { return false }
        return Lateness.isLate(submitted: DueDate(storageText: task.submittedAt), due: DueDate(storageText: task.due), in: zone)
    }

    // MARK: - Search

    /// Folds text for matching: case, diacritics and width (`TextFold`: Foundation's folding,
    /// table-driven).
    package static func fold(_ text: String) -> String {
        TextFold.fold(text)
    }

    /// Keeps the tasks for which every word of `query` appears in the task title, the course
    /// code or the course title.
    package static func search(_ courses: [ReportCourse], _ query: String) -> [ReportCourse] {
        let words = fold(query).split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard !words.isEmpty else { return courses }
        return courses.map { course in
            let courseText = fold(course.course.code + " " + course.course.title)
            var copy = course
            copy.tasks = course.tasks.filter { task in
                let text = fold(task.task.title) + " " + courseText
                return words.allSatisfy { text.contains($0) }
            }
            return copy
        }
    }

    // MARK: - Filter

    /// Keeps what every given filter allows (values of one filter are alternatives). Courses
    /// left out by `--course` or `--teacher` disappear; others stay, possibly with no task.
    /// The due filters are decided as of `asOf` in each course's zone (`defaultTimeZone` for a
    /// course without one).
    package static func filter(_ courses: [ReportCourse], _ query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone)
        -> [ReportCourse]
    {
        let showCompleted = query.includeCompleted || query.buckets.contains(.completed)
        // Nothing to filter: the same courses (no copy of a million tasks).
        if query.courses.isEmpty, query.teachers.isEmpty, query.students.isEmpty, query.buckets.isEmpty, query.priorities.isEmpty,
            query.statuses.isEmpty, !query.late, query.due.isEmpty, showCompleted
        {
            return courses
        }
        // The same rules as the streamed reports: one `ReportMatcher` decides.
        let matcher = ReportMatcher(query)
        var zones = CourseZones(asOf: asOf, defaultTimeZone: defaultTimeZone)
        return courses.compactMap { course in
            guard matcher.allows(course.course) else { return nil }
            let local = zones.local(course.course.timezone)
            var copy = course
            copy.tasks = course.tasks.filter { matcher.keeps($0, includeCompleted: query.includeCompleted, at: local) }
            return copy
        }
    }

    // MARK: - Sort

    /// Orders every course's tasks by `sort`, with a total order (ties end on the task id).
    package static func sort(_ courses: [ReportCourse], by sort: ReportSort, defaultTimeZone: TimeZone) -> [ReportCourse] {
        courses.map { course in
            let zone = CourseZones.timeZone(named: course.course.timezone, default: defaultTimeZone)
            let keyed = course.tasks.map { (task: $0, due: sortInstant($0, zone)) }
            var copy = course
            copy.tasks = keyed.sorted { a, b in precedes(a, b, sort) }.map(\.task)
            return copy
        }
    }

    /// The instant a task sorts by where a sort says "due": its due (`dueInstant`), but in the
    /// To grade section its hand-in time (SPEC §11: oldest submission first; a submission
    /// without a time goes last, as an undated task does).
    package static func sortInstant(_ task: ReportTask, _ zone: TimeZone) -> Int64? {
        dueInstant(task.bucket == .toGrade ? task.task.submittedAt : task.task.due, zone)
    }

    /// The instant a due stands for when sorting: the end of the day for a date, the moment
    /// otherwise; nil when undated.
    static func dueInstant(_ due: String, _ zone: TimeZone) -> Int64? {
        guard !due.isEmpty, let parsed = DueDate(storageText: due) else { return nil }
        switch parsed {
        case .date(let day):
            let next = CivilDate(daysSinceEpoch: day.daysSinceEpoch + 1)
            return Int64(LocalTime.instant(date: next, hour: 0, minute: 0, second: 0, in: zone).timeIntervalSince1970) - 1
        case .local(let day, let h, let m, let s):
            return Int64(LocalTime.instant(date: day, hour: h, minute: m, second: s, in: zone).timeIntervalSince1970)
        case .instant(let seconds):
            return seconds
        }
    }

    private static func precedes(
        _ a: (task: ReportTask, due: Int64?), _ b: (task: ReportTask, due: Int64?), _ sort: ReportSort
    ) -> Bool {
        func byDue() -> Bool? {
            switch (a.due, b.due) {
            case (nil, nil): return nil
            case (nil, _): return false
            case (_, nil): return true
            case (let x?, let y?): return x == y ? nil : x < y
            }
        }
        func byPriority() -> Bool? {
            a.task.task.priority == b.task.task.priority ? nil : a.task.task.priority.rank < b.task.task.priority.rank
        }
        func byTitle() -> Bool? { NaturalOrder.compare(a.task.task.title, b.task.task.title) }
        func byStudent() -> Bool? {
            // Tasks without a student go last, like undated tasks in a due sort.
            switch (a.task.task.studentID.isEmpty, b.task.task.studentID.isEmpty) {
            case (true, false): return false
            case (false, true): return true
            default: return NaturalOrder.compare(a.task.task.studentID, b.task.task.studentID)
            }
        }
        let chain: [() -> Bool?]
        switch sort {
        case .due: chain = [byDue, byPriority, byTitle]
        case .priority: chain = [byPriority, byDue, byTitle]
        case .title: chain = [byTitle, byDue]
        case .student: chain = [byStudent, byDue, byTitle]
        }
        for step in chain {
            if let decided = step() { return decided }
        }
        return a.task.task.taskID.utf8.lexicographicallyPrecedes(b.task.task.taskID.utf8)
    }

    // MARK: - Group

    /// Courses by code in natural order, then by id: a total order.
    package static func courseOrder(_ a: CourseRecord, _ b: CourseRecord) -> Bool {
        if a.code != b.code, let decided = NaturalOrder.compare(a.code, b.code) { return decided }
        return a.courseID.utf8.lexicographicallyPrecedes(b.courseID.utf8)
    }

    /// Courses by code (then id); inside each, the tasks in bucket order (overdue, today,
    /// upcoming, undated, completed), keeping the sorted order inside a bucket.
    package static func group(_ courses: [ReportCourse]) -> [CourseGroup] {
        courses.sorted { courseOrder($0.course, $1.course) }.map { course in
            let sections = Bucket.inReportOrder.compactMap { bucket -> BucketSection? in
                let tasks = course.tasks.filter { $0.bucket == bucket }
                return tasks.isEmpty ? nil : BucketSection(bucket: bucket, tasks: tasks)
            }
            return CourseGroup(course: course.course, sections: sections, liveTasks: course.tasks.count)
        }
    }

    // MARK: - Paginate

    /// One page of tasks (for a list) in the grouped order, regrouped; the page numbers and
    /// totals say what the whole result holds.
    package static func paginateTasks(_ groups: [CourseGroup], limit: Int?, page: Int) -> (groups: [CourseGroup], page: PageInfo) {
        let total = groups.reduce(0) { $0 + $1.taskCount }
        guard let limit, limit > 0 else {
            return (
                groups.filter { $0.taskCount > 0 },
                PageInfo(page: 1, pageCount: 1, limit: nil, totalItems: total, firstItem: total == 0 ? 0 : 1, lastItem: total)
            )
        }
        let (pageCount, first) = pageBounds(total: total, limit: limit, page: page)
        let last = min(total, first + min(limit, total))
        var index = 0
        var result: [CourseGroup] = []
        for group in groups {
            var sections: [BucketSection] = []
            for section in group.sections {
                var kept: [ReportTask] = []
                var start = 1
                for (place, task) in section.tasks.enumerated() {
                    if index >= first && index < last {
                        if kept.isEmpty { start = place + 1 }
                        kept.append(task)
                    }
                    index += 1
                }
                if !kept.isEmpty {
                    sections.append(BucketSection(bucket: section.bucket, tasks: kept, total: section.tasks.count, first: start))
                }
            }
            if !sections.isEmpty { result.append(CourseGroup(course: group.course, sections: sections, liveTasks: group.liveTasks)) }
        }
        let info = PageInfo(
            page: page, pageCount: pageCount, limit: limit, totalItems: total, firstItem: first < total ? first + 1 : 0,
            lastItem: first < total ? last : 0)
        return (result, info)
    }

    /// The page count and the index of the page's first item, for any `limit` ≥ 1 and any
    /// `page`: a page past the end starts at `total` (an empty page), never at an index
    /// whose computation overflows (`(page - 1) * limit` is clamped, not trapped).
    static func pageBounds(total: Int, limit: Int, page: Int) -> (pageCount: Int, first: Int) {
        let pageCount = max(1, total / limit + (total % limit == 0 ? 0 : 1))
        let (offset, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: limit)
        return (pageCount, overflow ? total : min(offset, total))
    }

    /// One page of courses (for a grid).
    package static func paginateCourses(_ cards: [CourseCard], limit: Int?, page: Int) -> (cards: [CourseCard], page: PageInfo) {
        let total = cards.count
        guard let limit, limit > 0 else {
            return (cards, PageInfo(page: 1, pageCount: 1, limit: nil, totalItems: total, firstItem: total == 0 ? 0 : 1, lastItem: total))
        }
        let (pageCount, first) = pageBounds(total: total, limit: limit, page: page)
        let slice = first < total ? Array(cards[first..<min(total, first + min(limit, total))]) : []
        return (
            slice,
            PageInfo(
                page: page, pageCount: pageCount, limit: limit, totalItems: total, firstItem: slice.isEmpty ? 0 : first + 1,
                lastItem: slice.isEmpty ? 0 : first + slice.count)
        )
    }
}

extension TaskRecord {
    /// SPEC §11's late: submitted or completed, handed in after its due, both read in
    /// `timeZone` (the course's zone; a date on either side compares local dates). False
    /// without a hand-in time or a due. What the reports' `submitted_late` and `--late` say.
    public func handedInLate(in timeZone: TimeZone) -> Bool { ReportPipeline.handedInLate(self, zone: timeZone) }
}
