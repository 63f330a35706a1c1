import Foundation

/// Exports the poem as an e-mail draft (`.eml`): an RFC 5322 message with MIME (RFC 2045)
/// that desktop mail clients open ready to be sent.
///
/// Headers: `Date`, `Message-ID`, `From` (only when given), `To` (when given), `Subject`
/// (RFC 2047 encoded words when not plain ASCII), `MIME-Version`, `X-Unsent: 1` (the
/// marker Outlook and Windows Mail read as "this is a draft"). The body is the personalised
/// poem as UTF-8 quoted-printable plain text and, by default, the love-note HTML page as a
/// `multipart/alternative` second part. Lines end in CRLF and none is longer than 78
/// characters (76 in the bodies), but for a header line holding only an address of more
/// than 72 characters (an address cannot be folded).
public struct EmailDraftExporter: PoemExporter {
    /// The draft's headers.
    public var options: EmailDraftOptions
    /// The poem's language as a BCP 47 tag, for the HTML part and `Content-Language`.
    public var languageTag: String

    /// Creates the exporter.
    public init(options: EmailDraftOptions, languageTag: String = "en") {
        self.options = options
        self.languageTag = languageTag
    }

    /// `.eml`.
    public var format: ExportFormat { .eml }

    /// The subject the draft gets for `poem`: the given one, else the poem's title, else
    /// "A poem for you".
    public func subject(for poem: ScannedPoem) -> String {
        subject(forText: poem.text)
    }

    /// The subject the draft gets for a poem's text.
    func subject(forText text: String) -> String {
        options.subject ?? PoemStanzas(text).title ?? HTMLExporter.untitled
    }

    /// The message in bytes (ASCII only: everything else is encoded).
    ///
    /// - Throws: `SnapPoemError.invalidOption` when `options` fail `validate()`.
    public func export(_ poem: ScannedPoem) throws(SnapPoemError) -> Data {
        try export(text: poem.text)
    }

    /// The message for a poem's text alone: what `export(_:)` writes for a poem with this
    /// text (a poem a person has corrected after reading it, say).
    ///
    /// - Throws: `SnapPoemError.invalidOption` when `options` fail `validate()`.
    public func export(text: String) throws(SnapPoemError) -> Data {
        try options.validate()
        var headers = [
            "Date: " + MIMEEncoding.date(options.date, in: options.timeZone),
            "Message-ID: <\(options.messageID)>",
        ]
        if let from = options.from { headers.append(MIMEEncoding.addressHeader("From", [from])) }
        if !options.to.isEmpty { headers.append(MIMEEncoding.addressHeader("To", options.to)) }
        headers += [
            MIMEEncoding.unstructuredHeader("Subject", subject(forText: text)),
            "MIME-Version: 1.0",
            "X-Unsent: 1",
            "User-Agent: snap-poem/\(Versions.snapPoem)",
        ]
        let plainText = MIMEEncoding.quotedPrintable(text)
        let language = languageTag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } ? languageTag : "und"
        var message: String
        if options.includesHTML {
            let boundary = "=_snap-poem_" + Self.fingerprint(options.messageID)
            let html = MIMEEncoding.quotedPrintable(HTMLExporter(languageTag: languageTag).page(for: text))
            headers.append("Content-Type: multipart/alternative; boundary=\"\(boundary)\"")
            message = headers.joined(separator: "\r\n") + "\r\n\r\n"
            message += "This is a MIME message: the poem as plain text and as HTML.\r\n"
            message += "--\(boundary)\r\n" + part("text/plain", language: language, body: plainText)
            message += "\r\n--\(boundary)\r\n" + part("text/html", language: language, body: html)
            message += "\r\n--\(boundary)--\r\n"
        } else {
            headers += [
                "Content-Type: text/plain; charset=UTF-8",
                "Content-Transfer-Encoding: quoted-printable",
                "Content-Language: \(language)",
            ]
            message = headers.joined(separator: "\r\n") + "\r\n\r\n" + plainText
            if !message.hasSuffix("\r\n") { message += "\r\n" }
        }
        return Data(message.utf8)
    }

    private func part(_ type: String, language: String, body: String) -> String {
        "Content-Type: \(type); charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n"
            + "Content-Language: \(language)\r\n\r\n" + body
    }

    /// `text`'s `ShortFingerprint`: a boundary that differs between messages yet is the same
    /// for the same Message-ID. A boundary starting with `=_` can never occur in
    /// quoted-printable text, where `=` is always followed by two hex digits or a line break.
    static func fingerprint(_ text: String) -> String {
        ShortFingerprint.of(text)
    }
}
