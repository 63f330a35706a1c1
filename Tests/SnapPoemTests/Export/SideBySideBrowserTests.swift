import CTesseract
import Foundation
import SnapPoemTestSupport
import Testing

@testable import SnapPoem

/// The side-by-side page in a real browser: Debian's Chromium, headless, takes screenshots
/// that are then read pixel by pixel. `make test-system` installs it (`make deps-browser`); without
/// it the suite is skipped.
@Suite("HTML side by side in headless Chromium", SystemTool.chromium.required)
struct SideBySideBrowserTests {
    /// Debian's Chromium.
    static let chromium = "/usr/bin/chromium"

    /// A screenshot of `page` (with `fragment` after `#`, if any) in a window of `width` ×
    /// `height` CSS pixels, decoded. Chromium runs on a thread of its own, so that waiting for
    /// it blocks none of Swift's cooperative threads.
    static func screenshot(of page: URL, fragment: String? = nil, width: Int, height: Int) async throws -> PoemImage {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shot = folder.appendingPathComponent("shot.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-extensions",
            "--user-data-dir=\(folder.appendingPathComponent("profile").path)", "--window-size=\(width),\(height)",
            "--screenshot=\(shot.path)", page.absoluteString + (fragment.map { "#\($0)" } ?? ""),
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "snap-poem-tests.chromium").async {
                do {
                    try process.run()
                    // A loaded machine may be slow; a hung browser must not hang the tests.
                    let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
                    DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: watchdog)
                    process.waitUntilExit()
                    watchdog.cancel()
                    continuation.resume(returning: process.terminationStatus)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        try #require(status == 0, "Chromium exited with \(status)")
        return try ImageDecoder.decode(fileAt: shot.path).image
    }

    /// How many pixels of `area` are within `tolerance` of `colour` in every channel.
    static func count(_ colour: RGBColor, in image: PoemImage, area: BoundingBox, tolerance: Int = 28) throws -> Int {
        let colour32 = image.bitsPerPixel == 32 ? image : try #require(ImageTesting.colour(image))
        var found = 0
        for y in stride(from: area.top, to: min(area.bottom, colour32.height), by: 1) {
            for x in stride(from: area.left, to: min(area.right, colour32.width), by: 1) {
                var red: Int32 = 0, green: Int32 = 0, blue: Int32 = 0
                pixGetRGBPixel(colour32.pix.pointer, Int32(x), Int32(y), &red, &green, &blue)
                if abs(Int(red) - Int(colour.red)) <= tolerance && abs(Int(green) - Int(colour.green)) <= tolerance
                    && abs(Int(blue) - Int(colour.blue)) <= tolerance
                {
                    found += 1
                }
            }
        }
        return found
    }

    /// The Lenore page, written to a temporary folder (removed by the caller).
    static func lenorePage() async throws -> (page: URL, folder: URL) {
        let poem = try await SideBySideHTMLExporterTests.lenore()
        let folder = try Fixtures.temporaryFolder()
        let page = folder.appendingPathComponent("for-alex.html")
        try SideBySideHTMLExporter().export(poem).write(to: page)
        return (page, folder)
    }

    @Test("Wide: the poem on the left, the boxed photo on the right; a replaced word's link lights up both")
    func wide() async throws {
        let (page, folder) = try await Self.lenorePage()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Tall enough that the whole page fits: following a link then scrolls nothing.
        let plain = try await Self.screenshot(of: page, width: 1280, height: 2200)
        #expect(plain.width == 1280 && plain.height == 2200)
        let left = BoundingBox(left: 0, top: 0, right: 640, bottom: 2200), right = BoundingBox(left: 640, top: 0, right: 1280, bottom: 2200)
        let style = AnnotationStyle.standard
        let blue = (
            left: try Self.count(style.sureColor, in: plain, area: left), right: try Self.count(style.sureColor, in: plain, area: right)
        )
        #expect(blue.right > 2_000, "the blue boxes on the photo: \(blue.right) pixels")
        #expect(blue.left < blue.right / 20, "no boxes over the poem: \(blue.left) pixels")

        // Following Zoë's link (the same rule lights it on hover and keyboard focus).
        let targeted = try await Self.screenshot(of: page, fragment: "change-2", width: 1280, height: 2200)
        let greenBefore = (
            try Self.count(style.replacedColor, in: plain, area: left), try Self.count(style.replacedColor, in: plain, area: right)
        )
        let greenAfter = (
            try Self.count(style.replacedColor, in: targeted, area: left), try Self.count(style.replacedColor, in: targeted, area: right)
        )
        #expect(greenAfter.0 > greenBefore.0 + 150, "the word's outline: \(greenBefore.0) → \(greenAfter.0) green pixels")
        #expect(greenAfter.1 > greenBefore.1 + 300, "its three boxes' outlines: \(greenBefore.1) → \(greenAfter.1) green pixels")
    }

    @Test("Narrow (a phone): the photo goes below the poem")
    func narrow() async throws {
        let (page, folder) = try await Self.lenorePage()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shot = try await Self.screenshot(of: page, width: 390, height: 3200)
        let style = AnnotationStyle.standard
        let top = try Self.count(style.sureColor, in: shot, area: BoundingBox(left: 0, top: 0, right: 390, bottom: 1600))
        let bottom = try Self.count(style.sureColor, in: shot, area: BoundingBox(left: 0, top: 1600, right: 390, bottom: 3200))
        #expect(top < 300 && bottom > 1_000, "blue box pixels: \(top) in the top half, \(bottom) below")
    }
}

/// Conversions the screenshot checks need.
enum ImageTesting {
    /// A 32-bit colour copy of `image`, or nil.
    static func colour(_ image: PoemImage) -> PoemImage? {
        image.pix.attempt { pixConvertTo32($0) }.map(PoemImage.init(pix:))
    }
}
