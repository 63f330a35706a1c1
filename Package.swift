// swift-tools-version: 6.0
// SPDX-License-Identifier: Apache-2.0
// snap-poem: photograph a poem, get it back as text, make it your own.
import PackageDescription

/// The functions of other libraries that CProcessOverrides defines
/// (Sources/CProcessOverrides/include/ProcessOverrides.h), exported by the programs that link
/// it, so that the dynamic linker binds Tesseract's and Leptonica's calls to them:
/// `snap-poem --version --verbose` says which are in effect, and SNAP_POEM_NO_OVERRIDES
/// switches them off. The SnapPoem library defines none of them.
let overrideExports = [
    "pixWriteMemPng", "_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_", "GOMP_parallel",
    "GOMP_parallel_sections", "GOMP_sections_next", "GOMP_sections_end_nowait", "omp_get_thread_num", "omp_get_num_threads",
    "pixErodeBrick", "pixDilateBrick", "pixOpenBrick", "pixCloseBrick", "png_create_read_struct", "png_create_write_struct",
    "jpeg_std_error",
].flatMap { ["-Xlinker", "--export-dynamic-symbol=\($0)"] }

let package = Package(
    name: "snap-poem",
    products: [
        .library(name: "SnapPoem", targets: ["SnapPoem"]),
        .executable(name: "snap-poem", targets: ["snap-poem"]),
    ],
    targets: [
        // Tesseract's C API and Leptonica in one module, so `Pix` is one type shared by both.
        // Only `SnapPoem` imports it; nothing C leaks into its public API. Both libraries are
        // linked by the names pkg-config gives: `tesseract` here, `lept` through CLeptonica.
        .systemLibrary(
            name: "CTesseract",
            pkgConfig: "tesseract",
            providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]
        ),
        // Leptonica's link flags from pkg-config (`-llept` on Debian 12, `-lleptonica` on 13).
        .systemLibrary(
            name: "CLeptonica",
            pkgConfig: "lept",
            providers: [.apt(["libleptonica-dev"])]
        ),
        // libheif, which decodes HEIC and AVIF (Debian libheif1: 1.15 on Debian 12, 1.19 on 13,
        // whose AV1 and HEVC decoders are the plugins libheif-plugin-dav1d and
        // libheif-plugin-libde265), opened with dlopen the first time a HEIF file is met: its
        // header gives the types (libheif-dev), and nothing links it, so a start of snap-poem
        // does not map its codecs. Only `SnapPoem`'s HEIFDecoder and LibrarySetup import it.
        .target(name: "CHeif"),
        // Spawning batch workers (posix_spawn with exact file descriptors): a header-only shim
        // over calls that Swift's Glibc module hides. Only `SnapPoem`'s Batch/ imports it.
        .systemLibrary(name: "CProcessControl"),
        // Tesseract's allocating calls behind try/catch, so a C++ std::bad_alloc becomes a
        // status code rather than terminating the process when it would unwind into Swift;
        // and the hooks through which a program's own overrides learn what the library does.
        // It defines no function of another library.
        .target(name: "CTesseractShim", dependencies: ["CTesseract", "CLeptonica"]),
        // The snap-poem executable's replacements of functions Tesseract and Leptonica call in
        // other libraries (include/ProcessOverrides.h): linked by the command line (and so by
        // the tests), never by the SnapPoem library, so a program that imports SnapPoem keeps
        // the libraries' own functions. libpng and libjpeg for the codec-messages override.
        .target(
            name: "CProcessOverrides", dependencies: ["CTesseract", "CLeptonica", "CTesseractShim"],
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
        ),
        // SNAP_POEM_TEST_HOOKS: the faults a batch worker can inject for the tests
        // (`WorkerFault`), compiled into debug builds only; release builds have none.
        .target(
            name: "SnapPoem",
            dependencies: ["CTesseract", "CTesseractShim", "CProcessControl", "CHeif"],
            swiftSettings: [.define("SNAP_POEM_TEST_HOOKS", .when(configuration: .debug))]
        ),
        // libmicrohttpd, the HTTP server library under `snap-poem serve` (Debian libmicrohttpd-dev).
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // The HTTP service's request handling: routes, options, statuses, bodies, the page.
        // No socket and no C: tests call it directly. The page's style sheet and script are
        // files compiled into the module as byte arrays (`PackageResources`), never looked up
        // at run time: the executable is installed alone, without a resource bundle.
        .target(
            name: "SnapPoemService", dependencies: ["SnapPoem"],
            resources: [.embedInCode("Page/Assets/page.css"), .embedInCode("Page/Assets/page.js")]
        ),
        // The HTTP server: a thin layer of libmicrohttpd under SnapPoemService.
        .target(name: "SnapPoemServer", dependencies: ["SnapPoem", "SnapPoemService", "CMicroHTTPD"]),
        // Process-wide guards armed only by the executable's entry point: a clear error when
        // libdispatch cannot create a thread (it would retry for ever), one malloc arena under an
        // address-space limit.
        .target(name: "CProcessGuard"),
        // The command line as a library that returns an exit code, so tests run it in-process.
        .target(name: "SnapPoemCLI", dependencies: ["SnapPoem", "SnapPoemServer", "CProcessGuard", "CProcessOverrides"]),
        // It exports the functions CProcessOverrides defines over the libraries' own, so that
        // the dynamic linker binds Tesseract's and Leptonica's calls to them (the 15 functions
        // of include/ProcessOverrides.h's table; `snap-poem --version --verbose` says which
        // overrides are in effect, and SNAP_POEM_NO_OVERRIDES switches them off).
        .executableTarget(
            name: "snap-poem", dependencies: ["SnapPoemCLI"],
            linkerSettings: [.unsafeFlags(overrideExports)]
        ),
        // The manual page and shell completions, from the option table, for `make install`
        // and `make deb` (not installed itself).
        .executableTarget(name: "snap-poem-generate", dependencies: ["SnapPoemCLI"]),
        // `make bench`: stage timings and a side-by-side comparison with the tesseract CLI.
        .executableTarget(name: "snap-poem-bench", dependencies: ["SnapPoem"]),
        // What every test target shares: running a child process without a pipe deadlock.
        .target(name: "SnapPoemTestSupport", path: "Tests/Support"),
        // The test process set up as the executable sets itself up (the overrides installed
        // at load), so that in-process tests read as the command does.
        .target(name: "SnapPoemTestSetup", dependencies: ["CProcessOverrides", "CLeptonica"], path: "Tests/Setup"),
        .testTarget(name: "SnapPoemTests", dependencies: ["SnapPoem", "SnapPoemTestSupport", "SnapPoemTestSetup"]),
        // The tests' process exports the overrides too, as the executable does.
        .testTarget(
            name: "SnapPoemCLITests",
            dependencies: ["SnapPoemCLI", "SnapPoem", "SnapPoemTestSupport", "SnapPoemTestSetup", "CProcessOverrides"],
            linkerSettings: [.unsafeFlags(overrideExports)]),
        // Browser/ holds the Selenium script the browser test runs.
        .testTarget(
            name: "SnapPoemServiceTests", dependencies: ["SnapPoemService", "SnapPoem", "SnapPoemTestSupport", "SnapPoemTestSetup"],
            exclude: ["Browser"]),
    ],
    swiftLanguageModes: [.v6]
)
