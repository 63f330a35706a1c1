/// A short, stable fingerprint of a text: 16 hex digits of FNV-1a (64 bits) over its UTF-8
/// bytes. The same in every run and on every machine (Swift's `Hasher` is seeded per
/// process), cheap, and not a digest: for names and boundaries that should differ between
/// texts and stay put for one, never for checking content (`ContentHash` does that).
enum ShortFingerprint {
    /// The 16 lowercase hex digits for `text`.
    static func of(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
