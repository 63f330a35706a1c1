import CProcessOverrides
import Foundation
import SnapPoem
import SnapPoemTestSupport
import Testing

/// snap-poem's definitions of Leptonica's brick morphology (the brick-morphology override,
/// `Sources/CProcessOverrides/BrickMorphology.cpp`, which Tesseract's search for ruled lines
/// calls) give the same words
/// as Leptonica's own, and are the ones a library calling them is given.
@Suite("Brick morphology in logarithmic passes gives Leptonica's words")
struct BrickMorphologyTests {
    /// The four functions, in the order `snap_poem_leptonica_brick` numbers them.
    static let functions: [(name: String, call: @Sendable (PixPointer, Int32, Int32) -> PixPointer?)] = [
        ("pixErodeBrick", { pixErodeBrick(nil, $0, $1, $2) }),
        ("pixDilateBrick", { pixDilateBrick(nil, $0, $1, $2) }),
        ("pixOpenBrick", { pixOpenBrick(nil, $0, $1, $2) }),
        ("pixCloseBrick", { pixCloseBrick(nil, $0, $1, $2) }),
    ]

    /// Frees an image made here.
    static func destroy(_ pix: PixPointer) {
        var owned: PixPointer? = pix
        pixDestroy(&owned)
    }

    /// Every word of an image, the bits past the width included.
    static func words(of pix: PixPointer) -> [UInt32] {
        let count = Int(pixGetWpl(pix)) * Int(pixGetHeight(pix))
        return Array(UnsafeBufferPointer(start: pixGetData(pix), count: count))
    }

    /// A 1-bit image of `width` × `height` with each pixel ON with probability `density`,
    /// and, when `ruled`, a few long lines across and down as Tesseract's line finder seeks.
    static func randomImage(
        width: Int32, height: Int32, density: Double, ruled: Bool, using generator: inout SeededGenerator
    ) throws -> PixPointer {
        let pix = try #require(pixCreate(width, height, 1))
        for y in 0..<height {
            for x in 0..<width where Double.random(in: 0..<1, using: &generator) < density {
                pixSetPixel(pix, x, y, 1)
            }
        }
        if ruled {
            for _ in 0..<3 {
                let row = Int32.random(in: 0..<height, using: &generator)
                let column = Int32.random(in: 0..<width, using: &generator)
                for x in 0..<width { pixSetPixel(pix, x, row, 1) }
                for y in 0..<height { pixSetPixel(pix, column, y, 1) }
            }
        }
        return pix
    }

    /// Compares each function with Leptonica's on `pix` for every brick in `sizes` × `sizes`.
    static func compareAll(on pix: PixPointer, sizes: [Int32], label: String) throws {
        for (kind, function) in functions.enumerated() {
            for hsize in sizes {
                for vsize in sizes {
                    let ours = try #require(function.call(pix, hsize, vsize), "\(function.name) \(hsize)×\(vsize)")
                    let leptonica = try #require(snap_poem_leptonica_brick(Int32(kind), pix, hsize, vsize))
                    defer {
                        Self.destroy(ours)
                        Self.destroy(leptonica)
                    }
                    #expect(pixGetWpl(ours) == pixGetWpl(leptonica))
                    let same = words(of: ours) == words(of: leptonica)
                    #expect(same, "\(function.name)(\(hsize), \(vsize)) on \(label)")
                    if !same { return }
                }
            }
        }
    }

