/// A `mailto:` URL (RFC 6068) that opens a new message with the poem as its body: what a
/// desktop's "share by e-mail" path takes.
public enum MailtoLink {
    /// The URL for `poem`: `mailto:TO?subject=…&body=…`, every byte outside RFC 3986's
    /// unreserved characters percent-encoded as UTF-8, line breaks as `%0D%0A`.
    ///
    /// - Parameters:
    ///   - poem: the poem whose personalised text becomes the body.
    ///   - to: the recipients; only their addresses go in the URL (RFC 6068 has no room for
    ///     display names). Empty gives `mailto:?subject=…`.
    ///   - subject: nil uses the poem's title, or "A poem for you".
    /// - Note: some programs cut URLs of more than about 2 000 characters; a long poem is
    ///   better sent as an `.eml` draft.
    public static func url(for poem: ScannedPoem, to: [EmailAddress] = [], subject: String? = nil) -> String {
        url(forText: poem.text, to: to, subject: subject)
    }

    /// The URL for a poem's text alone, as `url(for:to:subject:)` makes it for a poem with
    /// this text.
    public static func url(forText text: String, to: [EmailAddress] = [], subject: String? = nil) -> String {
        let recipients = to.map { percentEncoded($0.address, keeping: ["@"]) }.joined(separator: ",")
        let title = subject ?? PoemStanzas(text).title ?? HTMLExporter.untitled
        let body = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        return "mailto:\(recipients)?subject=\(percentEncoded(title))&body=\(percentEncoded(body))"
    }

    /// Percent-encodes every UTF-8 byte that is not unreserved (`A–Z a–z 0–9 - . _ ~`) or in
    /// `keeping`.
    static func percentEncoded(_ text: String, keeping: Set<Character> = []) -> String {
        var output = ""
        for byte in text.utf8 {
            let character = Character(UnicodeScalar(byte))
            if byte < 0x80, character.isLetter || character.isNumber || "-._~".contains(character) || keeping.contains(character) {
                output.append(character)
            } else {
                output += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0x0F, radix: 16, uppercase: true)
            }
        }
        return output
    }
}
