/// A CLDR plural category: which form of a counted word a language uses for a number
/// ("1 Aufgabe", "3 Aufgaben"). Every language has `other`; the rest only where its rules name
/// them.
package enum PluralCategory: String, CaseIterable, Sendable {
    case zero, one, two, few, many, other
}

/// The cardinal plural rules of the report languages for counts: CLDR's rules
/// (`common/supplemental/plurals.xml`, CLDR 42 and later, where Spanish gained `many`) with the
/// operands of a whole number, `i = n`, `v = 0`, `e = 0`.
///
/// Policy: a report counts tasks, students and days, never fractions, so only the integer part
/// of each rule applies. Per language, as CLDR writes it:
/// - `en`, `de`: one — `i = 1 and v = 0`; other.
/// - `fr`: one — `i = 0,1`; many — `e = 0 and i != 0 and i % 1000000 = 0 and v = 0`; other.
///   ("0 tâche", "1 tâche", "1 000 000 de tâches".)
/// - `es`: one — `n = 1`; many — `e = 0 and i != 0 and i % 1000000 = 0 and v = 0`; other.
/// - `ja`: other only.
/// A negative count takes the category of its absolute value, as CLDR's `n` does.
package enum PluralRules {
    /// The category of the count `n` in `language`.
    package static func category(of n: Int, in language: ReportLanguage) -> PluralCategory {
        let i = n.magnitude
        switch language {
        case .en, .de:
            return i == 1 ? .one : .other
        case .fr:
            if i == 0 || i == 1 { return .one }
            return i % 1_000_000 == 0 ? .many : .other
        case .es:
            if i == 1 { return .one }
            return i != 0 && i % 1_000_000 == 0 ? .many : .other
        case .ja:
            return .other
        }
    }

    /// The categories `language` distinguishes for whole numbers, in CLDR's order: what a word
    /// table must give a form for.
    package static func categories(of language: ReportLanguage) -> [PluralCategory] {
        switch language {
        case .en, .de: return [.one, .other]
        case .fr, .es: return [.one, .many, .other]
        case .ja: return [.other]
        }
    }
}
