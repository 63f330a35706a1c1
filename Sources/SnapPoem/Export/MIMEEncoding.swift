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
    /// split only between characters, so each decodes to valid UTF-8 on its own.
    static func encodedWords(_ text: String, separator: String = "\r\n ") -> String {
        var chunks: [[UInt8]] = []
        var current: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if !current.isEmpty, current.count + bytes.count > bytesPerEncodedWord {
                chunks.append(current)
                current = []
            }
            current += bytes
        }
        if !current.isEmpty || chunks.isEmpty { chunks.append(current) }
        return chunks.map { "=?UTF-8?B?" + Data($0).base64EncodedString() + "?=" }.joined(separator: separator)
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

    /// An address for a `To` or `From` header: `Name <a@b>`, the name quoted or encoded as
    /// needed.
    static func mailbox(_ address: EmailAddress) -> String {
        guard let name = address.displayName else { return address.address }
        let phrase: String
        if name.unicodeScalars.allSatisfy({ $0.isASCII && !($0.properties.generalCategory == .control) }) {
            let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~ ")
            if name.allSatisfy(atext.contains), !name.contains("=?") {
                phrase = name
            } else {
                phrase = "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            }
        } else {
            phrase = encodedWords(name, separator: " ")
        }
        return phrase + " <" + address.address + ">"
    }

    /// An address-list header (`To`), one mailbox per folded line when there are several.
    static func addressHeader(_ name: String, _ addresses: [EmailAddress]) -> String {
        name + ": " + addresses.map(mailbox).joined(separator: ",\r\n ")
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
