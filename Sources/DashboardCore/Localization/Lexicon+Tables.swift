// The words of the reports, one table per language (issue 29; `Lexicon`). Each phrase's English
// text is what the reports wrote before languages, byte for byte.

/// Every phrase of a teacher's page (`Lexicon`).
package enum Phrase: String, CaseIterable, Sendable {
    case asOfHeader
    case footerReader
    case footerAdmin
    case allCourses
    case breadcrumb
    case courses
    case coursesOf
    case titleAsOf
    case courseTitle
    case titleOverdue
    case titleToday
    case titleUpcoming
    case titleUndated
    case titleCompleted
    case wordOverdue
    case wordToday
    case wordUpcoming
    case wordUndated
    case wordCompleted
    case countOverdue
    case countToday
    case countUpcoming
    case countUndated
    case countCompleted
    case needsAttention
    case noTasksYet
    case tasksByStatus
    case completedOf
    case matchingCompleted
    case bucketsOfTasks
    case coursesCount
    case needAttention
    case noneNeedsAttention
    case totals
    case totalsFiltered
    case listSeparator
    case teacherIs
    case termIs
    case timesIn
    case completedNotListed
    case allCompleted
    case noTasksForCourse
    case sectionCaption
    case tasksCount
    case colID
    case colTitle
    case colStudent
    case colDue
    case colPriority
    case colStatus
    case colAssignment
    case colStudents
    case colTeacher
    case colCourses
    case none
    case priorityHigh
    case priorityNormal
    case priorityLow
    case priorityInvalid
    case lateToday
    case daysLate
    case monthsAgo
    case yearsAgo
    case lateAndAgo
    case setByHand
    case pinned
    case setByHandUntil
    case withReason
    case assignmentsHeading
    case assignmentsCaption
    case tasksByAssignment
    case tasksByAssignmentContinued
    case tasksOfStudents
    case dueOn
    case statusSeparator
    case xOfY
    case withLate
    case pageOf
    case pagesLabel
    case pagesLabelEnd
    case tasksRange
    case coursePageTitle
    case needsYou
    case needsYouIntro
    case needsYouMore
    case itemName
    case teachers
    case teachersCaption
    case sinceToday
    case sinceYesterday
    case sinceDate
    case sinceFirst
    case changeNew
    case changeNowOverdue
    case changeCompleted
    case changePinned
    case changeUnpinned
    case changeDeleted
    case noChange
    case changesLine
    case firstImport
    case caveatFailed
    case caveatHeld
    case caveatNoExport
    case sentence
    case jsSearch
    case jsStatus
    case jsDue
    case jsAny
    case jsWeek
    case jsNext7
    case jsOverdueOnly
    case jsStudent
    case jsAllStudents
    case jsAssignment
    case jsAllAssignments
    case jsClear
    case jsFilters
    case jsFilterCourses
    case jsAttention
    case jsOf
    case jsTasksShown
    case jsTasksAll
    case jsCoursesShown
    case jsCoursesAll
    case jsPageShown
    case jsPageAll
    case note
    case detailsForAdmin
    case noExportTonight
    case heldChanges
    case lastImportFailed
    case noDataYet
    case pageShowsDataAsOf
    case hoursOld
    case daysOld
    case clauseSeparator
    case administratorHasDetails
}

