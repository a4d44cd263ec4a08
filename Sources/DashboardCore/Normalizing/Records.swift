/// A course as stored: every value already normalized.
public struct CourseRecord: Hashable, Sendable {
    public var courseID: String
    public var code: String
    public var title: String
    public var term: String
    public var teacher: String
    /// An IANA name, or empty for "the default time zone".
    public var timezone: String
    /// The teacher's address for the morning digest (`EmailAddress`'s form), or empty. Never
    /// rendered in a report.
    public var teacherEmail: String
    /// The language the course's reports are written in: a BCP 47 tag of a supported language
    /// in its canonical case (`de-AT`, `LanguageTag`), or empty for "the database's default
    /// language" (`settings language`, else English: `ReportLanguage.resolved`).
    public var language: String

    public init(
        courseID: String, code: String, title: String, term: String = "", teacher: String = "", timezone: String = "",
        teacherEmail: String = "", language: String = ""
    ) {
        self.courseID = courseID
        self.code = code
        self.title = title
        self.term = term
        self.teacher = teacher
        self.timezone = timezone
        self.teacherEmail = teacherEmail
        self.language = language
    }
}

/// A task as stored: every value already normalized.
public struct TaskRecord: Hashable, Sendable {
    public var taskID: String
    public var courseID: String
    public var title: String
    public var studentID: String
    /// The canonical due text (see `DueDate.storageText`), or empty when undated.
    public var due: String
    public var priority: Priority
    /// True exactly when the state is `completed` (SPEC §11: the `completed` column alone
    /// means completed or open). Setting it true completes the task; setting it false reopens
    /// a completed one and leaves any other state as it is.
    public var completed: Bool {
        get { state == .completed }
        set {
            if newValue { state = .completed } else if state == .completed { state = .open }
        }
    }
    /// The assignment the task belongs to (the tasks file's optional `assignment_id` column);
    /// empty when the file has none. Roll-ups by assignment group on it, else on the title.
    public var assignmentID = ""
    /// Where the task stands (SPEC §11): from the optional `status` column, else from
    /// `completed`.
    public var state: SubmissionState
    /// When the task was handed in, canonical as `due` (`DueDate.storageText`); empty when
    /// the file does not say.
    public var submittedAt = ""
    /// Stored values a hand edit made invalid (see `InvalidStoredValue`); empty for every task
    /// the program wrote.
    package var invalid: [InvalidStoredValue] = []

    /// - Parameter state: the task's state; nil takes it from `completed` (true: completed,
    ///   false: open), as a file without a `status` column does.
    public init(
        taskID: String, courseID: String, title: String, studentID: String = "", due: String = "",
        priority: Priority = .normal, completed: Bool = false, assignmentID: String = "", state: SubmissionState? = nil,
        submittedAt: String = ""
    ) {
        self.assignmentID = assignmentID
        self.state = state ?? SubmissionState(completed: completed)
        self.submittedAt = submittedAt
        self.taskID = taskID
        self.courseID = courseID
        self.title = title
        self.studentID = studentID
        self.due = due
        self.priority = priority
    }
}
