/// A colour of 8-bit red, green and blue, e.g. for the marks of an annotated image.
public struct RGBColor: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8

    /// Creates a colour from its components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Creates a colour from a 24-bit number written `0xRRGGBB`.
    public init(hex value: UInt32) {
        self.init(
            red: UInt8(truncatingIfNeeded: value >> 16), green: UInt8(truncatingIfNeeded: value >> 8),
            blue: UInt8(truncatingIfNeeded: value))
    }

    /// The colour as CSS and HTML write it: `#0072b2`.
    public var description: String {
        let digits = Array("0123456789abcdef")
        return "#" + String([red, green, blue].flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }

    /// The colour as a Leptonica 32-bit pixel: `0xRRGGBB00`.
    var pixel: UInt32 {
        UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8
    }
}
