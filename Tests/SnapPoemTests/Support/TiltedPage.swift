import CTesseract
import Foundation
import SnapPoemTestSupport
import Testing

@testable import SnapPoem

/// Tilted pages built from an upright render, as the tilt-sweep tests need them: the text
/// turned on white paper, or turned inside a sheet whose edges stay straight, lying on a dark
/// table (the photo of issue 9, where the sheet's edges outvoted the text in the skew search).
enum TiltedPage {
    /// Where the tilted text ends up.
    enum Background: String, CaseIterable, Sendable, CustomStringConvertible {
        /// The text turned, the canvas enlarged with white so that nothing is cut off.
        case white
        /// The text turned inside a sheet of the render's size plus a white margin, whose
        /// edges stay straight, on a dark table.
        case darkTable

        var description: String { rawValue }
    }

    /// `image` (8-bit grey, upright) with its text turned `degrees` clockwise (negative:
    /// counter-clockwise), set on `background` (`pixRotate`, `pixAddBorderGeneral`).
    static func make(_ image: PoemImage, clockwiseDegrees degrees: Double, on background: Background) throws -> PoemImage {
        let gray = try ImagePreprocessor.grayscale(image)
        switch background {
        case .white:
            return try ImagePreprocessor.deskewed(gray, angle: degrees)
        case .darkTable:
            // A white margin first, so that turning inside the sheet cuts no text off.
            let margin = Int(Double(max(gray.width, gray.height)) * 0.08)
            let sheet = try #require(
                gray.pix.attempt { pixAddBorderGeneral($0, Int32(margin), Int32(margin), Int32(margin), Int32(margin), 255) })
            let radians = Float(degrees * Double.pi / 180)
            let turned =
                abs(degrees) < 0.05
                ? sheet
                : try #require(sheet.attempt { pixRotate($0, radians, Int32(L_ROTATE_AREA_MAP), Int32(L_BRING_IN_WHITE), 0, 0) })
            let table = Int(Double(max(gray.width, gray.height)) * 0.1)
            let photo = try #require(
                turned.attempt { pixAddBorderGeneral($0, Int32(table), Int32(table), Int32(table), Int32(table), 52) })
            return PoemImage(pix: photo)
        }
    }

    /// `image` set upright on a dark table with grain, as a phone's sensor and JPEG leave a
    /// dark wooden table: each 3×3 px speck of the table a random grey level of 40–55 (a fixed seed), and the
    /// sheet's paper darkened toward its right edge by `shading` (0: even light; 0.6: the
    /// right edge at 40 % of the left's brightness, the text there too).
    /// `table` is the width of the table around the sheet, as a share of the render's longer
    /// side.
    static func onGrainyTable(_ image: PoemImage, shading: Double = 0, table tableShare: Double = 0.1) throws -> PoemImage {
        let sheetOnly = try make(image, clockwiseDegrees: 0, on: .darkTable).pix
        let table = Int(Double(max(image.width, image.height)) * tableShare)
        let extra = table - Int(Double(max(image.width, image.height)) * 0.1)
        let photo =
            extra <= 0
            ? sheetOnly
            : try #require(
                sheetOnly.attempt { pixAddBorderGeneral($0, Int32(extra), Int32(extra), Int32(extra), Int32(extra), 52) })
        let sheet = (x: table..<(photo.width - table), y: table..<(photo.height - table))
        var generator = SeededGenerator(seed: 7)
        let grain = (0..<((photo.height / 3 + 1) * (photo.width / 3 + 1))).map { _ in UInt32(40 + generator.next() % 16) }
        for y in 0..<photo.height {
            for x in 0..<photo.width {
                if sheet.x.contains(x), sheet.y.contains(y) {
                    guard shading > 0 else { continue }
                    var value: UInt32 = 0
                    pixGetPixel(photo.pointer, Int32(x), Int32(y), &value)
                    let across = Double(x - sheet.x.lowerBound) / Double(sheet.x.count)
                    pixSetPixel(photo.pointer, Int32(x), Int32(y), UInt32((Double(value) * (1 - shading * across)).rounded()))
                } else {
                    pixSetPixel(photo.pointer, Int32(x), Int32(y), grain[(y / 3) * (photo.width / 3 + 1) + x / 3])
                }
            }
        }
        return PoemImage(pix: photo)
    }
}
