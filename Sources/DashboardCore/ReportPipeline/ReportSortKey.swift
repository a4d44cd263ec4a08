import Foundation

/// Byte strings whose order (memcmp, SQLite's BLOB order) is the report's order, so that SQL
/// can sort and page tasks (`ReportStream`) exactly as `ReportPipeline.sort` and `group` do.
/// Pure; a randomized test compares both orders.
///
/// Policy: a task's key is its course's position (in `ReportPipeline.courseOrder`), its bucket's
/// order, then the steps of the sort (`ReportSort`), then the task id; each step is encoded so
/// that comparing bytes decides as the step's comparison does. Text compares in
/// `NaturalOrder` through `natural(_:)`, then by its UTF-8 bytes (the tie-break
/// `NaturalOrder.compare` ends on). Two texts that are canonically equivalent but differ in
/// bytes (never the case for imported text, which is NFC) are the one place the orders could
/// differ: the pipeline calls them equal and goes on to the next step.
package enum ReportSortKey {
    /// The key of `task` in course `coursePosition` (0-based, in course order), with `due` the
    /// task's due instant (`ReportPipeline.dueInstant`, nil when undated).
    package static func key(coursePosition: Int, task: ReportTask, due: Int64?, sort: ReportSort) -> [UInt8] {
        key(prefix: prefix(coursePosition: coursePosition, bucket: task.bucket), task: task, due: due, sort: sort)
    }

    /// The key of `task` in the course whose key is `course` (`course(_:)`): the same order as
    /// with the course's position, without knowing every course.
    package static func key(course: [UInt8], task: ReportTask, due: Int64?, sort: ReportSort) -> [UInt8] {
        key(prefix: prefix(course: course, bucket: task.bucket), task: task, due: due, sort: sort)
    }

    /// The first bytes of every key of the tasks in `bucket` of the course whose key is `course`.
    package static func prefix(course: [UInt8], bucket: Bucket) -> [UInt8] {
        course + [UInt8(truncatingIfNeeded: bucket.order)]
    }

    static func key(prefix: [UInt8], task: ReportTask, due: Int64?, sort: ReportSort) -> [UInt8] {
        var key = prefix
        key.reserveCapacity(64)
        let record = task.task
        func dueStep() {
            // Undated last.
            key.append(due == nil ? 1 : 0)
            appendInteger(due ?? 0, to: &key)
        }
        func titleStep() { appendText(record.title, to: &key) }
        switch sort {
        case .due:
            dueStep()
            key.append(UInt8(clamping: record.priority.rank))
            titleStep()
        case .priority:
            key.append(UInt8(clamping: record.priority.rank))
            dueStep()
            titleStep()
        case .title:
            titleStep()
            dueStep()
        case .student:
            // Tasks without a student last.
            key.append(record.studentID.isEmpty ? 1 : 0)
            if !record.studentID.isEmpty { appendText(record.studentID, to: &key) }
            dueStep()
            titleStep()
        }
        appendBytes(Array(record.taskID.utf8), to: &key)
        return key
    }

    /// The key of a course's place in the report's course order (`ReportPipeline.courseOrder`):
    /// its code in natural order then by its bytes, then its id's bytes (ids are unique, so two
    /// courses never tie). `CourseResults` reads courses back in this order.
    package static func course(_ course: CourseRecord) -> [UInt8] {
        var key: [UInt8] = []
        appendText(course.code, to: &key)
        appendBytes(Array(course.courseID.utf8), to: &key)
        return key
    }

    /// The first bytes of every key of the course's tasks in `bucket`.
    package static func prefix(coursePosition: Int, bucket: Bucket) -> [UInt8] {
        var key: [UInt8] = []
        appendInteger(Int64(coursePosition), to: &key)
        key.append(UInt8(truncatingIfNeeded: bucket.order))
        return key
    }

    /// A text in natural order, then by its bytes.
    static func appendText(_ text: String, to key: inout [UInt8]) {
        appendBytes(natural(text), to: &key)
        appendBytes(Array(text.utf8), to: &key)
    }

    /// The natural-order key of `text`: its folded scalars, each as 3 bytes (big-endian), and
    /// each run of ASCII digits as the 3 bytes of "0", the 4-byte length of the run without
    /// its leading zeros, then those digits. Comparing two keys byte by byte decides as
    /// `NaturalOrder.compare` does before its final tie-break: a digit run against a scalar as
    /// any digit would (every digit is below or above the same scalars), two runs by length
    /// then digits, and a key that ends first goes first.
    package static func natural(_ text: String) -> [UInt8] {
        let scalars = Array(ReportPipeline.fold(text).unicodeScalars)
        var key: [UInt8] = []
        key.reserveCapacity(scalars.count * 3)
        var i = 0
        while i < scalars.count {
            let value = scalars[i].value
            guard value >= 48, value <= 57 else {
                key += [UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
                i += 1
                continue
            }
            var digits: [UInt8] = []
            while i < scalars.count, scalars[i].value >= 48, scalars[i].value <= 57 {
                if !(digits.isEmpty && scalars[i].value == 48) { digits.append(UInt8(scalars[i].value)) }
                i += 1
            }
            let length = UInt32(clamping: digits.count)
            key += [
                0, 0, 48, UInt8(length >> 24), UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8),
                UInt8(truncatingIfNeeded: length),
            ]
            key += digits
        }
        return key
    }

    /// A signed integer as 8 bytes that compare in its order.
    static func appendInteger(_ value: Int64, to key: inout [UInt8]) {
        let biased = UInt64(bitPattern: value) ^ (1 << 63)
        for shift in stride(from: 56, through: 0, by: -8) { key.append(UInt8(truncatingIfNeeded: biased >> UInt64(shift))) }
    }

    /// A byte string of any length, self-delimited and order-preserving: every 0 byte becomes
    /// 0 255, and the end is 0 0 (so a prefix goes first, as in the byte order).
    static func appendBytes(_ bytes: [UInt8], to key: inout [UInt8]) {
        for byte in bytes {
            key.append(byte)
            if byte == 0 { key.append(255) }
        }
        key += [0, 0]
    }
}
