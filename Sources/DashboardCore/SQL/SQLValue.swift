/// A value that can be bound to a statement parameter.
package enum SQLValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The value as text, or nil for NULL.
    package var text: String? {
        switch self {
        case .null: return nil
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .text(let s): return s
        case .blob(let b): return String(decoding: b, as: UTF8.self)
        }
    }

    /// The value as an integer, or nil for NULL, text, and a real with no Int64 value (NaN, an
    /// infinity, or beyond ±2^63, which a hand edit can store and `Int64(_:)` would trap on).
    package var integer: Int64? {
        switch self {
        case .integer(let v): return v
        case .real(let v): return Int64(exactly: v.rounded(.towardZero))
        default: return nil
        }
    }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    package init(stringLiteral value: String) { self = .text(value) }
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(nilLiteral: ()) { self = .null }
}

/// Something that can be bound as a statement parameter.
package protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension String: SQLBindable { package var sqlValue: SQLValue { .text(self) } }
extension Int: SQLBindable { package var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Int64: SQLBindable { package var sqlValue: SQLValue { .integer(self) } }
extension Bool: SQLBindable { package var sqlValue: SQLValue { .integer(self ? 1 : 0) } }
extension Double: SQLBindable { package var sqlValue: SQLValue { .real(self) } }
extension SQLValue: SQLBindable { package var sqlValue: SQLValue { self } }
extension Optional: SQLBindable where Wrapped: SQLBindable {
    package var sqlValue: SQLValue { self?.sqlValue ?? .null }
}
