import Foundation

/// The encodings an e-mail draft needs, written out here rather than borrowed: quoted-
/// printable bodies (RFC 2045 §6.7), encoded-word headers (RFC 2047), folded header lines
/// and the RFC 5322 date. Every output line ends in CRLF, as RFC 5322 requires.
enum MIMEEncoding {
    /// The longest encoded body line, without its CRLF (RFC 2045 §6.7, rule 5).
    static let bodyLineLimit = 76
    /// The longest header line this encoder writes, without its CRLF (RFC 5322's "SHOULD").
    static let headerLineLimit = 78

    /// `text` as quoted-printable UTF-8 with CRLF line breaks.
    ///
    /// Line breaks of the text (LF, CRLF or CR) become CRLF; `=`, bytes outside printable
    /// ASCII, and spaces or tabs at a line's end are `=XX`-encoded; longer lines are split by
    /// soft breaks (`=` at the end) so that no line exceeds 76 characters. A line starting
    /// with `.` or `From ` has that first character encoded too, so that neither SMTP nor
    /// mbox can alter it.
    static func quotedPrintable(_ text: String) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return normalized.split(separator: "\n", omittingEmptySubsequences: false)
            .map { encodeLine(Array($0.utf8)) }
            .joined(separator: "\r\n")
    }

    private static func encodeLine(_ bytes: [UInt8]) -> String {
        var tokens: [String] = []
        tokens.reserveCapacity(bytes.count)
        let startsWithFrom = bytes.starts(with: Array("From ".utf8))
        for (index, byte) in bytes.enumerated() {
            let isLast = index == bytes.count - 1
            let literal: Bool
            switch byte {
            case 0x20, 0x09: literal = !isLast
            case 0x2E: literal = index != 0
            case 0x46: literal = !(index == 0 && startsWithFrom)
            case 0x3D: literal = false
            case 33...126: literal = true
            default: literal = false
            }
            tokens.append(literal ? String(UnicodeScalar(byte)) : hexEscape(byte))
        }
        var lines: [String] = []
        var current = ""
        for (index, token) in tokens.enumerated() {
            // A line that continues needs room for its soft break "=".
            let limit = index == tokens.count - 1 ? bodyLineLimit : bodyLineLimit - 1
            if current.count + token.count > limit {
                lines.append(current + "=")
                current = ""
            }
            current += token
        }
        lines.append(current)
        return lines.joined(separator: "\r\n")
    }

    private static func hexEscape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "=" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }

    /// Bytes of UTF-8 in one encoded word: 36 bytes are 48 base64 characters, so the word is
    /// 60 characters long and fits a folded line with any header name used here.
    static let bytesPerEncodedWord = 36

    /// `text` as RFC 2047 encoded words (`=?UTF-8?B?…?=`), separated by `separator`. Words
    /// split between characters where they can, and else (a character of more than 36 bytes:
    /// a letter under dozens of combining marks) between its Unicode scalars; so each word
    /// decodes to valid UTF-8 on its own, and none is longer than 60 characters (RFC 2047
    /// allows 75).
    static func encodedWords(_ text: String, separator: String = "\r\n ") -> String {
        encodedWordList(text).joined(separator: separator)
    }

    /// The encoded words of `encodedWords(_:separator:)`, one string each; at least one.
    static func encodedWordList(_ text: String) -> [String] {
        var chunks: [[UInt8]] = []
        var current: [UInt8] = []
        func append(_ bytes: some Collection<UInt8>) {
            if !current.isEmpty, current.count + bytes.count > bytesPerEncodedWord {
                chunks.append(current)
                current = []
            }
            current += bytes
        }
        for character in text {
            let bytes = String(character).utf8
            if bytes.count <= bytesPerEncodedWord {
                append(bytes)
            } else {
                for scalar in character.unicodeScalars { append(String(scalar).utf8) }
            }
        }
        if !current.isEmpty || chunks.isEmpty { chunks.append(current) }
        return chunks.map { "=?UTF-8?B?" + Data($0).base64EncodedString() + "?=" }
    }

    /// An unstructured header (`Subject`) ready to write, folded to 78 characters: plain when
    /// the text is printable ASCII that folds at spaces, else as encoded words.
    static func unstructuredHeader(_ name: String, _ value: String) -> String {
        let isPlain =
            value.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
            && !value.contains("=?") && !value.hasPrefix(" ") && !value.hasSuffix(" ") && !value.contains("  ")
        if isPlain, let folded = foldedAtSpaces(name + ": " + value) { return folded }
        return name + ": " + encodedWords(value)
    }

    /// Folds a header line at spaces so that each line has at most 78 characters; nil when a
    /// single word is too long for that.
    private static func foldedAtSpaces(_ line: String) -> String? {
        var lines: [String] = []
        var current = ""
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= headerLineLimit {
                current += " " + word
            } else {
                lines.append(current)
                current = " " + word
            }
            if current.count > headerLineLimit { return nil }
        }
        lines.append(current)
        return lines.joined(separator: "\r\n")
    }

    /// An address-list header (`To`, `From`), folded: each mailbox after the first starts a
    /// line of its own, and a mailbox too long for one line of 78 characters is folded too
    /// (see `mailboxLines`). No line is longer than 78 characters, but for one holding an
    /// address of more than 72 alone (at most 260 characters with `From: `: an address
    /// cannot be folded).
    static func addressHeader(_ name: String, _ addresses: [EmailAddress]) -> String {
        var lines: [String] = []
        for (index, address) in addresses.enumerated() {
            let comma = index < addresses.count - 1 ? "," : ""
            let start = index == 0 ? name + ": " : " "
            lines += mailboxLines(address, startingWith: start, endingWith: comma)
        }
        return lines.joined(separator: "\r\n")
    }

    /// One mailbox, `Name <a@b>`, as header lines: `prefix` opens the first, `suffix` ends
    /// the last. On one line when it fits in 78 characters (the name as an atom, quoted, or
    /// as encoded words, as `phrase` writes it). Else a name of atoms separated by single
    /// spaces is folded at its spaces, and any other name (quoted, not ASCII, or with a word
    /// too long for a line) is written as encoded words, one to a line; the address goes on
    /// the last line when it fits, else on a line of its own.
    static func mailboxLines(_ address: EmailAddress, startingWith prefix: String, endingWith suffix: String) -> [String] {
        guard let name = address.displayName else { return [prefix + address.address + suffix] }
        let angleAddress = "<" + address.address + ">" + suffix
        let oneLine = prefix + phrase(name) + " " + angleAddress
        if oneLine.count <= headerLineLimit { return [oneLine] }
        let words = name.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let foldsAtSpaces =
            isAtoms(name) && !words.contains(where: \.isEmpty)
            && !words.contains { prefix.count + $0.count > headerLineLimit }
        var lines: [String]
        if foldsAtSpaces {
            lines = [prefix + words[0]]
            for word in words.dropFirst() {
                if lines[lines.count - 1].count + 1 + word.count <= headerLineLimit {
                    lines[lines.count - 1] += " " + word
                } else {
                    lines.append(" " + word)
                }
            }
        } else {
            let encoded = encodedWordList(name)
            lines = [prefix + encoded[0]] + encoded.dropFirst().map { " " + $0 }
        }
        if lines[lines.count - 1].count + 1 + angleAddress.count <= headerLineLimit {
            lines[lines.count - 1] += " " + angleAddress
        } else {
            lines.append(" " + angleAddress)
        }
        return lines
    }

    /// Characters of an RFC 5322 atom (`atext`), and the space between atoms.
    private static let atomCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~ ")

    /// Whether `name` can be written as it is, as atoms: `atext` and spaces, nothing that
    /// reads as an encoded word.
    private static func isAtoms(_ name: String) -> Bool {
        name.allSatisfy(atomCharacters.contains) && !name.contains("=?")
    }

    /// A display name as a `phrase` on one line: as it is when it is atoms, in quotes when it
    /// is other printable ASCII, else as encoded words.
    static func phrase(_ name: String) -> String {
        if name.unicodeScalars.allSatisfy({ $0.isASCII && !($0.properties.generalCategory == .control) }) {
            if isAtoms(name) { return name }
            return "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return encodedWords(name, separator: " ")
    }

    /// A date as RFC 5322 writes it, e.g. `Tue, 06 Aug 2024 14:05:09 +0200`, in `timeZone`'s
    /// offset at that moment.
    static func date(_ date: Date, in timeZone: TimeZone) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(secondsFromGMT: 0)!
        let offset = timeZone.secondsFromGMT(for: date)
        let parts = utc.dateComponents(
            [.year, .month, .day, .hour, .minute, .second, .weekday], from: date.addingTimeInterval(TimeInterval(offset)))
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return "\(weekdays[(parts.weekday ?? 1) - 1]), \(two(parts.day)) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 1970) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) \(sign)\(two(minutes / 60))\(two(minutes % 60))"
    }
}
