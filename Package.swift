// swift-tools-version: 6.0
// snap-poem: photograph a poem, get it back as text, make it your own.
import PackageDescription

let package = Package(
    name: "snap-poem",
    products: [
        .library(name: "SnapPoem", targets: ["SnapPoem"]),
        .executable(name: "snap-poem", targets: ["snap-poem"]),
    ],
    targets: [
        // Tesseract's C API and Leptonica in one module, so `Pix` is one complete type
        // shared by both. Only `SnapPoem` imports it; nothing C leaks into its public API.
        .systemLibrary(
            name: "CTesseract",
            pkgConfig: "tesseract",
            providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]
        ),
        // Tesseract's allocating calls behind try/catch, so a C++ std::bad_alloc becomes a
        // status code rather than terminating the process when it would unwind into Swift.
        .target(name: "CTesseractShim", dependencies: ["CTesseract"]),
        .target(
            name: "SnapPoem",
            dependencies: ["CTesseract", "CTesseractShim"]
        ),
        // Process-wide guards armed only by the executable's entry point: a clear error when
        // libdispatch cannot create a thread (it would retry for ever), one malloc arena.
        .target(name: "CProcessGuard"),
        // The command line as a library that returns an exit code, so tests run it in-process.
        .target(name: "SnapPoemCLI", dependencies: ["SnapPoem", "CProcessGuard"]),
        .executableTarget(name: "snap-poem", dependencies: ["SnapPoemCLI"]),
        // `make bench`: stage timings and a side-by-side comparison with the tesseract CLI.
        .executableTarget(name: "snap-poem-bench", dependencies: ["SnapPoem"]),
        .testTarget(name: "SnapPoemTests", dependencies: ["SnapPoem"]),
        .testTarget(name: "SnapPoemCLITests", dependencies: ["SnapPoemCLI", "SnapPoem"]),
    ],
    swiftLanguageModes: [.v6]
)
