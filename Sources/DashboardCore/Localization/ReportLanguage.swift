import Foundation

/// A language the teachers' reports can be written in (issue 29): a course's `language`
/// column, the database's `settings language`, else English.
///
/// Policy: a language is named by a BCP 47 tag (`LanguageTag`) and resolved by its primary
/// language subtag alone: `de-AT`, `de-CH` and `de` are German, `ja-JP` Japanese, `en-GB`
/// English, `es-419` Spanish. The region and the rest of the tag are kept (the canonical tag is
/// what is stored) for the dates and times of `Locale(identifier:)`, never to choose the words.
package enum ReportLanguage: String, CaseIterable, Sendable {
    case en, de, fr, es, ja

    /// The supported tags as a hint lists them: `en, de, fr, es, ja`.
    package static var listed: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The language of `tag`, nil when the reports are not written in it (`zh`, `pt-BR`) or
    /// the tag names its language by an extended subtag (`zh-yue` is Cantonese).
    package init?(_ tag: LanguageTag) {
        guard tag.extendedLanguages.isEmpty, let language = ReportLanguage(rawValue: tag.language) else { return nil }
        self = language
    }

    /// The tag a value of the courses file's `language` column or of `settings language` names,
    /// or why it cannot be one of a report.
    ///
    /// Policy: the value is trimmed of white space; a tag that is not well-formed (`de--AT`,
    /// `e`, `de AT`) and a well-formed one of a language the reports are not written in yet
    /// (`zh`, `pt-BR`, `xx`, or `german`, which the grammar reads as a language subtag of 6
    /// letters that names no language) are both refused, with the same hint listing the
    /// supported languages: the importer reports either as `invalid_language`,
    /// `settings language` as a usage error.
    package static func tag(_ given: String) -> Result<LanguageTag, LanguageRefusal> {
        let text = given.trimmingUnicodeWhitespace()
        guard let tag = LanguageTag(text) else { return .failure(.illFormed) }
        guard ReportLanguage(tag) == nil else { return .success(tag) }
        let named = tag.extendedLanguages.first ?? tag.language
        return .failure(named.count > 3 ? .notALanguageCode : .unsupported(language: named))
    }

    /// The tag a course's report is written by: the course's own (its stored `language`), else
    /// the database's default (`settings language`), else English (`en`). A stored value that is
    /// not a tag of a supported language (only a hand edit; `verify` lists it) counts as none.
    package static func resolved(course: String, databaseDefault: LanguageTag?) -> LanguageTag {
        if case .success(let tag) = Self.tag(course) { return tag }
        return databaseDefault ?? .english
    }
}

/// Why a value does not name a language a report can be written in.
package enum LanguageRefusal: Error, Equatable, Sendable {
    /// Not a well-formed BCP 47 tag (RFC 5646, section 2.1).
    case illFormed
    /// Well-formed, but its language subtag has 4 to 8 letters (reserved or for registration:
    /// no language is named so).
    case notALanguageCode
    /// A well-formed tag of a language the reports are not written in (the subtag named).
    case unsupported(language: String)

    /// What is wrong, after the quoted value: `"zh" names a language …`.
    package var reason: String {
        switch self {
        case .illFormed: return "is not a BCP 47 language tag"
        case .notALanguageCode: return "is not a language code (BCP 47 names a language by 2 or 3 letters, such as de)"
        case .unsupported(let language): return "names a language the reports are not written in (\(language))"
        }
    }

    /// The fix, the same for every refusal: the supported languages and an example.
    package static let hint = "use a BCP 47 tag of a supported language: \(ReportLanguage.listed) (e.g. de-AT)"
}
