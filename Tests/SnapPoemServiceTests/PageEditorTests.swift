import Foundation
import SnapPoem
import Testing

@testable import SnapPoemService

/// The page as people use it, without a browser: the poem comes back in an editor with its
/// doubtful words marked, an edit posted to `/note` is what every download and the e-mail
/// link carry, a mistake keeps the photo with the form, and French browsers get French.
@Suite("The page's editor, kept photo and languages")
struct PageEditorTests {
    /// The text of a `data:` download of `page`, by file name.
    static func download(_ name: String, in page: String) throws -> String {
        let start = try #require(page.range(of: "download=\"\(name)\" href=\"data:"), "\(name)")
        let url = page[start.upperBound...].prefix { $0 != "\"" }
        let encoded = try #require(url.split(separator: ",", maxSplits: 1).last)
        return String(decoding: try #require(Data(base64Encoded: String(encoded))), as: UTF8.self)
    }

    /// The plain-text part of a draft (quoted-printable, soft line breaks joined).
    static func plainPart(of eml: String) -> String {
        let decoded = eml.replacingOccurrences(of: "=\r\n", with: "")
        var bytes: [UInt8] = []
        var scalars = Array(decoded.utf8)[...]
        while let byte = scalars.popFirst() {
            if byte == UInt8(ascii: "="), scalars.count >= 2,
                let value = UInt8(String(decoding: scalars.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                scalars = scalars.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A `POST /note` with these fields, URL-encoded.
    static func notePost(_ fields: [(String, String)], target: String = "/note", language: String? = nil) -> HTTPRequest {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let body = fields.map { name, value in
            (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }.joined(separator: "&")
        var headers = [HTTPField(name: "Content-Type", value: "application/x-www-form-urlencoded")]
        if let language { headers.append(HTTPField(name: "Accept-Language", value: language)) }
        return HTTPRequest(method: "POST", target: target, headers: headers, body: Data(body.utf8))
    }

    @Test("The note holds the personalised poem in an editor, its unsure words marked, listed and carried to /note")
    func editorAndDoubts() async throws {
        let service = try await SharedService.get()
        let form = [
            FormPart(
                name: "image", data: Array(try Fixtures.sampleData("photo-jpeg-artefacts.jpg")), filename: "p.jpg",
                contentType: "image/jpeg"),
            FormPart(name: "find", text: "Lenore"), FormPart(name: "replaceWith", text: "Alex"),
        ]
        let response = await service.respond(to: HTTPRequest(method: "POST", target: "/", form: form))
        #expect(response.status == 200, "\(response.text)")
        let page = response.text
        let editor = try #require(page.firstRange(of: try Regex(#"<textarea id="poem-editor" name="text"[^>]*>([^<]*)</textarea>"#)))
        let held = String(page[editor]).replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
        #expect(held.contains("thy love, Alex!"), "\(held)")
        #expect(page.contains("<mark class=\"doubt\""), "the unsure words are marked in the note")
        // Each listed word is one of the editor's (on this photo, the words around its em
        // dashes, read with confidence 79-86).
        let listed = page.matches(of: try Regex(#"data-word="([^"]+)">"#)).compactMap { $0.output[1].substring.map(String.init) }
        #expect(!listed.isEmpty, "the unsure words are listed to check: \(page.prefix(4000))")
        for word in listed { #expect(held.contains(word.replacingOccurrences(of: "&#39;", with: "'")), "\(word)") }
        // Each goes with the editor's form as line:column:confidence:word.
        let doubts = page.matches(of: try Regex(#"name="doubt" value="[0-9]+:[0-9]+:[0-9]+:([^"]+)""#)).compactMap {
            $0.output[1].substring.map(String.init)
        }
        #expect(Set(doubts) == Set(listed), "\(doubts) \(listed)")
        #expect(page.contains("<form id=\"edit-form\" method=\"post\" action=\"/note\">"))
        #expect(page.contains("<input type=\"hidden\" name=\"poemLang\" value=\"en\">"))
        #expect(try Self.download("poem.txt", in: page).contains("thy love, Alex!"))
    }

    @Test("An edit posted to /note is what the note, the downloads and the e-mail link carry; the fixed word is no longer marked")
    func editReachesTheDownloads() async throws {
        let service = try await SharedService.get()
        let text =
            "Lenore\r\n\r\nAh, broken is the golden bowl! the spirit flown forever!\r\nLet the bell toll!—a saintly soul <b>floats</b>\r\n"
        let response = await service.respond(
            to: Self.notePost([
                ("text", text), ("doubt", "3:28:81:bow!!"), ("doubt", "4:13:87:toll!—a"), ("poemLang", "en"),
            ]))
        #expect(response.status == 200, "\(response.text)")
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        let page = response.text
        let expected =
            "Lenore\n\nAh, broken is the golden bowl! the spirit flown forever!\nLet the bell toll!—a saintly soul <b>floats</b>\n"
        #expect(try Self.download("poem.txt", in: page) == expected, "line breaks as \\n, the text as typed")
        let html = try Self.download("poem.html", in: page)
        #expect(html.contains("golden bowl!") && html.contains("&lt;b&gt;floats&lt;/b&gt;") && !html.contains("<b>"))
        #expect(Self.plainPart(of: try Self.download("poem.eml", in: page)).contains("golden bowl! the spirit"))
        let mailto = try #require(page.firstRange(of: try Regex(#"id="mailto" href="([^"]*)""#)))
        #expect(String(page[mailto]).contains("bowl%21"))
        // "bow!!" was fixed: no mark, and its chip says so; "toll!—a" is still there.
        #expect(page.contains("<mark class=\"doubt\" title=\"Tesseract was unsure of this word (confidence 87)\">toll!—a</mark>"))
        #expect(!page.contains(">bow!!</mark>"))
        #expect(page.contains("class=\"doubt-link fixed\" href=\"#poem-editor\" data-line=\"3\""))
        #expect(page.contains("<h2>Lenore</h2>"))
        #expect(!page.contains("<b>floats"), "what was typed is escaped")
        // The script's background render takes the parts alone.
        let fragment = await service.respond(to: Self.notePost([("text", text)], target: "/note?fragment=true"))
        #expect(fragment.status == 200)
        #expect(!fragment.text.contains("<style") && !fragment.text.contains("<script"))
        #expect(fragment.text.contains("id=\"note\"") && fragment.text.contains("download=\"poem.html\""))
    }

    @Test("A field given again and again is refused at its second time, not taken 43,000 times")
    func repeatedFields() async throws {
        let service = try await SharedService.get()
        for repeated in ["poemLang", "text"] {
            let response = await service.respond(
                to: Self.notePost([("text", "a poem")] + Array(repeating: (repeated, "en"), count: 1_000)))
            #expect(response.status == 400, "\(repeated)")
            #expect(
                response.text.contains("&#39;\(repeated)&#39; was given more than once")
                    || response.text.contains("'\(repeated)' was given more than once"), "\(response.text.prefix(2000))")
        }
        let once = await service.respond(to: Self.notePost([("text", "a poem"), ("poemLang", "fr")]))
        #expect(once.status == 200)
    }

    @Test(
        "/note takes a URL-encoded form of text within its bounds, and says what is wrong otherwise",
        arguments: [
            (["text": "x"], "text/plain", 415),
            (["text": ""], "application/x-www-form-urlencoded", 400),
            (["text": "a poem", "fromat": "x"], "application/x-www-form-urlencoded", 400),
            (["text": String(repeating: "é", count: 70_000)], "application/x-www-form-urlencoded", 413),
        ])
    func noteBounds(fields: [String: String], type: String, status: Int) async throws {
        let service = try await SharedService.get()
        var request = Self.notePost(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        request.headers = [HTTPField(name: "Content-Type", value: type)]
        let response = await service.respond(to: request)
        #expect(response.status == status, "\(response.text.prefix(300))")
        #expect(response.header("Content-Type") == "text/html; charset=utf-8", "the page answers in HTML")
        #expect(response.text.contains("class=\"alert\""))
    }

    @Test("/note refuses more marks than its bound, an escape that is no UTF-8, and a body over its own limit")
    func noteLimits() async throws {
        let service = try await SharedService.get()
        let marks = (0...NoteEdit.maxDoubts).map { ("doubt", "1:1:50:w\($0)") }
        #expect(await service.respond(to: Self.notePost([("text", "a poem")] + marks)).status == 400)
        let broken = HTTPRequest(
            method: "POST", target: "/note", headers: [HTTPField(name: "Content-Type", value: "application/x-www-form-urlencoded")],
            body: Data("text=%FF%FE".utf8))
        #expect(await service.respond(to: broken).status == 400)
        #expect(service.maximumBodyBytes(path: "/note") == NoteEdit.maxBodyBytes)
        #expect(service.maximumBodyBytes(path: "/v1/poems") == nil)
        #expect(service.maximumBodyBytes(path: "/") == nil)
        let get = await service.respond(to: HTTPRequest(method: "GET", target: "/note"))
        #expect(get.status == 405)
        #expect(get.header("Allow") == "POST")
    }

    @Test("A mistake in the names keeps the photo with the form; sent back, it is read without choosing it again")
    func photoKept() async throws {
        let service = try await SharedService.get()
        let image = try Fixtures.sampleData(Fixtures.stanza)
        let half = await service.respond(
            to: HTTPRequest(
                method: "POST", target: "/",
                form: [
                    FormPart(name: "image", data: Array(image), filename: "my poem.png", contentType: "image/png"),
                    FormPart(name: "replaceWith", text: "Alex"),
                ]))
        #expect(half.status == 400)
        let page = half.text
        #expect(page.contains("Type the name that is in the poem too"))
        #expect(page.contains("name=\"keptImage\" id=\"kept-image\" data-type=\"image/png\" value=\"\(image.base64EncodedString())\""))
        #expect(page.contains("name=\"keptImageName\" id=\"kept-image-name\" value=\"my poem.png\""))
        #expect(page.contains("Your photo \u{201C}my poem.png\u{201D} (52 KB) is still here"))
        #expect(
            page.contains("<input type=\"file\" name=\"image\" accept=\"image/*,image/heic,image/heif,image/avif,.heic,.heif,.avif\">"),
            "no longer required: the photo is kept")
        #expect(page.contains("name=\"find\" value=\"\" aria-invalid=\"true\" autofocus"))
        #expect(page.contains("name=\"replaceWith\" value=\"Alex\""))
        // The form as the browser sends it back: no file, the kept photo, the names.
        let fixed = await service.respond(
            to: HTTPRequest(
                method: "POST", target: "/",
                form: [
                    FormPart(name: "image", data: [], filename: ""), FormPart(name: "keptImage", text: image.base64EncodedString()),
                    FormPart(name: "keptImageName", text: "my poem.png"), FormPart(name: "find", text: "Lenore"),
                    FormPart(name: "replaceWith", text: "Alex"),
                ]))
        #expect(fixed.status == 200, "\(fixed.text.prefix(500))")
        #expect(fixed.text.contains("thy love, Alex!"))
    }

    @Test("The photo is not kept when it was the problem, or too large to send back; a kept field longer than any photo is refused")
    func photoNotKept() async throws {
        let service = try await SharedService.get()
        let text = await service.respond(
            to: HTTPRequest(
                method: "POST", target: "/",
                form: [
                    FormPart(name: "image", data: Array(try Fixtures.sampleData("formats/not-an-image.png")), filename: "x.png"),
                    FormPart(name: "find", text: "Lenore"), FormPart(name: "replaceWith", text: "Alex"),
                ]))
        #expect(text.status == 415)
        #expect(!text.text.contains("name=\"keptImage\""))
        let small = try await PoemService(configuration: ServiceConfiguration(workers: 1, maxUploadBytes: 100 << 10))
        let image = Array(try Fixtures.sampleData(Fixtures.stanza))
        let half = await small.respond(
            to: HTTPRequest(
                method: "POST", target: "/",
                form: [FormPart(name: "image", data: image, filename: "s.png"), FormPart(name: "find", text: "Lenore")]))
        #expect(half.status == 400)
        #expect(!half.text.contains("name=\"keptImage\""))
        #expect(half.text.contains("Choose the photo again: at 52 KB it is too large to keep with the form."))
        let tooLong = await small.respond(
            to: HTTPRequest(
                method: "POST", target: "/",
                form: [FormPart(name: "keptImage", text: String(repeating: "A", count: 140 << 10)), FormPart(name: "find", text: "L")]))
        #expect(tooLong.status == 413)
    }

    @Test(
        "Accept-Language picks the page's language",
        arguments: [
            ("fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7", PageLanguage.french), ("en-US,en;q=0.9,fr;q=0.8", .english),
            ("de-DE,de;q=0.9,fr;q=0.5", .french), ("fr;q=0, en", .english), ("FR-ca", .french), ("*", .english),
            ("", .english), ("de", .english), ("en;q=0.5, fr;q=0.6", .french), ("fr;q=abc", .english),
        ])
    func acceptLanguage(header: String, language: PageLanguage) {
        #expect(PageLanguage(acceptLanguage: header) == language)
    }

    @Test("A browser that prefers French gets the page, its problems and its note in French")
    func french() async throws {
        let service = try await SharedService.get()
        let french = [HTTPField(name: "Accept-Language", value: "fr-FR,fr;q=0.9,en;q=0.5")]
        let form = await service.respond(to: HTTPRequest(method: "GET", target: "/", headers: french))
        #expect(form.text.contains("<html lang=\"fr\">"))
        #expect(form.text.contains("Un poème pour votre amour"))
        #expect(form.header("Content-Language") == "fr")
        #expect(form.header("Vary") == "Accept-Language")
        let half = await service.respond(
            to: HTTPRequest(
                method: "POST", target: "/", headers: french,
                form: [
                    FormPart(name: "image", data: Array(try Fixtures.sampleData(Fixtures.stanza)), filename: "s.png"),
                    FormPart(name: "find", text: "Lenore"),
                ]))
        #expect(half.text.contains("Tapez aussi le prénom de votre amour, ou laissez les deux prénoms vides."))
        #expect(half.text.contains("est toujours là"))
        let note = await service.respond(to: Self.notePost([("text", "Un poème\n\npour toi")], language: "fr"))
        #expect(note.text.contains("Corriger un mot") && note.text.contains("Télécharger .html"))
        #expect(note.text.contains("data-strings=\"{&quot;replaceWithMissing&quot;:&quot;Tapez aussi"))
        let english = await service.respond(to: HTTPRequest(method: "GET", target: "/"))
        #expect(english.text.contains("<html lang=\"en\">") && english.text.contains("A poem for your love"))
    }

    @Test("The server refuses a /note body over the editor's own limit from its Content-Length, before reading it")
    func noteLimitOnTheWire() async throws {
        try await ServerProcess.with(["--jobs", "1"]) { server in
            let declared = NoteEdit.maxBodyBytes + 1
            let refused = try await RawHTTPClient.exchange(
                port: server.port,
                request: Data(
                    "POST /note HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(declared)\r\nExpect: 100-continue\r\n\r\n"
                        .utf8))
            #expect(refused.status == 413)
            #expect(refused.header("Content-Type") == "text/html; charset=utf-8")
            #expect(refused.text.contains("The poem is too long to update here (512 KB at most)."), "\(refused.text.prefix(400))")
            let fine = try await RawHTTPClient.post(
                port: server.port, "/note", contentType: "application/x-www-form-urlencoded", body: Data("text=A+poem".utf8))
            #expect(fine.status == 200)
            #expect(fine.text.contains(">A poem</span>"))
        }
    }
}
