/// A name compared and hashed by its UTF-8 bytes, not as Swift compares strings.
///
/// `String` equality is canonical equivalence: "café" spelt with `é` (U+00E9) equals "café"
/// spelt with `e` and a combining accent (U+0301), as a Mac writes names. To a Linux file
/// system they are two names and two files, so a folder may hold both. Wherever a batch
/// keys inputs or outputs by name (clashes between outputs, manifest lines, records), it
/// keys them by this, and the two files get an output and a manifest line each.
struct ExactName: Hashable, Sendable {
    /// The name's UTF-8 bytes.
    let bytes: [UInt8]
    /// The name as given.
    let name: String

    /// The exact name of `name`.
    init(_ name: String) {
        self.bytes = Array(name.utf8)
        self.name = name
    }

    static func == (lhs: ExactName, rhs: ExactName) -> Bool { lhs.bytes == rhs.bytes }

    func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}
