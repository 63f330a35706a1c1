import Foundation
import SnapPoem
import Testing

@testable import SnapPoemService

/// The page at `/`: self-contained, strict about what may run, and escaping everything the
/// user typed.
@Suite("The page")
struct ServicePageTests {
    /// The nonce of a page's policy.
    static func nonce(_ response: HTTPResponse) -> String? {
        guard let policy = response.header("Content-Security-Policy"),
            let range = policy.range(of: #"'nonce-([A-Za-z0-9+/=]+)'"#, options: .regularExpression)
        else { return nil }
        return String(policy[range].dropFirst("'nonce-".count).dropLast())
    }

    @Test("GET / is one self-contained page: camera input, two names, a policy that lets only its own style and script run")
    func form() async throws {
        let service = try await SharedService.get()
        let response = await service.respond(to: HTTPRequest(method: "GET", target: "/"))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Referrer-Policy") == "no-referrer")
        let policy = try #require(response.header("Content-Security-Policy"))
        #expect(policy.hasPrefix("default-src 'none'"))
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(policy.contains("form-action 'self'"))
        let nonce = try #require(Self.nonce(response))
        let page = response.text
        #expect(page.contains("<script nonce=\"\(nonce)\">"))
        #expect(page.contains("<style nonce=\"\(nonce)\">"))
        // No capture attribute: a phone then offers its camera and its photos alike.
        #expect(
            page.contains(
                "<input type=\"file\" name=\"image\" accept=\"image/*,image/heic,image/heif,image/avif,.heic,.heif,.avif\" required>"))
        #expect(page.contains("method=\"post\" action=\"/\" enctype=\"multipart/form-data\""))
        #expect(page.contains("name=\"find\"") && page.contains("name=\"replaceWith\""))
        // Nothing is fetched from elsewhere: no external scripts, styles, fonts or images.
        #expect(!page.contains("src=\"http") && !page.contains("href=\"http") && !page.contains("@import") && !page.contains("url("))
        #expect(!page.contains(" style=\""), "inline style attributes would be blocked by the policy")
        // Each response has its own nonce.
        let again = await service.respond(to: HTTPRequest(method: "GET", target: "/"))
        #expect(Self.nonce(again) != nonce)
    }

    @Test("The form post answers the note with the names replaced, downloads and a mailto: draft")
    func note() async throws {
        let service = try await SharedService.get()
        let form = [
            FormPart(
                name: "image", data: Array(try Fixtures.sampleData(Fixtures.stanza)), filename: "stanza.png", contentType: "image/png"),
            FormPart(name: "find", text: "lenore"),
            FormPart(name: "replaceWith", text: "Alex"),
        ]
        let response = await service.respond(to: HTTPRequest(method: "POST", target: "/", form: form))
        #expect(response.status == 200, "\(response.text)")
        let page = response.text
        #expect(page.contains("<span class=\"line\">See! on yon drear and rigid bier low lies thy love, Alex!</span>"))
        #expect(page.contains("download=\"poem.txt\" href=\"data:text/plain;charset=utf-8;base64,"))
        #expect(page.contains("download=\"poem.html\""))
        #expect(page.contains("download=\"poem.eml\""))
        #expect(page.contains("href=\"mailto:?subject="))
        #expect(page.contains("id=\"copy\"") && page.contains("id=\"share\""))
        let nonce = try #require(Self.nonce(response))
        #expect(page.contains("<script nonce=\"\(nonce)\">"))
        // The text download is the poem itself.
        let start = try #require(page.range(of: "data:text/plain;charset=utf-8;base64,"))
        let encoded = page[start.upperBound...].prefix { $0 != "\"" }
        let text = String(decoding: try #require(Data(base64Encoded: String(encoded))), as: UTF8.self)
        #expect(text.contains("thy love, Alex!"))
    }

    @Test("A name such as <script> is shown as text, never run, in the note and in the form")
    func escaping() async throws {
        let service = try await SharedService.get()
        let hostile = "<script>alert(\"x\")</script>"
        let form = [
            FormPart(name: "image", data: Array(try Fixtures.sampleData(Fixtures.stanza)), filename: "<b>.png", contentType: "image/png"),
            FormPart(name: "find", text: "Lenore"),
            FormPart(name: "replaceWith", text: hostile),
        ]
        let response = await service.respond(to: HTTPRequest(method: "POST", target: "/", form: form))
        #expect(response.status == 200, "\(response.text)")
        let page = response.text
        #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"))
        #expect(occurrences(of: "<script", in: page) == 1, "only the page's own, nonce'd script")
        #expect(!page.contains("<b>"))

        // A failed post shows the form again with what was typed, escaped.
        let missing = await service.respond(
            to: HTTPRequest(method: "POST", target: "/", form: [FormPart(name: "find", text: "\"><img src=x onerror=alert(1)>")]))
        #expect(missing.status == 400)
        #expect(missing.text.contains("value=\"&quot;&gt;&lt;img src=x onerror=alert(1)&gt;\""))
        #expect(missing.text.contains("Choose or take a photo of the poem first."))
        #expect(!missing.text.contains("<img src=x"))
    }

    @Test("A name not in the poem is said on the note; a photo without text says so")
    func notices() async throws {
        let service = try await SharedService.get()
        let form = [
            FormPart(name: "image", data: Array(try Fixtures.sampleData(Fixtures.stanza)), filename: "s.png", contentType: "image/png"),
            FormPart(name: "find", text: "Annabel"), FormPart(name: "replaceWith", text: "Alex"),
        ]
        let response = await service.respond(to: HTTPRequest(method: "POST", target: "/", form: form))
        #expect(response.status == 200)
        #expect(response.text.contains("class=\"notice\""))
        #expect(response.text.contains("\u{201C}Annabel\u{201D} is not in the poem"))
        let blank = [
            FormPart(name: "image", data: Array(try Fixtures.sampleData("blank.png")), filename: "b.png", contentType: "image/png")
        ]
        let empty = await service.respond(to: HTTPRequest(method: "POST", target: "/", form: blank))
        #expect(empty.status == 200)
        #expect(empty.text.contains("No text was found in the photo."))
    }

    @Test("Half a pair of names, a damaged photo: the form again with the problem and the right status")
    func formErrors() async throws {
        let service = try await SharedService.get()
        let image = FormPart(name: "image", data: Array(try Fixtures.sampleData(Fixtures.stanza)), filename: "s.png")
        let half = await service.respond(
            to: HTTPRequest(method: "POST", target: "/", form: [image, FormPart(name: "find", text: "Lenore")]))
        #expect(half.status == 400)
        #expect(half.text.contains("Type your love\u{2019}s name too"))
        let damaged = FormPart(name: "image", data: Array(try Fixtures.sampleData("formats/truncated.png")), filename: "t.png")
        let broken = await service.respond(to: HTTPRequest(method: "POST", target: "/", form: [damaged]))
        #expect(broken.status == 422)
        #expect(broken.text.contains("That photo could not be read"))
        let raw = await service.respond(
            to: HTTPRequest(
                method: "POST", target: "/", headers: [HTTPField(name: "Content-Type", value: "image/png")], body: Data([1, 2])))
        #expect(raw.status == 415)
        #expect(raw.header("Content-Type") == "text/html; charset=utf-8")
    }

    @Test("The page escapes its texts as the exporters do, DEL and other control characters included")
    func escapeFunction() {
        #expect(MarkupEscaping.escape("a<b>&\"c\"'d'") == "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;")
        #expect(MarkupEscaping.escape("x\u{0}y\u{7F}") == "x\u{FFFD}y\u{FFFD}")
    }
}
