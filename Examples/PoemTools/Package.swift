// swift-tools-version: 6.0
// Two small tools that use snap-poem the way any other Swift package would: through its
// `SnapPoem` library product and nothing else. `make test` builds and runs them, so a change
// that breaks the public API fails the tests.
import PackageDescription

let package = Package(
    name: "PoemTools",
    dependencies: [
        // The snap-poem checkout this folder is in. A path dependency's identity is the name
        // of its folder (`snap-poem`, `main`, `issue-12`, …); `name:` makes the
        // `package: "snap-poem"` below find it whatever the folder is called.
        .package(name: "snap-poem", path: "../..")
    ],
    targets: [
        .executableTarget(name: "poem-to-json", dependencies: [.product(name: "SnapPoem", package: "snap-poem")]),
        .executableTarget(name: "poem-batch", dependencies: [.product(name: "SnapPoem", package: "snap-poem")]),
    ],
    swiftLanguageModes: [.v6]
)
