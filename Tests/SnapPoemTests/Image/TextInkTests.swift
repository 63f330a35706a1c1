import Foundation
import Testing

@testable import SnapPoem

@Suite("Text-like ink: letter-sized shapes in rows on a baseline")
struct TextInkTests {
    /// How many lines the rows of `ink` stand on: a row breaks where a gap is wider than
    /// `TextInk.widestGap` (around a long dash, for one), so rows on one line are counted once,
    /// by their offset across the text's tilt.
    static func lineCount(of ink: TextInk, tilt degrees: Double) -> Int {
        let slope = tan(degrees * Double.pi / 180)
        let offsets = ink.rows.map { $0.box.centerY - slope * $0.box.centerX }.sorted()
        var lines = 0, last = -Double.infinity
        for offset in offsets where offset - last > 0.8 * ink.xHeight {
            lines += 1
            last = offset
        }
        return lines
    }

    @Test("Lenore.png: one row per line of the poem, at the poem's x-height")
    func lenore() throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("Lenore.png"))
        let ink = try TextInk.find(in: image)
        let lines = try Fixtures.groundTruth(for: "Lenore.png").split(separator: "\n").count
        #expect(Self.lineCount(of: ink, tilt: 0) == lines, "\(ink.rows.map(\.box))")
        #expect(abs(ink.xHeight - 21) <= 3, "x-height \(ink.xHeight)")
        let whole = BoundingBox(left: 0, top: 0, right: image.width, bottom: image.height)
        #expect(abs(ink.tilt(within: whole)) < 0.2)
        #expect(ink.shapeCount > 1000)
    }

    @Test("Blank paper and a drawing hold no text-like ink", arguments: ["blank.png", "illustration.png"])
    func noText(file: String) throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample(file))
        let ink = try TextInk.find(in: image)
        #expect(ink.rows.isEmpty, "\(file): \(ink.rows.map(\.box))")
        #expect(ink.shapeCount == 0)
    }

    @Test("Rows follow tilted lines, and their tilt is measured", arguments: [-4.0, 4.0])
    func tilted(angle: Double) throws {
        let render = try ImageDecoder.decode(fileAt: Fixtures.sample("tilt/lenore-stanzas-3-4.png")).image
        let tilted = try ImagePreprocessor.deskewed(render, angle: angle)
        let ink = try TextInk.find(in: tilted)
        #expect(Self.lineCount(of: ink, tilt: angle) == 14, "\(ink.rows.map(\.box))")
        let whole = BoundingBox(left: 0, top: 0, right: tilted.width, bottom: tilted.height)
        #expect(abs(ink.tilt(within: whole) - angle) <= 0.3, "tilt \(ink.tilt(within: whole))")
    }

    @Test("A region limits the ink to the rows whose shapes lie in it")
    func region() throws {
        let (image, _) = try ImageDecoder.decode(fileAt: Fixtures.sample("tilt/lenore-stanzas-3-4.png"))
        let top = BoundingBox(left: 0, top: 0, right: image.width, bottom: image.height / 2)
        let all = try TextInk.find(in: image), upper = try TextInk.find(in: image, within: top)
        #expect(upper.rows.count > 3 && upper.rows.count < all.rows.count)
        #expect(upper.rows.allSatisfy { $0.box.bottom <= top.bottom + 30 })
    }
}
