import Foundation

/// Runs the report pipeline on loaded data: source → search → filter → sort → group →
/// paginate, and works out the report's state. Pure: the same inputs give the same report.
package enum ReportBuilder {
    package static func build(
        _ kind: Report.Kind, courses source: [ReportCourse], facts: ReportFacts, query: ReportQuery, asOf: Date,
        defaultTimeZone: TimeZone
    ) -> Report {
        let totalTasks = source.reduce(0) { $0 + $1.tasks.count }
        var report = Report(
            kind: kind, asOf: asOf, defaultTimeZone: defaultTimeZone, query: query, state: .ok,
            stale: facts.staleNotice(asOf: asOf), cards: [], groups: [],
            page: PageInfo(page: 1, pageCount: 1, limit: query.limit, totalItems: 0, firstItem: 0, lastItem: 0),
            totalTasks: totalTasks, matchingTasks: 0, hiddenTasks: 0)
        report.overnight = facts.overnight
        guard facts.hasData else {
            report.state = .noData
            return report
        }
        if let role = facts.roleWithoutCourses {
            report.state = .noCourses
            report.roleWithoutCourses = role
            return report
        }
        var unnarrowed = ReportQuery()
        unnarrowed.includeCompleted = query.includeCompleted || query.buckets.contains(.completed) || kind == .grid
        let baseline = ReportPipeline.filter(source, unnarrowed, asOf: asOf, defaultTimeZone: defaultTimeZone).reduce(0) {
            $0 + $1.tasks.count
        }

        var effective = query
        if kind == .grid { effective.includeCompleted = true }
        let searched = ReportPipeline.search(source, query.search)
        let filtered = ReportPipeline.filter(searched, effective, asOf: asOf, defaultTimeZone: defaultTimeZone)
        let matching = filtered.reduce(0) { $0 + $1.tasks.count }
        report.matchingTasks = matching
        report.hiddenTasks = max(0, baseline - matching)
        // The reader's scope: the courses `--course` and `--teacher` keep, and their baseline.
        var scope = unnarrowed
        scope.courses = query.courses
        scope.teachers = query.teachers
        let scoped = ReportPipeline.filter(source, scope, asOf: asOf, defaultTimeZone: defaultTimeZone)
        report.scopeCourses = scoped.count
        report.scopeTasks = scoped.reduce(0) { $0 + $1.tasks.count }
        if query.narrows, matching == 0 {
            report.state = .noMatch
            report.unmatched = ReportSuggestions.unmatched(in: source, query: query)
        }

        let liveByCourse = Dictionary(source.map { ($0.course.courseID, $0.tasks.count) }, uniquingKeysWith: { a, _ in a })
        var withCompleted = query
        withCompleted.includeCompleted = true
        for course in ReportPipeline.filter(searched, withCompleted, asOf: asOf, defaultTimeZone: defaultTimeZone) {
            let completed = course.tasks.reduce(0) { $0 + ($1.bucket == .completed ? 1 : 0) }
            if completed > 0 { report.completedByCourse[course.course.courseID] = completed }
        }
        report.completedMatchingTasks = report.completedByCourse.values.reduce(0, +)
        switch kind {
        case .grid:
            // A card needs the counts per bucket only (what `group` would give, without
            // regrouping every task).
            let cards = filtered.map { course -> CourseCard in
                var counts = BucketCounts()
                for task in course.tasks { counts[task.bucket] += 1 }
                let card = CourseCard(course: course.course, counts: counts, total: liveByCourse[course.course.courseID] ?? 0)
                return report.overnight?.card(card, asOf: report.asOf, zone: query.displayTimeZone) ?? card
            }.filter { !query.narrows || $0.shown > 0 }.sorted { ReportPipeline.cardOrder($0, $1, by: query.courseSort) }
            report.gridTotals = GridTotals(cards)
            let paged = ReportPipeline.paginateCourses(cards, limit: query.limit, page: query.page)
            report.cards = paged.cards
            report.page = paged.page
        case .list where query.groupBy == .assignment:
            rollUpByAssignment(&report, source: source, filtered: filtered, liveByCourse: liveByCourse)
        case .list where query.groupBy == .student:
            let students = ReportPipeline.groupByStudent(filtered, sort: query.sort, defaultTimeZone: defaultTimeZone)
            let paged = ReportPipeline.paginateStudents(students, limit: query.limit, page: query.page)
            report.students = paged.groups
            report.page = paged.page
            report.completedByCourse = [:]
        case .list:
            let sorted = ReportPipeline.sort(filtered, by: query.sort, defaultTimeZone: defaultTimeZone)
            // Each course keeps the count of all its live tasks, whatever the filters hide.
            let grouped = ReportPipeline.group(sorted).map { group -> CourseGroup in
                var copy = group
                copy.liveTasks = liveByCourse[group.course.courseID] ?? group.liveTasks
                return copy
            }
            let paged = ReportPipeline.paginateTasks(grouped, limit: query.limit, page: query.page)
            var groups = paged.groups
            // Courses with nothing to list still appear (with their own words) when nothing
            // narrows the report, on its first page.
            if !query.narrows, paged.page.page == 1 {
                let shown = Set(groups.map(\.course.courseID))
                groups += grouped.filter { !shown.contains($0.course.courseID) && $0.taskCount == 0 }
                groups.sort { ReportPipeline.courseOrder($0.course, $1.course) }
            }
            report.groups = groups
            report.page = paged.page
            // A list's per-course counts keep the courses it shows (the only ones rendered).
            let shown = Set(groups.map(\.course.courseID))
            report.completedByCourse = report.completedByCourse.filter { shown.contains($0.key) }
        }
        return report
    }
}

