import CTesseract
import Foundation

/// How to size the image before recognition.
public enum ScalingMode: Sendable, Equatable, Codable {
    /// Leave the size as it is.
    case original
    /// Shrink so that the longer side is at most this many pixels, keeping the aspect ratio;
    /// never enlarges. New sides are `round(side × factor)` (Leptonica's `pixScale`).
    case maxDimension(Int)
}

/// The contrast filter applied to the grey image.
public enum ImageFilter: String, Sendable, Equatable, Codable, CaseIterable {
    /// Grey only: Tesseract's own Otsu threshold does the rest.
    case none
    /// The original app's "black and white" filter: desaturate, contrast × 1.1 around mid-grey,
    /// then exposure +0.7 EV (values × 2^0.7 ≈ 1.62), clamped; one lookup table on 8-bit grey.
    case blackAndWhite = "black-and-white"
}

/// What to do to a decoded image before recognition.
public struct PreprocessingOptions: Sendable, Equatable, Codable {
    /// How to size the image. Default: longest side at most 4000 px.
    public var scaling: ScalingMode
    /// The contrast filter. Default: `.blackAndWhite`.
    public var filter: ImageFilter

    /// Creates preprocessing options; `maxDimension` sizes must be at least 16 px.
    public init(scaling: ScalingMode = .maxDimension(4000), filter: ImageFilter = .blackAndWhite) {
        if case .maxDimension(let side) = scaling {
            precondition(side >= 16, "maxDimension must be at least 16 pixels")
        }
        self.scaling = scaling
        self.filter = filter
    }
}

/// The image stage of the pipeline: each step is a pure function from image to image, and
/// `prepare(_:options:)` runs them in order (grey → scale → filter).
public enum ImagePreprocessor {
    /// Runs every step that `options` asks for and returns what Tesseract should see.
    public static func prepare(_ image: PoemImage, options: PreprocessingOptions) -> PoemImage {
        var result = grayscale(image)
        result = scaled(result, mode: options.scaling)
        result = filtered(result, with: options.filter)
        return result
    }

    /// Converts to 8-bit grey (colour by luminance, palettes resolved, 1-bit expanded).
    public static func grayscale(_ image: PoemImage) -> PoemImage {
        let pix = image.pix
        if pix.depth == 8 && !pix.hasColormap { return image }
        return PoemImage(pix: pix.transformed("pixConvertTo8") { pixConvertTo8($0, 0) })
    }

    /// Scales according to `mode`; returns the same image when no change is needed.
    public static func scaled(_ image: PoemImage, mode: ScalingMode) -> PoemImage {
        guard case .maxDimension(let limit) = mode else { return image }
        let longest = max(image.width, image.height)
        guard longest > limit else { return image }
        let factor = Float(limit) / Float(longest)
        return PoemImage(pix: image.pix.transformed("pixScale") { pixScale($0, factor, factor) })
    }

    /// Applies the contrast filter to an 8-bit grey image (others are converted first).
    public static func filtered(_ image: PoemImage, with filter: ImageFilter) -> PoemImage {
        switch filter {
        case .none:
            return image
        case .blackAndWhite:
            let gray = grayscale(image)
            return PoemImage(pix: gray.pix.mapped(through: blackAndWhiteTable))
        }
    }

    /// The lookup table of `.blackAndWhite`: contrast 1.1 around 0.5, then exposure +0.7 EV.
    static let blackAndWhiteTable: [UInt8] = (0..<256).map { level in
        let value = Double(level) / 255
        let contrasted = (value - 0.5) * 1.1 + 0.5
        let exposed = contrasted * pow(2, 0.7)
        return UInt8((min(max(exposed, 0), 1) * 255).rounded())
    }
}

extension PixImage {
    /// Returns a copy of an 8-bit grey image with every value mapped through `table`.
    func mapped(through table: [UInt8]) -> PixImage {
        precondition(depth == 8 && table.count == 256, "lookup tables apply to 8-bit grey images")
        let copy = transformed("pixCopy") { pixCopy(nil, $0) }
        let numbers = numaCreate(256)
        defer {
            var owned = numbers
            numaDestroy(&owned)
        }
        for value in table { numaAddNumber(numbers, Float(value)) }
        pixTRCMap(copy.pointer, nil, numbers)
        return copy
    }
}
