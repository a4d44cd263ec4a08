// swift-tools-version:6.0
// A data-quality suite of a school's exports, as a district would write one: its own Swift
// package whose tests use the dashboard's library (DashboardCore) to check each export before it
// reaches the school (docs/library.md). It depends on the dashboard by path; a suite elsewhere
// names the repository instead: .package(url: "https://…/dashboard.git", branch: "main").
import PackageDescription

let package = Package(
    name: "DataQualitySuite",
    dependencies: [
        .package(name: "dashboard", path: "../..")
    ],
    targets: [
        // The suite's own rules on top of the dashboard's (what "ready for the school" means).
        .target(
            name: "DataQualitySuite",
            dependencies: [.product(name: "DashboardCore", package: "dashboard")]
        ),
        .testTarget(
            name: "DataQualitySuiteTests",
            dependencies: ["DataQualitySuite", .product(name: "DashboardCore", package: "dashboard")],
            exclude: ["Exports"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
