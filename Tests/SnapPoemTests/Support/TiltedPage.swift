import CTesseract
import Foundation
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
}