extension Lexicon {
    /// English.
    static let englishTable: [Phrase: Entry] = [
        .asOfHeader: .text("As of {0}"),
        .footerReader: .text("This page was made as of {0}. A pin or another change made today shows on the next night's page."),
        .footerAdmin: .text("Made by dashboard as of {0}. A change made after that, such as a pin, shows when the reports are made again."),
        .allCourses: .text("All courses"),
        .breadcrumb: .text("Breadcrumb"),
        .courses: .text("Courses"),
        .coursesOf: .text("Courses of {0}"),
        .titleAsOf: .text("{0} as of {1}"),
        .courseTitle: .text("{0} — {1}"),
        .titleOverdue: .text("Overdue"),
        .titleToday: .text("Due today"),
        .titleUpcoming: .text("Upcoming"),
        .titleUndated: .text("No due date"),
        .titleCompleted: .text("Completed"),
        .wordOverdue: .text("overdue"),
        .wordToday: .text("due today"),
        .wordUpcoming: .text("upcoming"),
        .wordUndated: .text("no due date"),
        .wordCompleted: .text("completed"),
        .countOverdue: .counted([.one: "{n} overdue", .other: "{n} overdue"]),
        .countToday: .counted([.one: "{n} due today", .other: "{n} due today"]),
        .countUpcoming: .counted([.one: "{n} upcoming", .other: "{n} upcoming"]),
        .countUndated: .counted([.one: "{n} no due date", .other: "{n} no due date"]),
        .countCompleted: .counted([.one: "{n} completed", .other: "{n} completed"]),
        .needsAttention: .text("Needs attention:"),
        .noTasksYet: .text("No tasks yet."),
        .tasksByStatus: .text("Tasks of {0} by status"),
        .completedOf: .counted([.one: "{0} of {n} completed", .other: "{0} of {n} completed"]),
        .matchingCompleted: .counted([
            .one: "{0} of {1} matching completed ({n} in all)", .other: "{0} of {1} matching completed ({n} in all)",
        ]),
        .bucketsOfTasks: .counted([.one: "{0} of {n} task", .other: "{0} of {n} tasks"]),
        .coursesCount: .counted([.one: "{n} course", .other: "{n} courses"]),
        .needAttention: .counted([.one: "{n} needs attention", .other: "{n} need attention"]),
        .noneNeedsAttention: .text("none needs attention"),
        .totals: .text("{0}, {1}: {2}; {3}"),
        .totalsFiltered: .text("{0}, {1}: {2}"),
        .listSeparator: .text(", "),
        .teacherIs: .text("Teacher: {0}"),
        .termIs: .text("Term: {0}"),
        .timesIn: .text("Times in {0}"),
        .completedNotListed: .counted([.one: "{n} completed task is not listed.", .other: "{n} completed tasks are not listed."]),
        .allCompleted: .counted([.one: "All {n} task is completed.", .other: "All {n} tasks are completed."]),
        .noTasksForCourse: .text("No tasks yet for this course."),
        .sectionCaption: .text("{0}: {1}, {2}"),
        .tasksCount: .counted([.one: "{n} task", .other: "{n} tasks"]),
        .colID: .text("ID"),
        .colTitle: .text("Title"),
        .colStudent: .text("Student"),
        .colDue: .text("Due"),
        .colPriority: .text("Priority"),
        .colStatus: .text("Status"),
        .colAssignment: .text("Assignment"),
        .colStudents: .text("Students"),
        .colTeacher: .text("Teacher"),
        .colCourses: .text("Courses"),
        .none: .text("none"),
        .priorityHigh: .text("high"),
        .priorityNormal: .text("normal"),
        .priorityLow: .text("low"),
        .priorityInvalid: .text("invalid"),
        .lateToday: .text("late today"),
        .daysLate: .counted([.one: "{n} day late", .other: "{n} days late"]),
        .monthsAgo: .counted([.one: "due {n} month ago", .other: "due {n} months ago"]),
        .yearsAgo: .counted([.one: "due {n} year ago", .other: "due {n} years ago"]),
        .lateAndAgo: .text("{0}, {1}"),
        .setByHand: .text("set by hand"),
        .pinned: .text("{0} (set by hand)"),
        .setByHandUntil: .text("set by hand until {0}"),
        .withReason: .text("{0}: {1}"),
        .assignmentsHeading: .counted([.one: "Assignments ({n})", .other: "Assignments ({n})"]),
        .assignmentsCaption: .text("{0}: assignments"),
        .tasksByAssignment: .text("Tasks by assignment"),
        .tasksByAssignmentContinued: .text("Tasks by assignment, continued"),
        .tasksOfStudents: .text("Tasks of its students"),
        .dueOn: .text("due {0}"),
        .statusSeparator: .text(" · "),
        .xOfY: .text("{0} of {1} {2}"),
        .withLate: .text("{0} ({1})"),
        .pageOf: .text("Page {0} of {1}:"),
        .pagesLabel: .text("Pages of this course"),
        .pagesLabelEnd: .text("Pages of this course, at its end"),
        .tasksRange: .text("tasks {0}–{1} of {2}"),
        .coursePageTitle: .text("{0} (page {1} of {2})"),
        .needsYou: .text("Needs you today"),
        .needsYouIntro: .text("Assignments with tasks overdue or due today, the most overdue first."),
        .needsYouMore: .counted([
            .one: "And {n} more assignment on the courses' pages.", .other: "And {n} more assignments on the courses' pages.",
        ]),
        .itemName: .text("{0}: {1}"),
        .teachers: .text("Teachers"),
        .teachersCaption: .text("Teachers and their report folders"),
        .sinceToday: .text("since today"),
        .sinceYesterday: .text("since yesterday"),
        .sinceDate: .text("since {0}"),
        .sinceFirst: .text("since the first import"),
        .changeNew: .counted([.one: "{n} new", .other: "{n} new"]),
        .changeNowOverdue: .counted([.one: "{n} now overdue", .other: "{n} now overdue"]),
        .changeCompleted: .counted([.one: "{n} completed", .other: "{n} completed"]),
        .changePinned: .counted([.one: "{n} pinned by hand", .other: "{n} pinned by hand"]),
        .changeUnpinned: .counted([.one: "{n} unpinned by hand", .other: "{n} unpinned by hand"]),
        .changeDeleted: .counted([.one: "{n} deleted", .other: "{n} deleted"]),
        .noChange: .text("no change"),
        .changesLine: .text("{0}: {1}"),
        .firstImport: .text("First import: nothing to compare with yet."),
        .caveatFailed: .text("the newest import failed: nothing was imported since"),
        .caveatHeld: .text("the newest import is held for approval: its changes are not shown yet"),
        .caveatNoExport: .text("no export arrived: nothing was imported since"),
        .sentence: .text("{0}."),
        .jsSearch: .text("Search titles"),
        .jsStatus: .text("Status"),
        .jsDue: .text("Due"),
        .jsAny: .text("Any time"),
        .jsWeek: .text("This week"),
        .jsNext7: .text("Next 7 days"),
        .jsOverdueOnly: .text("Overdue only"),
        .jsStudent: .text("Student"),
        .jsAllStudents: .text("All students"),
        .jsAssignment: .text("Assignment"),
        .jsAllAssignments: .text("All assignments"),
        .jsClear: .text("Clear filters"),
        .jsFilters: .text("Filter the tasks"),
        .jsFilterCourses: .text("Filter the courses"),
        .jsAttention: .text("Needs attention only"),
        .jsOf: .text("{0} of {1}"),
        .jsTasksShown: .counted([.one: "Showing {0} of {n} task", .other: "Showing {0} of {n} tasks"]),
        .jsTasksAll: .counted([.one: "Showing the {n} task", .other: "Showing all {n} tasks"]),
        .jsCoursesShown: .counted([.one: "Showing {0} of {n} course", .other: "Showing {0} of {n} courses"]),
        .jsCoursesAll: .counted([.one: "Showing the {n} course", .other: "Showing all {n} courses"]),
        .jsPageShown: .counted([.one: "Showing {0} of the {n} tasks on this page", .other: "Showing {0} of the {n} tasks on this page"]),
        .jsPageAll: .counted([.one: "Showing the {n} task on this page", .other: "Showing all {n} tasks on this page"]),
        .note: .text("Note:"),
        .detailsForAdmin: .text("Details for the administrator"),
        .noExportTonight: .text("no export arrived tonight"),
        .heldChanges: .counted([
            .one: "{n} change from a newer export wait for approval since {0}",
            .other: "{n} changes from a newer export wait for approval since {0}",
        ]),
        .lastImportFailed: .text("the last import failed"),
        .noDataYet: .text("no data has been imported yet"),
        .pageShowsDataAsOf: .text("this page shows data as of {0} ({1})"),
        .hoursOld: .counted([.one: "{n} hour old", .other: "{n} hours old"]),
        .daysOld: .counted([.one: "{n} day old", .other: "{n} days old"]),
        .clauseSeparator: .text("; "),
        .administratorHasDetails: .text("Your administrator has the details."),
    ]

