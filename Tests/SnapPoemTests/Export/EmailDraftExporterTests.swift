import Foundation
import Testing

@testable import SnapPoem

/// What Python's standard `email` package (policy `default`, a full RFC 5322/MIME parser)
/// reads back from a draft.
struct ParsedEmail: Decodable {
    struct Mailbox: Decodable, Equatable { var name: String; var address: String }
    var defects: [String]
    var subject: String
    var to: [Mailbox]
    /// The `To` display names as RFC 2047 §6.2 reads them, the white space between adjacent
    /// encoded words ignored (by `email.header`: the parser of `to` keeps it, CPython
    /// gh-128110, and reads a long name as "xxx…x xxx…x").
    var toNames: [String]
    var date: String?
    var messageID: String
    var unsent: String?
    var mimeVersion: String?
    var contentType: String
    var plain: String?
    var plainCharset: String?
    var plainEncoding: String?
    var html: String?

    static let script = #"""
        import sys, json, email, email.utils
        from email import policy
        from email.header import decode_header, make_header
        data = sys.stdin.buffer.read()
        msg = email.message_from_bytes(data, policy=policy.default)
        raw = email.message_from_bytes(data, policy=policy.compat32)
        plain = msg.get_body(preferencelist=("plain",))
        html = msg.get_body(preferencelist=("html",))
        defects = [repr(d) for part in msg.walk() for d in part.defects]
        print(json.dumps({
            "defects": defects,
            "subject": str(msg["subject"]),
            "to": [{"name": a.display_name, "address": a.addr_spec} for a in msg["to"].addresses] if msg["to"] else [],
            "toNames": [str(make_header(decode_header(n))) for n, a in email.utils.getaddresses(raw.get_all("to", []))],
            "date": msg["date"].datetime.isoformat() if msg["date"] else None,
            "messageID": str(msg["message-id"]),
            "unsent": msg["x-unsent"],
            "mimeVersion": msg["mime-version"],
            "contentType": msg.get_content_type(),
            "plain": plain.get_content() if plain else None,
            "plainCharset": plain.get_content_charset() if plain else None,
            "plainEncoding": plain["content-transfer-encoding"] if plain else None,
            "html": html.get_content() if html else None,
        }))
        """#

    static func parse(_ message: Data) throws -> ParsedEmail {
        try JSONDecoder().decode(ParsedEmail.self, from: Data(try Python.run(script, input: message).utf8))
    }
}

/// Checks the wire form RFC 5322, RFC 2045 and RFC 2047 ask for: ASCII only, CRLF line
/// ends, header lines of at most 78 characters, body lines of at most 76, encoded words of
/// at most 75.
func checkWireForm(_ message: Data, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(message.allSatisfy { $0 < 0x80 }, "non-ASCII byte", sourceLocation: sourceLocation)
    let bytes = Array(message)
    for (index, byte) in bytes.enumerated() where byte == 0x0A {
        #expect(index > 0 && bytes[index - 1] == 0x0D, "bare LF at byte \(index)", sourceLocation: sourceLocation)
    }
    let text = String(decoding: message, as: UTF8.self)
    let parts = text.components(separatedBy: "\r\n\r\n")
    for line in parts[0].components(separatedBy: "\r\n") {
        #expect(line.count <= 78, "header line too long: \(line.count) characters", sourceLocation: sourceLocation)
        for word in line.split(separator: " ") where word.hasPrefix("=?") {
            #expect(word.count <= 75, "encoded word too long: \(word.count) characters", sourceLocation: sourceLocation)
        }
    }
    for line in parts.dropFirst().joined(separator: "\r\n\r\n").components(separatedBy: "\r\n") {
        #expect(line.count <= 76, "body line too long: \(line)", sourceLocation: sourceLocation)
    }
}

@Suite("E-mail draft export (.eml)")
struct EmailDraftExporterTests {
    @Test("Python's email package reads back headers and the exact body")
    func roundTrip() throws {
        let poem = ExportFixtures.shortPoem
        let message = try EmailDraftExporter(options: ExportFixtures.emailOptions).export(poem)
        checkWireForm(message)
        let parsed = try ParsedEmail.parse(message)
        #expect(parsed.defects.isEmpty, "\(parsed.defects)")
        #expect(parsed.subject == ExportFixtures.emailOptions.subject)
        #expect(parsed.to == [.init(name: "Zoë Dupont", address: "zoe@example.org"), .init(name: "", address: "sam@example.org")])
        #expect(parsed.date == "2023-11-14T23:13:20+01:00")
        #expect(parsed.messageID == "<0f6c1e2a-7b1d-4a51-9d0e-1c2b3a4d5e6f@snap-poem.invalid>")
        #expect(parsed.unsent == "1")
        #expect(parsed.mimeVersion == "1.0")
        #expect(parsed.contentType == "multipart/alternative")
        #expect(parsed.plainCharset == "utf-8")
        #expect(parsed.plainEncoding == "quoted-printable")
        // MIME carries text line breaks as CRLF (RFC 2045 canonical form); the body is the
        // poem exactly once they are read back as "\n".
        #expect(parsed.plain?.replacingOccurrences(of: "\r\n", with: "\n") == poem.text)
        let html = try #require(parsed.html)
        #expect(try ParsedPage.parse(Data(html.utf8)).stanzas.count == 2)
    }

    @Test("Without HTML: a single text/plain part; the default subject is the poem's title")
    func plainOnly() throws {
        var options = ExportFixtures.emailOptions
        options.includesHTML = false
        options.subject = nil
        options.to = []
        let message = try EmailDraftExporter(options: options).export(ExportFixtures.shortPoem)
        checkWireForm(message)
        let parsed = try ParsedEmail.parse(message)
        #expect(parsed.contentType == "text/plain")
        #expect(parsed.subject == "Alex")
        #expect(parsed.to.isEmpty)
        #expect(parsed.html == nil)
        #expect(parsed.plain?.replacingOccurrences(of: "\r\n", with: "\n") == ExportFixtures.shortPoem.text)
        #expect(!String(decoding: message, as: UTF8.self).contains("\r\nTo:"))
    }

    @Test(
        "Subjects of every kind decode back exactly",
        arguments: [
            "Alex",
            "A poem for you",
            "Un poème pour toi ♥",
            "日本語の詩をあなたに、愛を込めて。日本語の詩をあなたに、愛を込めて。",
            "An ASCII subject that is long enough to need folding across more than one header line, really",
            "Looks =?like?= an encoded word",
            "👩‍❤️‍👨 emoji with joiners 👩‍❤️‍👨👩‍❤️‍👨👩‍❤️‍👨",
            String(repeating: "x", count: 5000),
            String(repeating: "é", count: 3000),
            // One character (a grapheme cluster) of 1 001 bytes: split between its scalars.
            "e" + String(repeating: "\u{301}", count: 500),
        ])
    func subjects(subject: String) throws {
        var options = ExportFixtures.emailOptions
        options.subject = subject
        let message = try EmailDraftExporter(options: options).export(ExportFixtures.shortPoem)
        checkWireForm(message)
        let parsed = try ParsedEmail.parse(message)
        #expect(parsed.subject == subject)
        #expect(parsed.defects.isEmpty, "\(parsed.defects)")
    }

    @Test("Lenore.png through the real pipeline: the body decodes to the personalised poem")
    func lenore() async throws {
        let poem = try await ExportFixtures.lenore.value
        let message = try EmailDraftExporter(options: ExportFixtures.emailOptions).export(poem)
        checkWireForm(message)
        let parsed = try ParsedEmail.parse(message)
        #expect(parsed.plain?.replacingOccurrences(of: "\r\n", with: "\n") == poem.text)
        #expect(parsed.plain?.contains("Pæan") == true)
        #expect(parsed.defects.isEmpty)
    }

    @Test(
        "Display names of the longest length taken fold to 78 characters and decode back",
        arguments: [
            String(repeating: "x", count: 200),
            String(repeating: "é", count: 200),
            String(repeating: "Guy De Vere ", count: 16) + "Sam",
            String(repeating: "Doe, Jane ", count: 20),
            String(repeating: "𝔏", count: 200),
        ])
    func longNames(name: String) throws {
        var options = ExportFixtures.emailOptions
        let expected = name.trimmingCharacters(in: .whitespaces)
        options.to = [try EmailAddress(displayName: name, address: "alex@example.org"), try EmailAddress(parsing: "sam@example.org")]
        options.from = try EmailAddress(displayName: name, address: "me@example.org")
        let message = try EmailDraftExporter(options: options).export(ExportFixtures.shortPoem)
        checkWireForm(message)
        let parsed = try ParsedEmail.parse(message)
        #expect(parsed.defects.isEmpty, "\(parsed.defects)")
        #expect(parsed.to.map(\.address) == ["alex@example.org", "sam@example.org"])
        #expect(parsed.toNames == [expected, ""])
    }

    @Test("A display name over the limit, set after checking, is refused by the export")
    func longNameSetLater() throws {
        var options = ExportFixtures.emailOptions
        options.to[0].displayName = String(repeating: "x", count: 5000)
        #expect(
            throws: SnapPoemError.invalidOption(
                option: "to", reason: "the name of 'zoe@example.org' has 5000 characters; at most 200 are taken")
        ) { try EmailDraftExporter(options: options).export(ExportFixtures.shortPoem) }
        options.to[0].displayName = nil
        options.to[0].address = "a@b.org>\r\nBcc: everyone@example.org"
        #expect(throws: SnapPoemError.self) { try EmailDraftExporter(options: options).export(ExportFixtures.shortPoem) }
    }

    @Test(
        "Header injection and bad values are refused",
        arguments: [
            EmailDraftOptions(subject: "Hi\r\nBcc: everyone@example.org", date: Date(), messageID: "a@b"),
            EmailDraftOptions(subject: "tab\there", date: Date(), messageID: "a@b"),
            EmailDraftOptions(date: Date(), messageID: "no-at-sign"),
            EmailDraftOptions(date: Date(), messageID: "<a@b>"),
        ])
    func refused(options: EmailDraftOptions) {
        #expect(throws: SnapPoemError.self) { try EmailDraftExporter(options: options).export(ExportFixtures.shortPoem) }
    }
}

@Suite("E-mail addresses")
struct EmailAddressTests {
    @Test(
        "Good addresses parse",
        arguments: [
            ("alex@example.org", nil, "alex@example.org"),
            ("  Alex <alex@example.org> ", "Alex", "alex@example.org"),
            ("\"Doe, Jane\" <jane@example.org>", "Doe, Jane", "jane@example.org"),
            ("Zoë <zoe@example.org>", "Zoë", "zoe@example.org"),
            ("first.last+poems@mail.example.co.uk", nil, "first.last+poems@mail.example.co.uk"),
        ] as [(String, String?, String)])
    func good(text: String, name: String?, address: String) throws {
        let parsed = try EmailAddress(parsing: text)
        #expect(parsed.displayName == name)
        #expect(parsed.address == address)
    }

    @Test(
        "Bad addresses are refused",
        arguments: [
            "", "alex", "a@b@c", "a b@c.org", "<a@b.org", "a@b.org>", "a@.org", ".a@b.org", "a..b@c.org",
            "Alex <alex@example.org>\r\nBcc: evil@example.org", "Al\nex <alex@example.org>", "zoë@example.org",
        ])
    func bad(text: String) {
        #expect(throws: SnapPoemError.self) { try EmailAddress(parsing: text) }
    }

    @Test("A display name longer than 200 characters is refused, naming the limit")
    func longName() throws {
        for (name, length) in [(String(repeating: "x", count: 5000), 5000), (String(repeating: "é", count: 201), 201)] {
            #expect(
                throws: SnapPoemError.invalidOption(
                    option: "to", reason: "the name of 'a@b.org' has \(length) characters; at most 200 are taken")
            ) { try EmailAddress(parsing: "\(name) <a@b.org>") }
        }
        let longest = String(repeating: "é", count: 200)
        #expect(try EmailAddress(parsing: "  \(longest)  <a@b.org>").displayName == longest)
    }

    @Test(
        "The encoder folds names of any length: lines of at most 78 characters, or 998 around a long address",
        arguments: [
            (String(repeating: "x", count: 5000), "a@b.org"),
            (String(repeating: "é", count: 3000), "a@b.org"),
            (String(repeating: "Guy De Vere ", count: 400) + "Sam", "a@b.org"),
            (String(repeating: "Doe, \"Jane\" \\ ", count: 400) + "x", "a@b.org"),
            ("e" + String(repeating: "\u{301}", count: 2000), "a@b.org"),
            (String(repeating: "x", count: 5000), String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 189)),
            ("Al", String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 189)),
        ])
    func encoderFolds(name: String, address: String) throws {
        var mailbox = try EmailAddress(address: address)
        mailbox.displayName = name
        let header = MIMEEncoding.addressHeader("To", [mailbox, try EmailAddress(parsing: "Sam <sam@example.org>")])
        for line in header.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 998)
            #expect(line.utf8.count <= 78 || line == " <\(address)>,", "\(line.utf8.count) characters")
            for word in line.split(separator: " ") where word.hasPrefix("=?") { #expect(word.count <= 75) }
        }
        let parsed = try ParsedEmail.parse(Data((header + "\r\nSubject: x\r\n\r\nbody\r\n").utf8))
        #expect(parsed.defects.isEmpty, "\(parsed.defects)")
        #expect(parsed.to.map(\.address) == [address, "sam@example.org"])
        #expect(parsed.toNames == [name, "Sam"])
    }

    @Test("A list splits at commas outside quotes")
    func list() throws {
        let list = try EmailAddress.list(parsing: "a@b.org, \"Doe, Jane\" <jane@example.org>,Zoë <z@e.org>")
        #expect(list.map(\.address) == ["a@b.org", "jane@example.org", "z@e.org"])
        #expect(throws: SnapPoemError.self) { try EmailAddress.list(parsing: " , ") }
    }
}

@Suite("Quoted-printable, written by hand")
struct QuotedPrintableTests {
    @Test(
        "Encodings",
        arguments: [
            ("plain", "plain"),
            ("a=b", "a=3Db"),
            ("é", "=C3=A9"),
            ("space at end ", "space at end=20"),
            ("tab at end\t", "tab at end=09"),
            ("inner space", "inner space"),
            (".lonely dot", "=2Elonely dot"),
            ("From the start", "=46rom the start"),
            ("Fromage", "Fromage"),
            ("one\ntwo\r\nthree", "one\r\ntwo\r\nthree"),
            ("ends with newline\n", "ends with newline\r\n"),
            (String(repeating: "a", count: 76), String(repeating: "a", count: 76)),
            (String(repeating: "a", count: 77), String(repeating: "a", count: 75) + "=\r\naa"),
            (String(repeating: "a", count: 74) + "é", String(repeating: "a", count: 74) + "=\r\n=C3=A9"),
        ])
    func encodings(text: String, expected: String) {
        #expect(MIMEEncoding.quotedPrintable(text) == expected)
    }

    @Test("Python's quopri decodes long mixed lines back exactly", arguments: [1, 7, 40, 200])
    func decodesBack(repeats: Int) throws {
        let text = String(repeating: "Pæan — “damnèd” = 100 % ", count: repeats) + " \n\tnext\n"
        let encoded = MIMEEncoding.quotedPrintable(text)
        for line in encoded.components(separatedBy: "\r\n") { #expect(line.count <= 76) }
        let decoded = try Python.run(
            "import sys, quopri; sys.stdout.buffer.write(quopri.decodestring(sys.stdin.buffer.read()))", input: Data(encoded.utf8))
        #expect(decoded.replacingOccurrences(of: "\r\n", with: "\n") == text)
    }
}

@Suite("mailto: links")
struct MailtoLinkTests {
    @Test("RFC 6068: recipients, subject and the body survive a standard URL parser")
    func roundTrip() throws {
        let poem = ExportFixtures.poem(
            [["Lenore"], ["Lenore, mon cœur & toi?", "100% = love #1"]], replacing: [Replacement(find: "Lenore", replaceWith: "Zoë")])
        let to = [try EmailAddress(parsing: "Zoë <zoe+poems@example.org>"), try EmailAddress(parsing: "sam@example.org")]
        let url = MailtoLink.url(for: poem, to: to, subject: "Pour toi ♥ & co")
        #expect(url.hasPrefix("mailto:zoe%2Bpoems@example.org,sam@example.org?subject="))
        #expect(url.allSatisfy { $0.isASCII && !$0.isWhitespace })
        let script = """
            import sys, json, urllib.parse as u
            parts = u.urlsplit(sys.stdin.read())
            query = u.parse_qs(parts.query, keep_blank_values=True)
            print(json.dumps({"scheme": parts.scheme, "to": u.unquote(parts.path), "subject": query["subject"], "body": query["body"]}))
            """
        let parsed = try #require(
            try JSONSerialization.jsonObject(with: Data(Python.run(script, input: Data(url.utf8)).utf8)) as? [String: Any])
        #expect(parsed["scheme"] as? String == "mailto")
        #expect(parsed["to"] as? String == "zoe+poems@example.org,sam@example.org")
        #expect(parsed["subject"] as? [String] == ["Pour toi ♥ & co"])
        #expect(parsed["body"] as? [String] == [poem.text.replacingOccurrences(of: "\n", with: "\r\n")])
    }

    @Test("No recipients and no subject: the poem's title")
    func defaults() {
        #expect(MailtoLink.url(for: ExportFixtures.shortPoem).hasPrefix("mailto:?subject=Alex&body=Alex%0D%0A%0D%0ASee%21%20on"))
    }
}
