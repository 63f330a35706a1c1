/// A path taken apart at its `/` bytes, as the kernel takes it apart.
///
/// Swift's `String` splits and compares by grapheme cluster: a `/` followed by a combining
/// mark (U+0301) is one `Character`, so `split(separator: "/")` and `hasPrefix("/")` do not
/// see that `/`, and a whole `sub/́a.txt` would pass for one name. Everything that decides
/// whether an output stays inside its folder, or how long each name of it is, goes by bytes.
enum PathComponents {
    private static let slash = UInt8(ascii: "/")

    /// The names between `/` bytes, empty ones (from `//` or an end `/`) left out.
    static func split(_ path: String) -> [String] {
        path.utf8.split(separator: slash).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether `path` starts with `/`.
    static func isAbsolute(_ path: String) -> Bool {
        path.utf8.first == slash
    }

    /// Whether `name` is exactly `..` (byte for byte).
    static func isParent(_ name: String) -> Bool {
        name.utf8.elementsEqual("..".utf8)
    }

    /// Whether `name` is exactly `.` (byte for byte).
    static func isCurrent(_ name: String) -> Bool {
        name.utf8.elementsEqual(".".utf8)
    }
}