    /// German.
    static let germanTable: [Phrase: Entry] = [
        .asOfHeader: .text("Stand: {0}"),
        .footerReader: .text(
            "Diese Seite wurde mit Stand {0} erstellt. Eine heute gesetzte Fixierung oder andere Änderung erscheint auf der Seite der nächsten Nacht."
        ),
        .footerAdmin: .text(
            "Erstellt von dashboard mit Stand {0}. Eine spätere Änderung, etwa eine Fixierung, erscheint, wenn die Berichte neu erstellt werden."
        ),
        .allCourses: .text("Alle Kurse"),
        .breadcrumb: .text("Brotkrümelnavigation"),
        .courses: .text("Kurse"),
        .coursesOf: .text("Kurse von {0}"),
        .titleAsOf: .text("{0}, Stand {1}"),
        .courseTitle: .text("{0} — {1}"),
        .titleOverdue: .text("Überfällig"),
        .titleToday: .text("Heute fällig"),
        .titleUpcoming: .text("Demnächst"),
        .titleUndated: .text("Ohne Frist"),
        .titleCompleted: .text("Erledigt"),
        .wordOverdue: .text("überfällig"),
        .wordToday: .text("heute fällig"),
        .wordUpcoming: .text("demnächst"),
        .wordUndated: .text("ohne Frist"),
        .wordCompleted: .text("erledigt"),
        .countOverdue: .counted([.one: "{n} Aufgabe überfällig", .other: "{n} Aufgaben überfällig"]),
        .countToday: .counted([.one: "{n} Aufgabe heute fällig", .other: "{n} Aufgaben heute fällig"]),
        .countUpcoming: .counted([.one: "{n} Aufgabe demnächst", .other: "{n} Aufgaben demnächst"]),
        .countUndated: .counted([.one: "{n} Aufgabe ohne Frist", .other: "{n} Aufgaben ohne Frist"]),
        .countCompleted: .counted([.one: "{n} Aufgabe erledigt", .other: "{n} Aufgaben erledigt"]),
        .needsAttention: .text("Handlungsbedarf:"),
        .noTasksYet: .text("Noch keine Aufgaben."),
        .tasksByStatus: .text("Aufgaben von {0} nach Status"),
        .completedOf: .counted([.one: "{0} von {n} erledigt", .other: "{0} von {n} erledigt"]),
        .matchingCompleted: .counted([
            .one: "{0} von {1} passenden erledigt ({n} insgesamt)", .other: "{0} von {1} passenden erledigt ({n} insgesamt)",
        ]),
        .bucketsOfTasks: .counted([.one: "{0} von {n} Aufgabe", .other: "{0} von {n} Aufgaben"]),
        .coursesCount: .counted([.one: "{n} Kurs", .other: "{n} Kurse"]),
        .needAttention: .counted([.one: "{n} mit Handlungsbedarf", .other: "{n} mit Handlungsbedarf"]),
        .noneNeedsAttention: .text("keiner mit Handlungsbedarf"),
        .totals: .text("{0}, {1}: {2}; {3}"),
        .totalsFiltered: .text("{0}, {1}: {2}"),
        .listSeparator: .text(", "),
        .teacherIs: .text("Lehrkraft: {0}"),
        .termIs: .text("Halbjahr: {0}"),
        .timesIn: .text("Zeiten in {0}"),
        .completedNotListed: .counted([
            .one: "{n} erledigte Aufgabe ist nicht aufgeführt.", .other: "{n} erledigte Aufgaben sind nicht aufgeführt.",
        ]),
        .allCompleted: .counted([.one: "Die {n} Aufgabe ist erledigt.", .other: "Alle {n} Aufgaben sind erledigt."]),
        .noTasksForCourse: .text("Für diesen Kurs gibt es noch keine Aufgaben."),
        .sectionCaption: .text("{0}: {1}, {2}"),
        .tasksCount: .counted([.one: "{n} Aufgabe", .other: "{n} Aufgaben"]),
        .colID: .text("ID"),
        .colTitle: .text("Titel"),
        .colStudent: .text("Schüler·in"),
        .colDue: .text("Frist"),
        .colPriority: .text("Priorität"),
        .colStatus: .text("Status"),
        .colAssignment: .text("Arbeitsauftrag"),
        .colStudents: .text("Schüler·innen"),
        .colTeacher: .text("Lehrkraft"),
        .colCourses: .text("Kurse"),
        .none: .text("keine"),
        .priorityHigh: .text("hoch"),
        .priorityNormal: .text("normal"),
        .priorityLow: .text("niedrig"),
        .priorityInvalid: .text("ungültig"),
        .lateToday: .text("seit heute verspätet"),
        .daysLate: .counted([.one: "{n} Tag verspätet", .other: "{n} Tage verspätet"]),
        .monthsAgo: .counted([.one: "fällig vor {n} Monat", .other: "fällig vor {n} Monaten"]),
        .yearsAgo: .counted([.one: "fällig vor {n} Jahr", .other: "fällig vor {n} Jahren"]),
        .lateAndAgo: .text("{0}, {1}"),
        .setByHand: .text("von Hand gesetzt"),
        .pinned: .text("{0} (von Hand gesetzt)"),
        .setByHandUntil: .text("von Hand gesetzt bis {0}"),
        .withReason: .text("{0}: {1}"),
        .assignmentsHeading: .counted([.one: "Arbeitsaufträge ({n})", .other: "Arbeitsaufträge ({n})"]),
        .assignmentsCaption: .text("{0}: Arbeitsaufträge"),
        .tasksByAssignment: .text("Aufgaben nach Arbeitsauftrag"),
        .tasksByAssignmentContinued: .text("Aufgaben nach Arbeitsauftrag, Fortsetzung"),
        .tasksOfStudents: .text("Aufgaben der Schüler·innen"),
        .dueOn: .text("fällig {0}"),
        .statusSeparator: .text(" · "),
        .xOfY: .text("{0} von {1} {2}"),
        .withLate: .text("{0} ({1})"),
        .pageOf: .text("Seite {0} von {1}:"),
        .pagesLabel: .text("Seiten dieses Kurses"),
        .pagesLabelEnd: .text("Seiten dieses Kurses, am Ende"),
        .tasksRange: .text("Aufgaben {0}–{1} von {2}"),
        .coursePageTitle: .text("{0} (Seite {1} von {2})"),
        .needsYou: .text("Heute für Sie"),
        .needsYouIntro: .text("Arbeitsaufträge mit überfälligen oder heute fälligen Aufgaben, die am stärksten überfälligen zuerst."),
        .needsYouMore: .counted([
            .one: "Und {n} weiterer Arbeitsauftrag auf den Seiten der Kurse.",
            .other: "Und {n} weitere Arbeitsaufträge auf den Seiten der Kurse.",
        ]),
        .itemName: .text("{0}: {1}"),
        .teachers: .text("Lehrkräfte"),
        .teachersCaption: .text("Lehrkräfte und ihre Berichtsordner"),
        .sinceToday: .text("seit heute"),
        .sinceYesterday: .text("seit gestern"),
        .sinceDate: .text("seit {0}"),
        .sinceFirst: .text("seit dem ersten Import"),
        .changeNew: .counted([.one: "{n} neu", .other: "{n} neu"]),
        .changeNowOverdue: .counted([.one: "{n} jetzt überfällig", .other: "{n} jetzt überfällig"]),
        .changeCompleted: .counted([.one: "{n} erledigt", .other: "{n} erledigt"]),
        .changePinned: .counted([.one: "{n} von Hand fixiert", .other: "{n} von Hand fixiert"]),
        .changeUnpinned: .counted([.one: "{n} von Hand gelöst", .other: "{n} von Hand gelöst"]),
        .changeDeleted: .counted([.one: "{n} gelöscht", .other: "{n} gelöscht"]),
        .noChange: .text("keine Änderung"),
        .changesLine: .text("{0}: {1}"),
        .firstImport: .text("Erster Import: noch nichts zum Vergleichen."),
        .caveatFailed: .text("der neueste Import ist fehlgeschlagen: seitdem wurde nichts importiert"),
        .caveatHeld: .text("der neueste Import wartet auf Freigabe: seine Änderungen werden noch nicht gezeigt"),
        .caveatNoExport: .text("kein Export ist angekommen: seitdem wurde nichts importiert"),
        .sentence: .text("{0}."),
        .jsSearch: .text("Titel durchsuchen"),
        .jsStatus: .text("Status"),
        .jsDue: .text("Frist"),
        .jsAny: .text("Jederzeit"),
        .jsWeek: .text("Diese Woche"),
        .jsNext7: .text("Nächste 7 Tage"),
        .jsOverdueOnly: .text("Nur überfällige"),
        .jsStudent: .text("Schüler·in"),
        .jsAllStudents: .text("Alle Schüler·innen"),
        .jsAssignment: .text("Arbeitsauftrag"),
        .jsAllAssignments: .text("Alle Arbeitsaufträge"),
        .jsClear: .text("Filter zurücksetzen"),
        .jsFilters: .text("Aufgaben filtern"),
        .jsFilterCourses: .text("Kurse filtern"),
        .jsAttention: .text("Nur mit Handlungsbedarf"),
        .jsOf: .text("{0} von {1}"),
        .jsTasksShown: .counted([.one: "{0} von {n} Aufgabe angezeigt", .other: "{0} von {n} Aufgaben angezeigt"]),
        .jsTasksAll: .counted([.one: "Die {n} Aufgabe wird angezeigt", .other: "Alle {n} Aufgaben werden angezeigt"]),
        .jsCoursesShown: .counted([.one: "{0} von {n} Kurs angezeigt", .other: "{0} von {n} Kursen angezeigt"]),
        .jsCoursesAll: .counted([.one: "Der {n} Kurs wird angezeigt", .other: "Alle {n} Kurse werden angezeigt"]),
        .jsPageShown: .counted([.one: "{0} von {n} Aufgabe dieser Seite angezeigt", .other: "{0} von {n} Aufgaben dieser Seite angezeigt"]),
        .jsPageAll: .counted([
            .one: "Die {n} Aufgabe dieser Seite wird angezeigt", .other: "Alle {n} Aufgaben dieser Seite werden angezeigt",
        ]),
        .note: .text("Hinweis:"),
        .detailsForAdmin: .text("Details für die Administration"),
        .noExportTonight: .text("heute Nacht ist kein Export angekommen"),
        .heldChanges: .counted([
            .one: "{n} Änderung aus einem neueren Export wartet seit {0} auf Freigabe",
            .other: "{n} Änderungen aus einem neueren Export warten seit {0} auf Freigabe",
        ]),
        .lastImportFailed: .text("der letzte Import ist fehlgeschlagen"),
        .noDataYet: .text("es wurden noch keine Daten importiert"),
        .pageShowsDataAsOf: .text("diese Seite zeigt Daten mit Stand {0} ({1})"),
        .hoursOld: .counted([.one: "{n} Stunde alt", .other: "{n} Stunden alt"]),
        .daysOld: .counted([.one: "{n} Tag alt", .other: "{n} Tage alt"]),
        .clauseSeparator: .text("; "),
        .administratorHasDetails: .text("Die Administration kennt die Einzelheiten."),
    ]

