// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "dashboard",
    products: [
        .library(name: "DashboardCore", targets: ["DashboardCore"]),
        .executable(name: "dashboard", targets: ["dashboard"]),
        .executable(name: "dashboard-datagen", targets: ["dashboard-datagen"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCSV",
            providers: [.apt(["libcsv-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // The PostgreSQL store (docs/postgresql.md).
        .systemLibrary(
            name: "CPostgreSQL",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(
            name: "CSQLiteConfig",
            dependencies: ["CSQLite"]
        ),
        .target(
            name: "DashboardCore",
            dependencies: ["CCSV", "CSQLite", "CCrypto", "CSQLiteConfig", "CPostgreSQL"]
        ),
        .executableTarget(
            name: "dashboard",
            dependencies: ["DashboardCore"]
        ),
        .executableTarget(
            name: "dashboard-datagen",
            path: "Sources/dashboard-datagen"
        ),
        // A throwaway PostgreSQL server for the test targets (started once per test process).
        .target(
            name: "PostgresTestSupport",
            path: "Tests/PostgresTestSupport"
        ),
        .testTarget(
            name: "DashboardCoreTests",
            dependencies: ["DashboardCore", "PostgresTestSupport"]
        ),
        // The end-to-end tests run the `dashboard` binary SwiftPM builds beside them: the
        // dependency makes `swift build --build-tests` (and `swift test`) build it first.
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["DashboardCore", "dashboard", "PostgresTestSupport"],
            exclude: ["Goldens"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
