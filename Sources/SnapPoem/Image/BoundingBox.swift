/// A rectangle in an image's pixel coordinates (origin at the top left): a recognised
/// word's box, a region of text-like ink, a region of interest. Geometry is shared by every
/// stage, so it lives in the lowest one.
public struct BoundingBox: Sendable, Equatable, Hashable, Codable {
    /// Left edge, inclusive.
    public var left: Int
    /// Top edge, inclusive.
    public var top: Int
    /// Right edge, exclusive.
    public var right: Int
    /// Bottom edge, exclusive.
    public var bottom: Int

    /// Creates a box from its edges.
    public init(left: Int, top: Int, right: Int, bottom: Int) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    /// Width in pixels.
    public var width: Int { right - left }
    /// Height in pixels.
    public var height: Int { bottom - top }
}