    /// French.
    static let frenchTable: [Phrase: Entry] = [
        .asOfHeader: .text("Au {0}"),
        .footerReader: .text(
            "Cette page a été faite au {0}. Un épinglage ou un autre changement fait aujourd'hui apparaîtra sur la page de la nuit prochaine."
        ),
        .footerAdmin: .text(
            "Fait par dashboard au {0}. Un changement ultérieur, comme un épinglage, apparaîtra quand les rapports seront refaits."),
        .allCourses: .text("Tous les cours"),
        .breadcrumb: .text("Fil d'Ariane"),
        .courses: .text("Cours"),
        .coursesOf: .text("Cours de {0}"),
        .titleAsOf: .text("{0} au {1}"),
        .courseTitle: .text("{0} — {1}"),
        .titleOverdue: .text("En retard"),
        .titleToday: .text("À rendre aujourd'hui"),
        .titleUpcoming: .text("À venir"),
        .titleUndated: .text("Sans échéance"),
        .titleCompleted: .text("Terminées"),
        .wordOverdue: .text("en retard"),
        .wordToday: .text("à rendre aujourd'hui"),
        .wordUpcoming: .text("à venir"),
        .wordUndated: .text("sans échéance"),
        .wordCompleted: .text("terminée"),
        .countOverdue: .counted([.one: "{n} en retard", .many: "{n} en retard", .other: "{n} en retard"]),
        .countToday: .counted([.one: "{n} à rendre aujourd'hui", .many: "{n} à rendre aujourd'hui", .other: "{n} à rendre aujourd'hui"]),
        .countUpcoming: .counted([.one: "{n} à venir", .many: "{n} à venir", .other: "{n} à venir"]),
        .countUndated: .counted([.one: "{n} sans échéance", .many: "{n} sans échéance", .other: "{n} sans échéance"]),
        .countCompleted: .counted([.one: "{n} terminée", .many: "{n} terminées", .other: "{n} terminées"]),
        .needsAttention: .text("À traiter :"),
        .noTasksYet: .text("Pas encore de tâche."),
        .tasksByStatus: .text("Tâches de {0} par état"),
        .completedOf: .counted([.one: "{0} sur {n} terminée", .many: "{0} sur {n} terminées", .other: "{0} sur {n} terminées"]),
        .matchingCompleted: .counted([
            .one: "{0} sur {1} retenues terminées ({n} en tout)", .many: "{0} sur {1} retenues terminées ({n} en tout)",
            .other: "{0} sur {1} retenues terminées ({n} en tout)",
        ]),
        .bucketsOfTasks: .counted([.one: "{0} sur {n} tâche", .many: "{0} sur {n} tâches", .other: "{0} sur {n} tâches"]),
        .coursesCount: .counted([.one: "{n} cours", .many: "{n} cours", .other: "{n} cours"]),
        .needAttention: .counted([.one: "{n} à traiter", .many: "{n} à traiter", .other: "{n} à traiter"]),
        .noneNeedsAttention: .text("aucun à traiter"),
        .totals: .text("{0}, {1} : {2} ; {3}"),
        .totalsFiltered: .text("{0}, {1} : {2}"),
        .listSeparator: .text(", "),
        .teacherIs: .text("Enseignant·e : {0}"),
        .termIs: .text("Période : {0}"),
        .timesIn: .text("Heures de {0}"),
        .completedNotListed: .counted([
            .one: "{n} tâche terminée n'est pas listée.", .many: "{n} de tâches terminées ne sont pas listées.",
            .other: "{n} tâches terminées ne sont pas listées.",
        ]),
        .allCompleted: .counted([
            .one: "La tâche est terminée.", .many: "Les {n} de tâches sont terminées.", .other: "Les {n} tâches sont terminées.",
        ]),
        .noTasksForCourse: .text("Ce cours n'a pas encore de tâche."),
        .sectionCaption: .text("{0} : {1}, {2}"),
        .tasksCount: .counted([.one: "{n} tâche", .many: "{n} de tâches", .other: "{n} tâches"]),
        .colID: .text("ID"),
        .colTitle: .text("Titre"),
        .colStudent: .text("Élève"),
        .colDue: .text("Échéance"),
        .colPriority: .text("Priorité"),
        .colStatus: .text("État"),
        .colAssignment: .text("Devoir"),
        .colStudents: .text("Élèves"),
        .colTeacher: .text("Enseignant·e"),
        .colCourses: .text("Cours"),
        .none: .text("aucune"),
        .priorityHigh: .text("haute"),
        .priorityNormal: .text("normale"),
        .priorityLow: .text("basse"),
        .priorityInvalid: .text("invalide"),
        .lateToday: .text("en retard depuis aujourd'hui"),
        .daysLate: .counted([.one: "{n} jour de retard", .many: "{n} de jours de retard", .other: "{n} jours de retard"]),
        .monthsAgo: .counted([.one: "dû il y a {n} mois", .many: "dû il y a {n} de mois", .other: "dû il y a {n} mois"]),
        .yearsAgo: .counted([.one: "dû il y a {n} an", .many: "dû il y a {n} d'ans", .other: "dû il y a {n} ans"]),
        .lateAndAgo: .text("{0}, {1}"),
        .setByHand: .text("fixé à la main"),
        .pinned: .text("{0} (fixé à la main)"),
        .setByHandUntil: .text("fixé à la main jusqu'au {0}"),
        .withReason: .text("{0} : {1}"),
        .assignmentsHeading: .counted([.one: "Devoirs ({n})", .many: "Devoirs ({n})", .other: "Devoirs ({n})"]),
        .assignmentsCaption: .text("{0} : devoirs"),
        .tasksByAssignment: .text("Tâches par devoir"),
        .tasksByAssignmentContinued: .text("Tâches par devoir, suite"),
        .tasksOfStudents: .text("Tâches de ses élèves"),
        .dueOn: .text("échéance {0}"),
        .statusSeparator: .text(" · "),
        .xOfY: .text("{0} sur {1} {2}"),
        .withLate: .text("{0} ({1})"),
        .pageOf: .text("Page {0} sur {1} :"),
        .pagesLabel: .text("Pages de ce cours"),
        .pagesLabelEnd: .text("Pages de ce cours, en fin de page"),
        .tasksRange: .text("tâches {0} à {1} sur {2}"),
        .coursePageTitle: .text("{0} (page {1} sur {2})"),
        .needsYou: .text("Pour vous aujourd'hui"),
        .needsYouIntro: .text("Devoirs avec des tâches en retard ou à rendre aujourd'hui, les plus en retard d'abord."),
        .needsYouMore: .counted([
            .one: "Et {n} autre devoir sur les pages des cours.", .many: "Et {n} de devoirs de plus sur les pages des cours.",
            .other: "Et {n} autres devoirs sur les pages des cours.",
        ]),
        .itemName: .text("{0} : {1}"),
        .teachers: .text("Enseignant·es"),
        .teachersCaption: .text("Enseignant·es et leurs dossiers de rapports"),
        .sinceToday: .text("depuis aujourd'hui"),
        .sinceYesterday: .text("depuis hier"),
        .sinceDate: .text("depuis le {0}"),
        .sinceFirst: .text("depuis le premier import"),
        .changeNew: .counted([.one: "{n} nouvelle", .many: "{n} nouvelles", .other: "{n} nouvelles"]),
        .changeNowOverdue: .counted([.one: "{n} désormais en retard", .many: "{n} désormais en retard", .other: "{n} désormais en retard"]),
        .changeCompleted: .counted([.one: "{n} terminée", .many: "{n} terminées", .other: "{n} terminées"]),
        .changePinned: .counted([.one: "{n} fixée à la main", .many: "{n} fixées à la main", .other: "{n} fixées à la main"]),
        .changeUnpinned: .counted([.one: "{n} libérée à la main", .many: "{n} libérées à la main", .other: "{n} libérées à la main"]),
        .changeDeleted: .counted([.one: "{n} supprimée", .many: "{n} supprimées", .other: "{n} supprimées"]),
        .noChange: .text("aucun changement"),
        .changesLine: .text("{0} : {1}"),
        .firstImport: .text("Premier import : rien à comparer pour l'instant."),
        .caveatFailed: .text("le dernier import a échoué : rien n'a été importé depuis"),
        .caveatHeld: .text("le dernier import attend une approbation : ses changements ne sont pas encore montrés"),
        .caveatNoExport: .text("aucun export n'est arrivé : rien n'a été importé depuis"),
        .sentence: .text("{0}."),
        .jsSearch: .text("Chercher dans les titres"),
        .jsStatus: .text("État"),
        .jsDue: .text("Échéance"),
        .jsAny: .text("N'importe quand"),
        .jsWeek: .text("Cette semaine"),
        .jsNext7: .text("7 prochains jours"),
        .jsOverdueOnly: .text("En retard seulement"),
        .jsStudent: .text("Élève"),
        .jsAllStudents: .text("Tous les élèves"),
        .jsAssignment: .text("Devoir"),
        .jsAllAssignments: .text("Tous les devoirs"),
        .jsClear: .text("Effacer les filtres"),
        .jsFilters: .text("Filtrer les tâches"),
        .jsFilterCourses: .text("Filtrer les cours"),
        .jsAttention: .text("À traiter seulement"),
        .jsOf: .text("{0} sur {1}"),
        .jsTasksShown: .counted([
            .one: "{0} tâche affichée sur {n}", .many: "{0} tâches affichées sur {n}", .other: "{0} tâches affichées sur {n}",
        ]),
        .jsTasksAll: .counted([
            .one: "La tâche est affichée", .many: "Les {n} de tâches sont affichées", .other: "Les {n} tâches sont affichées",
        ]),
        .jsCoursesShown: .counted([
            .one: "{0} cours affiché sur {n}", .many: "{0} cours affichés sur {n}", .other: "{0} cours affichés sur {n}",
        ]),
        .jsCoursesAll: .counted([
            .one: "Le cours est affiché", .many: "Les {n} de cours sont affichés", .other: "Les {n} cours sont affichés",
        ]),
        .jsPageShown: .counted([
            .one: "{0} tâche affichée sur {n} dans cette page", .many: "{0} tâches affichées sur {n} dans cette page",
            .other: "{0} tâches affichées sur {n} dans cette page",
        ]),
        .jsPageAll: .counted([
            .one: "La tâche de cette page est affichée", .many: "Les {n} de tâches de cette page sont affichées",
            .other: "Les {n} tâches de cette page sont affichées",
        ]),
        .note: .text("Remarque :"),
        .detailsForAdmin: .text("Détails pour l'administration"),
        .noExportTonight: .text("aucun export n'est arrivé cette nuit"),
        .heldChanges: .counted([
            .one: "{n} changement d'un export plus récent attend une approbation depuis le {0}",
            .many: "{n} de changements d'un export plus récent attendent une approbation depuis le {0}",
            .other: "{n} changements d'un export plus récent attendent une approbation depuis le {0}",
        ]),
        .lastImportFailed: .text("le dernier import a échoué"),
        .noDataYet: .text("aucune donnée n'a encore été importée"),
        .pageShowsDataAsOf: .text("cette page montre les données au {0} ({1})"),
        .hoursOld: .counted([.one: "il y a {n} heure", .many: "il y a {n} d'heures", .other: "il y a {n} heures"]),
        .daysOld: .counted([.one: "il y a {n} jour", .many: "il y a {n} de jours", .other: "il y a {n} jours"]),
        .clauseSeparator: .text(" ; "),
        .administratorHasDetails: .text("L'administration a les détails."),
    ]

