import CTesseract

/// The one owner of a Leptonica bitmap font (`L_BMF`): frees it exactly once, in `deinit`
/// (`bmfDestroy`).
///
/// Leptonica carries one font, Palatino Roman, as bitmaps compiled into the library, in nine
/// sizes (4, 6, …, 20 points at 300 pixels per inch: digits from about 12 to 60 pixels high);
/// `bmfCreate(NULL, size)` builds it without any font file. It has the 95 printable ASCII
/// characters and nothing else, which is all the annotation's line numbers and legend need.
/// A font is read-only once made, but it is created where it is used, never shared.
final class BitmapFont {
    /// The owned font. Never nil; never destroyed by anyone else.
    private let pointer: UnsafeMutablePointer<L_BMF>
    /// The size in Leptonica's points (at 300 pixels per inch): 4, 6, …, 20.
    let size: Int

    /// The sizes Leptonica has.
    static let sizes = Array(stride(from: 4, through: 20, by: 2))

    /// Builds the font of `size` points (`bmfCreate`); nil when the size is not one of
    /// `sizes` or Leptonica cannot build it (out of memory).
    init?(size: Int) {
        guard Self.sizes.contains(size), let font = bmfCreate(nil, Int32(size)) else { return nil }
        self.pointer = font
        self.size = size
    }

    /// The largest size whose digits are at most `height` pixels high; the smallest size when
    /// none is that small. Nil when Leptonica cannot build it.
    convenience init?(digitsAtMost height: Double) {
        let fitting = Self.sizes.last { Double($0) * Self.digitHeightPerPoint <= height } ?? Self.sizes[0]
        self.init(size: fitting)
    }

    /// How many pixels high a digit stands per point of size (measured on Leptonica 1.82's
    /// fonts: 12 pixels at size 4, 30 at size 10, 60 at size 20; their feet reach 2 pixels
    /// below the baseline).
    static let digitHeightPerPoint = 3.0

    deinit {
        var owned: UnsafeMutablePointer<L_BMF>? = pointer
        bmfDestroy(&owned)
    }

    /// The distance from one line's baseline to the next (`lineheight`).
    var lineHeight: Int { Int(pointer.pointee.lineheight) }

    /// How far the digits reach above the baseline: the height of a line of numbers.
    var digitHeight: Int { Int((Double(size) * Self.digitHeightPerPoint).rounded()) }

    /// The width `text` takes when drawn (`bmfGetStringWidth`), in pixels; characters the
    /// font lacks count as `?`.
    func width(of text: String) -> Int {
        var width: Int32 = 0
        let status = Self.drawable(text).withCString { bmfGetStringWidth(pointer, $0, &width) }
        return status == 0 ? Int(width) : 0
    }

    /// `text` with every character the font lacks (anything outside printable ASCII) as `?`.
    static func drawable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { (0x20...0x7E).contains($0.value) ? $0 : "?" }))
    }

    /// Draws `text` into `pix` in place (`pixSetTextline`), its baseline starting at
    /// (`x`, `baseline`), in `color` (`0xRRGGBB00` for a 32-bit image). Characters that
    /// would fall outside the image are left out. False when Leptonica refuses.
    func draw(_ text: String, into pix: PixImage, x: Int, baseline: Int, color: UInt32) -> Bool {
        var width: Int32 = 0, overflow: Int32 = 0
        // On a 32-bit image Leptonica takes any value under 256, pure black among them, for
        // "no colour given" and draws mid grey: the next grey up from black looks the same.
        let drawn = color < 256 ? 0x0101_0100 : color
        let status = Self.drawable(text).withCString {
            pixSetTextline(pix.pointer, pointer, $0, drawn, Int32(x), Int32(baseline), &width, &overflow)
        }
        return status == 0
    }
}