extension ReportBuilder {
    /// The list as a roll-up by assignment: each course of `filtered` (in course order) with
    /// its rows (`AssignmentRollUp`, from every live task of `source` and the listed ones),
    /// paged by rows; courses with no row appear (with their own words) on page 1 when nothing
    /// narrows the report, as in a list by bucket.
    static func rollUpByAssignment(
        _ report: inout Report, source: [ReportCourse], filtered: [ReportCourse], liveByCourse: [String: Int]
    ) {
        let query = report.query
        let all = Dictionary(source.map { ($0.course.courseID, $0.tasks) }, uniquingKeysWith: { a, _ in a })
        var zones = CourseZones(asOf: report.asOf, defaultTimeZone: report.defaultTimeZone)
        let groups = filtered.sorted { ReportPipeline.courseOrder($0.course, $1.course) }.map { course -> CourseGroup in
            var group = CourseGroup(course: course.course, sections: [], liveTasks: liveByCourse[course.course.courseID] ?? 0)
            group.assignments = AssignmentRollUp.rows(
                all: all[course.course.courseID] ?? [], listed: course.tasks, local: zones.local(course.course.timezone),
                sort: query.sort)
            group.assignmentTotal = group.assignments.count
            return group
        }
        let paged = ReportPipeline.paginateAssignments(groups, limit: query.limit, page: query.page)
        var shown = paged.groups
        if !query.narrows, paged.page.page == 1 {
            let listed = Set(shown.map(\.course.courseID))
            shown += groups.filter { !listed.contains($0.course.courseID) && $0.assignmentTotal == 0 }
            shown.sort { ReportPipeline.courseOrder($0.course, $1.course) }
        }
        report.groups = shown
        report.page = paged.page
        let ids = Set(shown.map(\.course.courseID))
        report.completedByCourse = report.completedByCourse.filter { ids.contains($0.key) }
    }
}

extension ReportSource {
    /// What reports need to know about the batches: whether any data was imported, the time
    /// of the data, whether the last import failed, and whether a held batch waits.
    ///
    /// Policy: the data is that of the newest batch that committed data (committed, or
    /// reverted since); the last import is the newest batch that ran (not a dry run, a held
    /// batch, or a decision on one).
    package static func facts(_ batches: any BatchReading) throws -> ReportFacts {
        let committed = try batches.newestBatch(statusIn: [.committed, .reverted])
        let last = try batches.newestBatch(statusIn: Set(BatchStatus.allCases).subtracting([.dryRun, .held, .discarded, .approved]))
        var failure: (Int, String, String)?
        if let last, last.status == .failed {
            failure = (last.id, last.finishedAt.isEmpty ? last.startedAt : last.finishedAt, last.reason)
        }
        let dataAsOf = committed.flatMap { Timestamp.parse($0.asOf, timeZone: TimeZone(identifier: "UTC") ?? .current) }
        // A held batch waits for approval only while no batch committed after it (approval is
        // refused then: its files are older than the data).
        var held: HeldNotice?
        if let waiting = try batches.newestBatch(statusIn: [.held]), waiting.id > (committed?.id ?? 0) {
            let total = waiting.total
            held = HeldNotice(
                batch: waiting.id, since: waiting.asOf,
                changes: total.inserted + total.updated + total.deleted)
        }
        return ReportFacts(hasData: committed != nil, dataAsOf: dataAsOf, lastFailure: failure, held: held)
    }
}