    /// Spanish.
    static let spanishTable: [Phrase: Entry] = [
        .asOfHeader: .text("A fecha de {0}"),
        .footerReader: .text(
            "Esta página se hizo a fecha de {0}. Un anclaje u otro cambio hecho hoy aparecerá en la página de la próxima noche."),
        .footerAdmin: .text(
            "Hecho por dashboard a fecha de {0}. Un cambio posterior, como un anclaje, aparecerá cuando se vuelvan a hacer los informes."),
        .allCourses: .text("Todos los cursos"),
        .breadcrumb: .text("Ruta de navegación"),
        .courses: .text("Cursos"),
        .coursesOf: .text("Cursos de {0}"),
        .titleAsOf: .text("{0} a fecha de {1}"),
        .courseTitle: .text("{0} — {1}"),
        .titleOverdue: .text("Vencidas"),
        .titleToday: .text("Para hoy"),
        .titleUpcoming: .text("Próximas"),
        .titleUndated: .text("Sin fecha"),
        .titleCompleted: .text("Completadas"),
        .wordOverdue: .text("vencida"),
        .wordToday: .text("para hoy"),
        .wordUpcoming: .text("próxima"),
        .wordUndated: .text("sin fecha"),
        .wordCompleted: .text("completada"),
        .countOverdue: .counted([.one: "{n} vencida", .many: "{n} vencidas", .other: "{n} vencidas"]),
        .countToday: .counted([.one: "{n} para hoy", .many: "{n} para hoy", .other: "{n} para hoy"]),
        .countUpcoming: .counted([.one: "{n} próxima", .many: "{n} próximas", .other: "{n} próximas"]),
        .countUndated: .counted([.one: "{n} sin fecha", .many: "{n} sin fecha", .other: "{n} sin fecha"]),
        .countCompleted: .counted([.one: "{n} completada", .many: "{n} completadas", .other: "{n} completadas"]),
        .needsAttention: .text("Requiere atención:"),
        .noTasksYet: .text("Todavía no hay tareas."),
        .tasksByStatus: .text("Tareas de {0} por estado"),
        .completedOf: .counted([.one: "{0} de {n} completada", .many: "{0} de {n} completadas", .other: "{0} de {n} completadas"]),
        .matchingCompleted: .counted([
            .one: "{0} de {1} coincidentes completadas ({n} en total)", .many: "{0} de {1} coincidentes completadas ({n} en total)",
            .other: "{0} de {1} coincidentes completadas ({n} en total)",
        ]),
        .bucketsOfTasks: .counted([.one: "{0} de {n} tarea", .many: "{0} de {n} tareas", .other: "{0} de {n} tareas"]),
        .coursesCount: .counted([.one: "{n} curso", .many: "{n} cursos", .other: "{n} cursos"]),
        .needAttention: .counted([.one: "{n} requiere atención", .many: "{n} requieren atención", .other: "{n} requieren atención"]),
        .noneNeedsAttention: .text("ninguno requiere atención"),
        .totals: .text("{0}, {1}: {2}; {3}"),
        .totalsFiltered: .text("{0}, {1}: {2}"),
        .listSeparator: .text(", "),
        .teacherIs: .text("Docente: {0}"),
        .termIs: .text("Periodo: {0}"),
        .timesIn: .text("Horas en {0}"),
        .completedNotListed: .counted([
            .one: "{n} tarea completada no aparece en la lista.", .many: "{n} de tareas completadas no aparecen en la lista.",
            .other: "{n} tareas completadas no aparecen en la lista.",
        ]),
        .allCompleted: .counted([
            .one: "La única tarea está completada.", .many: "Las {n} de tareas están completadas.",
            .other: "Las {n} tareas están completadas.",
        ]),
        .noTasksForCourse: .text("Este curso todavía no tiene tareas."),
        .sectionCaption: .text("{0}: {1}, {2}"),
        .tasksCount: .counted([.one: "{n} tarea", .many: "{n} de tareas", .other: "{n} tareas"]),
        .colID: .text("ID"),
        .colTitle: .text("Título"),
        .colStudent: .text("Estudiante"),
        .colDue: .text("Entrega"),
        .colPriority: .text("Prioridad"),
        .colStatus: .text("Estado"),
        .colAssignment: .text("Actividad"),
        .colStudents: .text("Estudiantes"),
        .colTeacher: .text("Docente"),
        .colCourses: .text("Cursos"),
        .none: .text("ninguna"),
        .priorityHigh: .text("alta"),
        .priorityNormal: .text("normal"),
        .priorityLow: .text("baja"),
        .priorityInvalid: .text("no válida"),
        .lateToday: .text("con retraso desde hoy"),
        .daysLate: .counted([.one: "{n} día de retraso", .many: "{n} de días de retraso", .other: "{n} días de retraso"]),
        .monthsAgo: .counted([.one: "vencía hace {n} mes", .many: "vencía hace {n} de meses", .other: "vencía hace {n} meses"]),
        .yearsAgo: .counted([.one: "vencía hace {n} año", .many: "vencía hace {n} de años", .other: "vencía hace {n} años"]),
        .lateAndAgo: .text("{0}, {1}"),
        .setByHand: .text("fijado a mano"),
        .pinned: .text("{0} (fijado a mano)"),
        .setByHandUntil: .text("fijado a mano hasta el {0}"),
        .withReason: .text("{0}: {1}"),
        .assignmentsHeading: .counted([.one: "Actividades ({n})", .many: "Actividades ({n})", .other: "Actividades ({n})"]),
        .assignmentsCaption: .text("{0}: actividades"),
        .tasksByAssignment: .text("Tareas por actividad"),
        .tasksByAssignmentContinued: .text("Tareas por actividad, continuación"),
        .tasksOfStudents: .text("Tareas de sus estudiantes"),
        .dueOn: .text("entrega {0}"),
        .statusSeparator: .text(" · "),
        .xOfY: .text("{0} de {1} {2}"),
        .withLate: .text("{0} ({1})"),
        .pageOf: .text("Página {0} de {1}:"),
        .pagesLabel: .text("Páginas de este curso"),
        .pagesLabelEnd: .text("Páginas de este curso, al final"),
        .tasksRange: .text("tareas {0}–{1} de {2}"),
        .coursePageTitle: .text("{0} (página {1} de {2})"),
        .needsYou: .text("Para usted hoy"),
        .needsYouIntro: .text("Actividades con tareas vencidas o para hoy, primero las más vencidas."),
        .needsYouMore: .counted([
            .one: "Y {n} actividad más en las páginas de los cursos.", .many: "Y {n} de actividades más en las páginas de los cursos.",
            .other: "Y {n} actividades más en las páginas de los cursos.",
        ]),
        .itemName: .text("{0}: {1}"),
        .teachers: .text("Docentes"),
        .teachersCaption: .text("Docentes y sus carpetas de informes"),
        .sinceToday: .text("desde hoy"),
        .sinceYesterday: .text("desde ayer"),
        .sinceDate: .text("desde el {0}"),
        .sinceFirst: .text("desde la primera importación"),
        .changeNew: .counted([.one: "{n} nueva", .many: "{n} nuevas", .other: "{n} nuevas"]),
        .changeNowOverdue: .counted([.one: "{n} ahora vencida", .many: "{n} ahora vencidas", .other: "{n} ahora vencidas"]),
        .changeCompleted: .counted([.one: "{n} completada", .many: "{n} completadas", .other: "{n} completadas"]),
        .changePinned: .counted([.one: "{n} fijada a mano", .many: "{n} fijadas a mano", .other: "{n} fijadas a mano"]),
        .changeUnpinned: .counted([.one: "{n} liberada a mano", .many: "{n} liberadas a mano", .other: "{n} liberadas a mano"]),
        .changeDeleted: .counted([.one: "{n} eliminada", .many: "{n} eliminadas", .other: "{n} eliminadas"]),
        .noChange: .text("sin cambios"),
        .changesLine: .text("{0}: {1}"),
        .firstImport: .text("Primera importación: todavía no hay nada con qué comparar."),
        .caveatFailed: .text("la última importación falló: no se ha importado nada desde entonces"),
        .caveatHeld: .text("la última importación espera aprobación: sus cambios aún no se muestran"),
        .caveatNoExport: .text("no llegó ninguna exportación: no se ha importado nada desde entonces"),
        .sentence: .text("{0}."),
        .jsSearch: .text("Buscar en los títulos"),
        .jsStatus: .text("Estado"),
        .jsDue: .text("Entrega"),
        .jsAny: .text("Cualquier fecha"),
        .jsWeek: .text("Esta semana"),
        .jsNext7: .text("Próximos 7 días"),
        .jsOverdueOnly: .text("Solo vencidas"),
        .jsStudent: .text("Estudiante"),
        .jsAllStudents: .text("Todos los estudiantes"),
        .jsAssignment: .text("Actividad"),
        .jsAllAssignments: .text("Todas las actividades"),
        .jsClear: .text("Quitar los filtros"),
        .jsFilters: .text("Filtrar las tareas"),
        .jsFilterCourses: .text("Filtrar los cursos"),
        .jsAttention: .text("Solo los que requieren atención"),
        .jsOf: .text("{0} de {1}"),
        .jsTasksShown: .counted([
            .one: "Se muestran {0} de {n} tarea", .many: "Se muestran {0} de {n} tareas", .other: "Se muestran {0} de {n} tareas",
        ]),
        .jsTasksAll: .counted([
            .one: "Se muestra la única tarea", .many: "Se muestran las {n} de tareas", .other: "Se muestran las {n} tareas",
        ]),
        .jsCoursesShown: .counted([
            .one: "Se muestran {0} de {n} curso", .many: "Se muestran {0} de {n} cursos", .other: "Se muestran {0} de {n} cursos",
        ]),
        .jsCoursesAll: .counted([
            .one: "Se muestra el único curso", .many: "Se muestran los {n} de cursos", .other: "Se muestran los {n} cursos",
        ]),
        .jsPageShown: .counted([
            .one: "Se muestran {0} de {n} tarea de esta página", .many: "Se muestran {0} de {n} tareas de esta página",
            .other: "Se muestran {0} de {n} tareas de esta página",
        ]),
        .jsPageAll: .counted([
            .one: "Se muestra la única tarea de esta página", .many: "Se muestran las {n} de tareas de esta página",
            .other: "Se muestran las {n} tareas de esta página",
        ]),
        .note: .text("Nota:"),
        .detailsForAdmin: .text("Detalles para la administración"),
        .noExportTonight: .text("esta noche no llegó ninguna exportación"),
        .heldChanges: .counted([
            .one: "{n} cambio de una exportación más reciente espera aprobación desde el {0}",
            .many: "{n} de cambios de una exportación más reciente esperan aprobación desde el {0}",
            .other: "{n} cambios de una exportación más reciente esperan aprobación desde el {0}",
        ]),
        .lastImportFailed: .text("la última importación falló"),
        .noDataYet: .text("todavía no se ha importado ningún dato"),
        .pageShowsDataAsOf: .text("esta página muestra datos a fecha de {0} ({1})"),
        .hoursOld: .counted([.one: "hace {n} hora", .many: "hace {n} de horas", .other: "hace {n} horas"]),
        .daysOld: .counted([.one: "hace {n} día", .many: "hace {n} de días", .other: "hace {n} días"]),
        .clauseSeparator: .text("; "),
        .administratorHasDetails: .text("La administración tiene los detalles."),
    ]