    /// Leptonica's library as this process loaded it (`liblept.so.5` on Debian 12,
    /// `libleptonica.so.6` on Debian 13): the mapped file whose name starts with "liblept".
    /// (Read with FileHandle: `String(contentsOfFile:)` stops after 4 KiB of a /proc file.)
    static func leptonicaLibrary() throws -> UnsafeMutableRawPointer {
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        defer { try? file.close() }
        let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        let path = try #require(
            maps.split(separator: "\n").lazy
                .compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first }
                .first { $0.split(separator: "/").last?.hasPrefix("liblept") == true },
            "no liblept* library is mapped")
        return try #require(dlopen(String(path), RTLD_NOW | RTLD_NOLOAD), "\(path) is loaded")
    }

    @Test("The definitions a library's call is bound to are snap-poem's, not liblept's")
    func boundToTheShim() throws {
        let liblept = try Self.leptonicaLibrary()
        defer { dlclose(liblept) }
        for function in Self.functions {
            let bound = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), function.name))
            let leptonicas = try #require(dlsym(liblept, function.name))
            #expect(bound != leptonicas, "\(function.name) is bound to liblept's own definition")
        }
    }

    @Test(
        "Random images of every width around a word's, every brick up to past a word long",
        arguments: [(1, 1), (5, 3), (31, 7), (32, 32), (33, 40), (64, 9), (100, 37), (257, 91)] as [(Int32, Int32)])
    func randomImages(width: Int32, height: Int32) throws {
        var generator = SeededGenerator(seed: UInt64(width) << 16 | UInt64(height))
        let sizes: [Int32] = [1, 2, 3, 4, 5, 8, 15, 16, 17, 31, 33, 64, 75, 130]
        for (density, ruled) in [(0.5, false), (0.92, false), (0.08, true)] {
            let pix = try Self.randomImage(
                width: width, height: height, density: density, ruled: ruled, using: &generator)
            defer { Self.destroy(pix) }
            try Self.compareAll(on: pix, sizes: sizes, label: "\(width)×\(height), density \(density)")
        }
    }

    @Test("A thresholded page, with the bricks Tesseract uses at 300 and 600 dpi")
    func thresholdedPage() throws {
        let page = try #require(pixRead(Fixtures.sample("Lenore.png")))
        defer { Self.destroy(page) }
        let binary = try #require(pixConvertTo1(page, 160))
        defer { Self.destroy(binary) }
        // LineFinder at 300 dpi: closing 5, opening 15, bars of 75 (and 10, 30, 150 at 600);
        // the line residue's erosion 6 × 1 and the dilations of 3 and 5.
        try Self.compareAll(on: binary, sizes: [1, 3, 6, 15, 75, 150], label: "Lenore.png")
    }

    @Test("A result into an existing image goes to Leptonica, and is the same as its own")
    func existingTargetIsLeptonicas() throws {
        var generator = SeededGenerator(seed: 7)
        let pix = try Self.randomImage(width: 70, height: 50, density: 0.6, ruled: false, using: &generator)
        defer { Self.destroy(pix) }
        let target = try #require(pixCreateTemplate(pix))
        defer { Self.destroy(target) }
        #expect(pixOpenBrick(target, pix, 9, 4) == target)
        let leptonica = try #require(snap_poem_leptonica_brick(2, pix, 9, 4))
        defer { Self.destroy(leptonica) }
        var same: Int32 = 0
        #expect(pixEqual(target, leptonica, &same) == 0 && same == 1)
    }

    @Test("A brick longer than the 4096 pixels computed here goes to Leptonica, and gives its result")
    func longestBrickIsLeptonicas() throws {
        var generator = SeededGenerator(seed: 11)
        let pix = try Self.randomImage(width: 40, height: 30, density: 0.9, ruled: true, using: &generator)
        defer { Self.destroy(pix) }
        try Self.compareAll(on: pix, sizes: [1, 4097], label: "40×30")
    }

    @Test("What Leptonica refuses is refused the same way: a brick of 0, an 8-bit image")
    func refusals() throws {
        let gray = try #require(pixCreate(20, 20, 8))
        defer { Self.destroy(gray) }
        let binary = try #require(pixCreate(20, 20, 1))
        defer { Self.destroy(binary) }
        #expect(pixOpenBrick(nil, gray, 3, 3) == nil)
        #expect(pixCloseBrick(nil, binary, 0, 3) == nil)
    }
}
