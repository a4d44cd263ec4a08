import Foundation
import Testing

/// Issue 13, item 3: the web-server configuration of docs/operations.md, tested as it is. The
/// nightly job writes one folder per teacher; nginx (Debian's `nginx-light`, installed by
/// `make test`) serves `latest` on loopback with docs/examples/nginx-dashboard.conf, only its
/// paths moved into the sandbox; pages are fetched with and without each password.
@Suite(.serialized) struct TeacherWebServerTests {
    static let courses = """
        course_id,title,code,teacher
        eng,English,ENG 1,Amaka Okafor
        lit,Literature,LIT 2,Amaka Okafor
        his,History,HIS 3,Tomás Reyes
        art,Art,ART 4,

        """
    static let tasks = """
        task_id,course_id,title,due
        e1,eng,Essay,2026-11-30
        l1,lit,Poem,2026-12-02
        h1,his,Map,2026-11-28
        a1,art,Sketch,

        """

    /// The repository's docs folder (the test runs from the package's root or below it).
    static func docsFile(_ name: String) throws -> String {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("docs/examples/" + name)
            if FileManager.default.fileExists(atPath: candidate.path) { return try String(contentsOf: candidate, encoding: .utf8) }
            folder = folder.deletingLastPathComponent()
        }
        throw HarnessError("docs/examples/\(name) not found above \(#filePath)")
    }

    static func htpasswd(_ sandbox: Sandbox, user: String, password: String) throws -> String {
        let hashed = try sandbox.runTool("openssl", ["passwd", "-apr1", password])
        guard hashed.exitCode == 0 else { throw HarnessError("openssl passwd failed:\n\(hashed)") }
        return user + ":" + hashed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + "\n"
    }

    /// The HTTP status and body of `path` on the server, with `user:password` if given.
    static func fetch(_ sandbox: Sandbox, port: Int, _ path: String, as credentials: String? = nil) throws -> (Int, String) {
        let (status, _, body) = try fetchTyped(sandbox, port: port, path, as: credentials)
        return (status, body)
    }

    /// The HTTP status, Content-Type and body of `path`.
    static func fetchTyped(_ sandbox: Sandbox, port: Int, _ path: String, as credentials: String? = nil) throws -> (Int, String, String) {
        var arguments = ["-s", "-o", "body.out", "-w", "%{http_code} %{content_type}", "http://127.0.0.1:\(port)\(path)"]
        if let credentials { arguments += ["-u", credentials] }
        let result = try sandbox.runTool("curl", arguments)
        let body = (try? String(decoding: sandbox.read("body.out"), as: UTF8.self)) ?? ""
        let parts = result.stdout.split(separator: " ", maxSplits: 1).map(String.init)
        return (Int(parts.first ?? "") ?? -1, parts.count > 1 ? parts[1] : "", body)
    }

    @Test func eachTeacherReadsOnlyTheirFolderAndTheAdministratorReadsEverything() throws {
        let sandbox = try Sandbox()
        try sandbox.write("drop/courses.csv", Self.courses)
        try sandbox.write("drop/tasks.csv", Self.tasks)
        let night = try sandbox.run([
            "--db", "db.sqlite", "--as-of", "2026-11-29T02:00:00Z", "nightly", "--imports", "drop", "--reports", "reports",
        ])
        #expect(night.exitCode == 0, "\(night)")
        let okafor = "teachers/amaka-okafor-8a68922c"
        #expect(sandbox.exists("reports/latest/" + okafor + "/index.html"), "the folder named in the docs' configuration")

        let admin = try Self.htpasswd(sandbox, user: "admin", password: "admin-secret")
        try sandbox.write("etc/htpasswd/admin", admin)
        // A teacher's file lists the administrator too: nginx takes the longest matching
        // location, so the administrator reaches a teacher's folder through it.
        try sandbox.write("etc/htpasswd/okafor", try Self.htpasswd(sandbox, user: "okafor", password: "okafor-secret") + admin)
        let port = 20_000 + Int.random(in: 0..<20_000)
        let server = try Self.docsFile("nginx-dashboard.conf")
            .replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(port);")
            .replacingOccurrences(of: "/srv/reports", with: sandbox.path("reports"))
            .replacingOccurrences(of: "/etc/dashboard", with: sandbox.path("etc"))
        #expect(server.contains("location /teachers/amaka-okafor-8a68922c/ {"))
        try sandbox.write("server.conf", server)
        try sandbox.write(
            "nginx.conf",
            """
            daemon off;
            master_process off;
            pid \(sandbox.path("nginx.pid"));
            error_log \(sandbox.path("nginx-error.log"));
            events { worker_connections 16; }
            http {
                access_log off;
                client_body_temp_path \(sandbox.path("tmp"));
                include \(sandbox.path("server.conf"));
            }

            """)
        try FileManager.default.createDirectory(atPath: sandbox.path("tmp"), withIntermediateDirectories: true)
        let nginx = Process()
        nginx.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        nginx.arguments = ["-p", sandbox.path(""), "-c", sandbox.path("nginx.conf")]
        nginx.standardOutput = FileHandle.nullDevice
        nginx.standardError = FileHandle.nullDevice
        try nginx.run()
        defer {
            // SIGKILL: nginx without a master process may outlive SIGTERM while it serves.
            kill(nginx.processIdentifier, SIGKILL)
            for _ in 0..<200 where nginx.isRunning { usleep(10_000) }
        }
        var ready = false
        for _ in 0..<100 where !ready {
            usleep(50_000)
            ready = (try? Self.fetch(sandbox, port: port, "/").0) == 401
        }
        let log = (try? String(decoding: sandbox.read("nginx-error.log"), as: UTF8.self)) ?? ""
        #expect(ready, "nginx did not answer on 127.0.0.1:\(port):\n\(log)")

        // The school's grid: the administrator only.
        #expect(try Self.fetch(sandbox, port: port, "/").0 == 401)
        #expect(try Self.fetch(sandbox, port: port, "/", as: "okafor:okafor-secret").0 == 401)
        let whole = try Self.fetch(sandbox, port: port, "/", as: "admin:admin-secret")
        #expect(whole.0 == 200 && whole.1.contains("HIS 3") && whole.1.contains("ART 4"), "\(whole)")
        #expect(try Self.fetch(sandbox, port: port, "/teachers/", as: "admin:admin-secret").0 == 200)

        // A teacher's folder: that teacher (and the administrator) only; exactly their courses.
        let folder = "/\(okafor)/"
        #expect(try Self.fetch(sandbox, port: port, folder).0 == 401)
        #expect(try Self.fetch(sandbox, port: port, folder, as: "okafor:wrong").0 == 401)
        let own = try Self.fetch(sandbox, port: port, folder, as: "okafor:okafor-secret")
        #expect(own.0 == 200, "\(own)")
        #expect(own.1.contains("ENG 1") && own.1.contains("LIT 2") && !own.1.contains("HIS 3") && !own.1.contains("ART 4"), "\(own.1)")
        #expect(try Self.fetch(sandbox, port: port, folder, as: "admin:admin-secret").0 == 200)
        // Another teacher's folder is not theirs.
        let reyes = "/teachers/tom-s-reyes-f079ce9b/"
        #expect(sandbox.exists("reports/latest" + reyes + "index.html"))
        #expect(try Self.fetch(sandbox, port: port, reyes, as: "okafor:okafor-secret").0 == 401)
        // Issue 27: the courses without a teacher (ART 4) are served under `location /`: the
        // administrator's, never a teacher's.
        let unassigned = "/teachers/unassigned/"
        #expect(sandbox.exists("reports/latest" + unassigned + "index.html"))
        #expect(try Self.fetch(sandbox, port: port, unassigned).0 == 401)
        #expect(try Self.fetch(sandbox, port: port, unassigned, as: "okafor:okafor-secret").0 == 401)
        let apart = try Self.fetch(sandbox, port: port, unassigned, as: "admin:admin-secret")
        #expect(apart.0 == 200 && apart.1.contains("ART 4") && !apart.1.contains("ENG 1") && !apart.1.contains("HIS 3"), "\(apart)")

        // Issue 28: a teacher's calendar feed is served as text/calendar behind their password.
        let feed = folder + "calendar.ics"
        #expect(try Self.fetch(sandbox, port: port, feed).0 == 401)
        #expect(try Self.fetch(sandbox, port: port, "/teachers/tom-s-reyes-f079ce9b/calendar.ics", as: "okafor:okafor-secret").0 == 401)
        let calendar = try Self.fetchTyped(sandbox, port: port, feed, as: "okafor:okafor-secret")
        #expect(calendar.0 == 200 && calendar.1 == "text/calendar; charset=utf-8", "\(calendar.0) \(calendar.1)")
        #expect(calendar.2.hasPrefix("BEGIN:VCALENDAR\r\n"))
        // Every other kind of page keeps its type.
        #expect(try Self.fetchTyped(sandbox, port: port, folder + "index.html", as: "okafor:okafor-secret").1 == "text/html; charset=utf-8")
        #expect(try Self.fetchTyped(sandbox, port: port, folder + "index.json", as: "okafor:okafor-secret").1.hasPrefix("application/json"))
    }
}