    /// Japanese.
    static let japaneseTable: [Phrase: Entry] = [
        .asOfHeader: .text("{0} 時点"),
        .footerReader: .text("このページは {0} 時点で作成されました。今日行った固定やその他の変更は、翌晩のページに反映されます。"),
        .footerAdmin: .text("dashboard が {0} 時点で作成しました。その後の変更（固定など）は、レポートを次に作成したときに反映されます。"),
        .allCourses: .text("すべてのコース"),
        .breadcrumb: .text("パンくずリスト"),
        .courses: .text("コース"),
        .coursesOf: .text("{0} のコース"),
        .titleAsOf: .text("{0}（{1} 時点）"),
        .courseTitle: .text("{0} — {1}"),
        .titleOverdue: .text("期限切れ"),
        .titleToday: .text("今日が期限"),
        .titleUpcoming: .text("今後"),
        .titleUndated: .text("期限なし"),
        .titleCompleted: .text("完了"),
        .wordOverdue: .text("期限切れ"),
        .wordToday: .text("今日が期限"),
        .wordUpcoming: .text("今後"),
        .wordUndated: .text("期限なし"),
        .wordCompleted: .text("完了"),
        .countOverdue: .counted([.other: "期限切れ {n} 件"]),
        .countToday: .counted([.other: "今日が期限 {n} 件"]),
        .countUpcoming: .counted([.other: "今後 {n} 件"]),
        .countUndated: .counted([.other: "期限なし {n} 件"]),
        .countCompleted: .counted([.other: "完了 {n} 件"]),
        .needsAttention: .text("要対応："),
        .noTasksYet: .text("まだ課題はありません。"),
        .tasksByStatus: .text("{0} の課題（状態別）"),
        .completedOf: .counted([.other: "{n} 件中 {0} 件完了"]),
        .matchingCompleted: .counted([.other: "該当 {1} 件中 {0} 件完了（全 {n} 件）"]),
        .bucketsOfTasks: .counted([.other: "全 {n} 件中 {0}"]),
        .coursesCount: .counted([.other: "{n} コース"]),
        .needAttention: .counted([.other: "要対応 {n}"]),
        .noneNeedsAttention: .text("要対応なし"),
        .totals: .text("{0}、{1}：{2}；{3}"),
        .totalsFiltered: .text("{0}、{1}：{2}"),
        .listSeparator: .text("、"),
        .teacherIs: .text("担当：{0}"),
        .termIs: .text("学期：{0}"),
        .timesIn: .text("時刻は {0}"),
        .completedNotListed: .counted([.other: "完了した課題 {n} 件は一覧にありません。"]),
        .allCompleted: .counted([.other: "{n} 件の課題はすべて完了しています。"]),
        .noTasksForCourse: .text("このコースにはまだ課題がありません。"),
        .sectionCaption: .text("{0}：{1}、{2}"),
        .tasksCount: .counted([.other: "{n} 件"]),
        .colID: .text("ID"),
        .colTitle: .text("タイトル"),
        .colStudent: .text("学生"),
        .colDue: .text("期限"),
        .colPriority: .text("優先度"),
        .colStatus: .text("状態"),
        .colAssignment: .text("課題"),
        .colStudents: .text("学生数"),
        .colTeacher: .text("担当"),
        .colCourses: .text("コース数"),
        .none: .text("なし"),
        .priorityHigh: .text("高"),
        .priorityNormal: .text("普通"),
        .priorityLow: .text("低"),
        .priorityInvalid: .text("無効"),
        .lateToday: .text("今日から遅れ"),
        .daysLate: .counted([.other: "{n} 日遅れ"]),
        .monthsAgo: .counted([.other: "{n} か月前が期限"]),
        .yearsAgo: .counted([.other: "{n} 年前が期限"]),
        .lateAndAgo: .text("{0}、{1}"),
        .setByHand: .text("手動で設定"),
        .pinned: .text("{0}（手動で設定）"),
        .setByHandUntil: .text("{0} まで手動で設定"),
        .withReason: .text("{0}：{1}"),
        .assignmentsHeading: .counted([.other: "課題（{n}）"]),
        .assignmentsCaption: .text("{0}：課題"),
        .tasksByAssignment: .text("課題ごとの提出物"),
        .tasksByAssignmentContinued: .text("課題ごとの提出物（続き）"),
        .tasksOfStudents: .text("学生ごとの提出物"),
        .dueOn: .text("期限 {0}"),
        .statusSeparator: .text(" · "),
        .xOfY: .text("{1} 件中 {0} 件{2}"),
        .withLate: .text("{0}（{1}）"),
        .pageOf: .text("{1} ページ中 {0} ページ："),
        .pagesLabel: .text("このコースのページ"),
        .pagesLabelEnd: .text("このコースのページ（末尾）"),
        .tasksRange: .text("{2} 件中 {0}–{1} 件目"),
        .coursePageTitle: .text("{0}（{2} ページ中 {1} ページ）"),
        .needsYou: .text("今日の対応"),
        .needsYouIntro: .text("期限切れまたは今日が期限の課題。期限切れの多い順。"),
        .needsYouMore: .counted([.other: "ほかに {n} 件の課題がコースのページにあります。"]),
        .itemName: .text("{0}：{1}"),
        .teachers: .text("担当者"),
        .teachersCaption: .text("担当者とレポートのフォルダー"),
        .sinceToday: .text("今日から"),
        .sinceYesterday: .text("昨日から"),
        .sinceDate: .text("{0} から"),
        .sinceFirst: .text("最初の取り込みから"),
        .changeNew: .counted([.other: "新規 {n}"]),
        .changeNowOverdue: .counted([.other: "新たに期限切れ {n}"]),
        .changeCompleted: .counted([.other: "完了 {n}"]),
        .changePinned: .counted([.other: "手動で固定 {n}"]),
        .changeUnpinned: .counted([.other: "手動で固定解除 {n}"]),
        .changeDeleted: .counted([.other: "削除 {n}"]),
        .noChange: .text("変更なし"),
        .changesLine: .text("{0}：{1}"),
        .firstImport: .text("最初の取り込みです。まだ比較するものがありません。"),
        .caveatFailed: .text("最新の取り込みが失敗しました。それ以降は何も取り込まれていません"),
        .caveatHeld: .text("最新の取り込みは承認待ちです。その変更はまだ表示されません"),
        .caveatNoExport: .text("エクスポートが届いていません。それ以降は何も取り込まれていません"),
        .sentence: .text("{0}。"),
        .jsSearch: .text("タイトルを検索"),
        .jsStatus: .text("状態"),
        .jsDue: .text("期限"),
        .jsAny: .text("すべて"),
        .jsWeek: .text("今週"),
        .jsNext7: .text("今後 7 日間"),
        .jsOverdueOnly: .text("期限切れのみ"),
        .jsStudent: .text("学生"),
        .jsAllStudents: .text("すべての学生"),
        .jsAssignment: .text("課題"),
        .jsAllAssignments: .text("すべての課題"),
        .jsClear: .text("絞り込みを解除"),
        .jsFilters: .text("課題を絞り込む"),
        .jsFilterCourses: .text("コースを絞り込む"),
        .jsAttention: .text("要対応のみ"),
        .jsOf: .text("{1} 件中 {0} 件"),
        .jsTasksShown: .counted([.other: "{n} 件中 {0} 件を表示"]),
        .jsTasksAll: .counted([.other: "全 {n} 件を表示"]),
        .jsCoursesShown: .counted([.other: "{n} コース中 {0} コースを表示"]),
        .jsCoursesAll: .counted([.other: "全 {n} コースを表示"]),
        .jsPageShown: .counted([.other: "このページの {n} 件中 {0} 件を表示"]),
        .jsPageAll: .counted([.other: "このページの全 {n} 件を表示"]),
        .note: .text("お知らせ："),
        .detailsForAdmin: .text("管理者向けの詳細"),
        .noExportTonight: .text("今夜はエクスポートが届いていません"),
        .heldChanges: .counted([.other: "新しいエクスポートの変更 {n} 件が {0} から承認待ちです"]),
        .lastImportFailed: .text("前回の取り込みが失敗しました"),
        .noDataYet: .text("まだデータが取り込まれていません"),
        .pageShowsDataAsOf: .text("このページは {0} 時点のデータです（{1}）"),
        .hoursOld: .counted([.other: "{n} 時間前"]),
        .daysOld: .counted([.other: "{n} 日前"]),
        .clauseSeparator: .text("。"),
        .administratorHasDetails: .text("詳細は管理者が把握しています。"),
    ]
}
