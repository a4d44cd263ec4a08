import Foundation
import Testing

@testable import DashboardCore

/// Issue 28: the text settings (`settings base-url`, `settings mail-from`) and the e-mail
/// addresses the digests accept; issue 29: `settings language`.
@Suite(.storeIndependent) struct DatabaseSettingTests {
    @Test(arguments: [
        ("https://reports.school.example", "https://reports.school.example/"),
        ("  http://10.0.0.5:8080/night/ ", "http://10.0.0.5:8080/night/"),
        ("HTTPS://Reports.Example/a%20b", "HTTPS://Reports.Example/a%20b/"),
    ])
    func aBaseURLIsKeptWithOneTrailingSlash(given: String, stored: String) {
        #expect(DatabaseSetting.baseURL.validated(given) == .success(stored))
    }

    @Test(arguments: [
        "", "reports.school.example", "ftp://x.example/", "https://", "https:///path", "https://user:pw@x.example/",
        "https://x.example/?a=1", "https://x.example/#top", "https://x.example/a b", "https://bücher.example/",
        "javascript:alert(1)", "https://x.example/\u{7}",
    ])
    func aBaseURLThatIsNotAPlainWebAddressIsRefused(given: String) {
        guard case .failure = DatabaseSetting.baseURL.validated(given) else {
            Issue.record("accepted \(given)")
            return
        }
    }

    @Test func aLanguageIsKeptAsItsCanonicalTagAndAnythingElseRefusedWithItsReason() {
        #expect(DatabaseSetting.language.validated(" de_at ") == .success("de-AT"))
        #expect(DatabaseSetting.language.validated("JA-jp") == .success("ja-JP"))
        #expect(DatabaseSetting.language.validated("es-419") == .success("es-419"))
        #expect(
            DatabaseSetting.language.validated("zh")
                == .failure(SettingRefusal(reason: "names a language the reports are not written in (zh)")))
        #expect(DatabaseSetting.language.validated("de--AT") == .failure(SettingRefusal(reason: "is not a BCP 47 language tag")))
        #expect(DatabaseSetting.language.validated("") == .failure(SettingRefusal(reason: "is empty")))
    }

    @Test func addressesInTheirDotAtomFormAreAcceptedAndEverythingElseRefused() {
        for good in ["okafor@school.example", "a.b+c@x-y.example", "o'neil@school.example", "x@localhost", "dash!#$%&'*+/=?^_`{|}~@a.b"] {
            #expect(EmailAddress(good)?.text == good, "\(good)")
        }
        for bad in [
            "", "@x.example", "a@", "a@@x.example", "a..b@x.example", ".a@x.example", "a.@x.example", "a@-x.example", "a@x-.example",
            "a@x..example", "A Okafor <a@x.example>", "a@x.example\r\nBcc: all@x.example", "\"a b\"@x.example", "a@[192.0.2.1]",
            "müller@x.example", "a@bücher.example", String(repeating: "a", count: 65) + "@x.example",
            "a@" + String(repeating: "b", count: 64) + ".example", "a b@x.example",
        ] {
            #expect(EmailAddress(bad) == nil, "\(bad)")
        }
        #expect(DatabaseSetting.mailFrom.validated(" dashboard@school.example ") == .success("dashboard@school.example"))
    }
}
