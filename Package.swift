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
        .target(
            name: "CSQLiteConfig",
            dependencies: ["CSQLite"]
        ),
        .target(
            name: "DashboardCore",
            dependencies: ["CCSV", "CSQLite", "CCrypto", "CSQLiteConfig"]
        ),
        .executableTarget(
            name: "dashboard",
            dependencies: ["DashboardCore"]
        ),
        .executableTarget(
            name: "dashboard-datagen",
            path: "Sources/dashboard-datagen"
        ),
        .testTarget(
            name: "DashboardCoreTests",
            dependencies: ["DashboardCore"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["DashboardCore"],
            exclude: ["Goldens"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
