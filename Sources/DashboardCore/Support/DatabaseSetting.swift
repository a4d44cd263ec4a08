import Foundation

/// The database's text settings beside its default time zone (`dashboard settings`), each
/// logged like it. Stored in `settings` under its raw value; a cleared setting is stored as ""
/// (its change is logged) and reads as none.
package enum DatabaseSetting: String, Sendable, CaseIterable {
    /// The address the nightly reports' folder (`latest`, or an `--out DIR`) is served at:
    /// calendar events and digests link pages under it.
    case baseURL = "base_url"
    /// The sender of the morning digests (`nightly --digest`).
    case mailFrom = "mail_from"
    /// The language of the reports of the courses that name none (issue 29): a canonical BCP 47
    /// tag of a supported language (`ReportLanguage`); when not set, English.
    case language

    /// The longest value accepted.
    static let longest = 2048

    /// A value as it is stored, or why it cannot be: a base URL is an absolute `http` or
    /// `https` address without user info, query, fragment, white space or control
    /// characters, kept with one trailing `/`; a sender an address (`EmailAddress`); a language
    /// a BCP 47 tag of a supported language, kept in its canonical case (`ReportLanguage.tag`:
    /// `de_at` is `de-AT`), refused as the courses file's `language` column refuses it.
    package func validated(_ given: String) -> Result<String, SettingRefusal> {
        let value = given.trimmingUnicodeWhitespace()
        guard !value.isEmpty, value.utf8.count <= Self.longest else {
            return .failure(SettingRefusal(reason: value.isEmpty ? "is empty" : "is longer than \(Self.longest) bytes"))
        }
        switch self {
        case .baseURL:
            let lower = value.lowercased()
            guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else {
                return .failure(SettingRefusal(reason: "is not an http:// or https:// address"))
            }
            guard value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                return .failure(SettingRefusal(reason: "holds a space, a control or a non-ASCII character (percent-encode it)"))
            }
            guard !value.contains("?"), !value.contains("#") else {
                return .failure(SettingRefusal(reason: "has a query or a fragment (give the folder's address only)"))
            }
            let rest = value.drop { $0 != "/" }.dropFirst(2)
            let host = rest.prefix { $0 != "/" }
            guard !host.isEmpty, !host.contains("@") else {
                return .failure(SettingRefusal(reason: host.isEmpty ? "has no host" : "holds a user name or password"))
            }
            return .success(value.hasSuffix("/") ? value : value + "/")
        case .mailFrom:
            guard let address = EmailAddress(value) else {
                return .failure(SettingRefusal(reason: "is not an e-mail address such as dashboard@school.example"))
            }
            return .success(address.text)
        case .language:
            switch ReportLanguage.tag(value) {
            case .success(let tag): return .success(tag.text)
            case .failure(let refusal): return .failure(SettingRefusal(reason: refusal.reason))
            }
        }
    }
}

/// Why a setting's value is refused.
package struct SettingRefusal: Error, Equatable, Sendable {
    package let reason: String
}
