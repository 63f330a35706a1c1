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
        // libheif, which decodes HEIC and AVIF (Debian libheif-dev: 1.15 on Debian 12, 1.19 on
        // 13, whose AV1 and HEVC decoders are the plugins libheif-plugin-dav1d and
        // libheif-plugin-libde265). Only `SnapPoem`'s Image/HEIFDecoder.swift imports it.
        .systemLibrary(
            name: "CHeif",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]
        ),
        // Spawning batch workers (posix_spawn with exact file descriptors): a header-only shim
        // over calls that Swift's Glibc module hides. Only `SnapPoem`'s Batch/ imports it.
        .systemLibrary(name: "CProcessControl"),
        // Tesseract's allocating calls behind try/catch, so a C++ std::bad_alloc becomes a
        // status code rather than terminating the process when it would unwind into Swift.
        // It also defines the functions by which Leptonica creates libpng's and libjpeg's
        // state (CodecMessages.cpp, quiet handlers); linking the two libraries makes every
        // program that links the shim export those definitions, the tests' too.
        .target(
            name: "CTesseractShim", dependencies: ["CTesseract", "CLeptonica"],
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
        // No socket and no C: tests call it directly.
        .target(name: "SnapPoemService", dependencies: ["SnapPoem"]),
        // The HTTP server: a thin layer of libmicrohttpd under SnapPoemService.
        .target(name: "SnapPoemServer", dependencies: ["SnapPoem", "SnapPoemService", "CMicroHTTPD"]),
        // Process-wide guards armed only by the executable's entry point: a clear error when
        // libdispatch cannot create a thread (it would retry for ever), one malloc arena under an
        // address-space limit.
        .target(name: "CProcessGuard"),
        // The command line as a library that returns an exit code, so tests run it in-process.
        .target(name: "SnapPoemCLI", dependencies: ["SnapPoem", "SnapPoemServer", "CProcessGuard"]),
        // It exports the functions CTesseractShim defines over the libraries' own: Leptonica's
        // pixWriteMemPng, so that the line images Tesseract keeps in memory are stored without
        // deflate (LineImageEncoding.cpp); Tesseract's UnicharAmbigs::LoadUniversal, so that
        // an LSTM-only engine does not parse the legacy engine's ambiguity table
        // (UniversalAmbiguities.cpp); libpng's and libjpeg's constructors of codec state, so
        // that the codecs print nothing of their own (CodecMessages.cpp); the OpenMP entry
        // points Tesseract calls, so that its regions run inline on the threads that run it
        // (SerialOpenMP.cpp); Leptonica's four brick morphology functions, computed in
        // logarithmic passes to the same words (BrickMorphology.cpp). The linker exports a definition that a linked library also
        // has in any program (the tests' too); the flags say so explicitly for the one shipped.
        .executableTarget(
            name: "snap-poem", dependencies: ["SnapPoemCLI"],
            linkerSettings: [
                .unsafeFlags([
                    "-Xlinker", "--export-dynamic-symbol=pixWriteMemPng",
                    "-Xlinker", "--export-dynamic-symbol=_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_",
                    "-Xlinker", "--export-dynamic-symbol=png_create_read_struct",
                    "-Xlinker", "--export-dynamic-symbol=png_create_write_struct",
                    "-Xlinker", "--export-dynamic-symbol=jpeg_std_error",
                    "-Xlinker", "--export-dynamic-symbol=GOMP_parallel",
                    "-Xlinker", "--export-dynamic-symbol=GOMP_parallel_sections",
                    "-Xlinker", "--export-dynamic-symbol=GOMP_sections_next",
                    "-Xlinker", "--export-dynamic-symbol=GOMP_sections_end_nowait",
                    "-Xlinker", "--export-dynamic-symbol=omp_get_thread_num",
                    "-Xlinker", "--export-dynamic-symbol=omp_get_num_threads",
                    "-Xlinker", "--export-dynamic-symbol=pixErodeBrick",
                    "-Xlinker", "--export-dynamic-symbol=pixDilateBrick",
                    "-Xlinker", "--export-dynamic-symbol=pixOpenBrick",
                    "-Xlinker", "--export-dynamic-symbol=pixCloseBrick",
                ])
            ]
        ),
        // The manual page and shell completions, from the option table, for `make install`
        // and `make deb` (not installed itself).
        .executableTarget(name: "snap-poem-generate", dependencies: ["SnapPoemCLI"]),
        // `make bench`: stage timings and a side-by-side comparison with the tesseract CLI.
        .executableTarget(name: "snap-poem-bench", dependencies: ["SnapPoem"]),
        // What every test target shares: running a child process without a pipe deadlock.
        .target(name: "SnapPoemTestSupport", path: "Tests/Support"),
        .testTarget(name: "SnapPoemTests", dependencies: ["SnapPoem", "SnapPoemTestSupport"]),
        .testTarget(name: "SnapPoemCLITests", dependencies: ["SnapPoemCLI", "SnapPoem", "SnapPoemTestSupport"]),
        // Browser/ holds the Selenium script the browser test runs.
        .testTarget(
            name: "SnapPoemServiceTests", dependencies: ["SnapPoemService", "SnapPoem", "SnapPoemTestSupport"], exclude: ["Browser"]),
    ],
    swiftLanguageModes: [.v6]
)
