extension InvalidStoredValue {
    init(column: String, value: SQLValue) {
        self.column = column
        storedText = value.text
        switch value {
        case .integer, .real: storedNumber = true
        default: storedNumber = false
        }
    }

    /// The value for JSON: its own type, never reinterpreted.
    package var json: JSONValue {
        guard let text = storedText else { return .null }
        if storedNumber, let number = Int(text) { return .int(number) }
        return .string(text)
    }
}

extension TaskRecord {
    /// A task from its stored columns, decoded without reinterpreting any of them.
    ///
    /// Policy: a priority other than low/normal/high, a completed other than 0/1 and a due that
    /// is not a stored due text are listed in `invalid` with their stored value; the task then
    /// sorts as normal priority, not completed and undated, and every report shows the words
    /// of `InvalidStoredValue` (never "normal", "false" or an empty due in their place).
    /// `dashboard verify` lists the same values by the same rules.
    package init(
        storedTaskID taskID: String, courseID: String, title: String, studentID: String, due: SQLValue, priority: SQLValue,
        completed: SQLValue
    ) {
        var invalid: [InvalidStoredValue] = []
        let stored: Priority
        if case .text(let text) = priority, let known = Priority(rawValue: text) {
            stored = known
        } else {
            stored = .normal
            invalid.append(InvalidStoredValue(column: "priority", value: priority))
        }
        let isCompleted = Self.storedCompleted(completed)
        if completed != .integer(0), !isCompleted { invalid.append(InvalidStoredValue(column: "completed", value: completed)) }
        var dueText = ""
        if case .text(let text) = due {
            if !text.isEmpty, DueDate(storageText: text) == nil {
                invalid.append(InvalidStoredValue(column: "due", value: due))
            } else {
                dueText = text
            }
        } else {
            invalid.append(InvalidStoredValue(column: "due", value: due))
        }
        self.init(
            taskID: taskID, courseID: courseID, title: title, studentID: studentID, due: dueText, priority: stored,
            completed: isCompleted)
        self.invalid = invalid
    }

    /// True only for a stored `completed` of exactly 1: any other value (a hand edit's 2,
    /// 1.5 or `'yes'`) is an open task, which reports show as invalid. The categorizer and the
    /// reverter read the column with this too, so every reader buckets a task alike.
    package static func storedCompleted(_ value: SQLValue) -> Bool { value == .integer(1) }

    /// The state every bucket reader takes from a task's stored `status` and `completed`, by
    /// `decodeSubmission`'s rule: the stored state when it is one and agrees with `completed`
    /// (completed exactly when the state is completed), else the state `completed` means.
    package static func storedState(status: SQLValue, completed: SQLValue) -> SubmissionState {
        let isCompleted = storedCompleted(completed)
        guard completed == .integer(0) || isCompleted, case .text(let text) = status, let state = SubmissionState(rawValue: text),
            (state == .completed) == isCompleted
        else { return SubmissionState(completed: isCompleted) }
        return state
    }

    /// Sets the task's state and hand-in time from their stored columns (schema 13, SPEC §11).
    ///
    /// Policy: `completed` stays what every reader buckets by; a stored state is taken when it
    /// is a state and agrees with it (completed exactly when the state is completed). A state
    /// that is no state, or one a hand edit set against `completed`, is listed in `invalid` and
    /// the task keeps the state `completed` means; a hand-in time that is not a stored due
    /// text likewise (the task then has none). A `completed` already invalid is not compared
    /// (one hand edit, one invalid value): the task keeps the state it is read as, open.
    /// `dashboard verify` lists the same values.
    package mutating func decodeSubmission(status: SQLValue, submittedAt: SQLValue) {
        let completedInvalid = invalid.contains { $0.column == "completed" }
        if case .text(let text) = status, let state = SubmissionState(rawValue: text) {
            if completedInvalid {
                self.state = SubmissionState(completed: completed)
            } else if (state == .completed) == completed {
                self.state = state
            } else {
                invalid.append(InvalidStoredValue(column: "status", value: status))
            }
        } else {
            invalid.append(InvalidStoredValue(column: "status", value: status))
        }
        if case .text(let text) = submittedAt, text.isEmpty || DueDate(storageText: text) != nil {
            self.submittedAt = text
        } else {
            invalid.append(InvalidStoredValue(column: "submitted_at", value: submittedAt))
        }
    }
}
