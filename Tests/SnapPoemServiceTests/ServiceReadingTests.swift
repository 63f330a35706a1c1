import Foundation
import SnapPoem
import Testing

@testable import SnapPoemService

/// What was read, from the service: the API's side-by-side page (`format=html&sideBySide=true`)
/// and the note page's "Show the photo with what was read". Both embed the annotated photo as a
/// `data:` URL; nothing is written to disk.
@Suite("The service shows what was read")
struct ServiceReadingTests {
    @Test("format=html&sideBySide=true answers the side-by-side page, with a policy that lets its embedded photo show")
    func apiSideBySide() async throws {
        let service = try await SharedService.get()
        let response = await service.respond(
            to: try PoemServiceTests.upload(Fixtures.stanza, query: "format=html&sideBySide=true&replace=Lenore%3DAlex"))
        #expect(response.status == 200, "\(response.text)")
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        let page = response.text
        #expect(page.contains("<img src=\"data:image/jpeg;base64,"))
        #expect(page.contains("<a class=\"replaced c-1\" id=\"change-1\" href=\"#box-1\""))
        #expect(page.contains("class=\"reading-box c-1\" id=\"box-1\" href=\"#change-1\""))
        #expect(!page.contains("<script"))
        let policy = try #require(response.header("Content-Security-Policy"))
        #expect(policy.hasPrefix("default-src 'none'") && policy.contains("img-src data:") && !policy.contains("script-src"))
        // Without it, the love note alone, as before.
        let plain = await service.respond(to: try PoemServiceTests.upload(Fixtures.stanza, query: "format=html"))
        #expect(plain.status == 200 && !plain.text.contains("data:image/jpeg"))
        #expect(plain.header("Content-Security-Policy")?.contains("img-src") == false)
    }

    @Test(
        "sideBySide is for format=html only, and takes true or false",
        arguments: ["sideBySide=true", "format=json&sideBySide=1", "format=html&sideBySide=maybe"])
    func refusals(query: String) async throws {
        let service = try await SharedService.get()
        let response = await service.respond(to: try PoemServiceTests.upload(Fixtures.stanza, query: query))
        #expect(response.status == 400, "\(query): \(response.text)")
        #expect(response.text.contains("sideBySide"), "\(response.text)")
    }

    @Test("The form has the choice; ticked, the note numbers its lines, links the replaced word, and shows the annotated photo")
    func notePage() async throws {
        let service = try await SharedService.get()
        let form = await service.respond(to: HTTPRequest(method: "GET", target: "/"))
        #expect(form.text.contains("<input type=\"checkbox\" name=\"showReading\" value=\"true\">"))
        let parts = [
            FormPart(
                name: "image", data: Array(try Fixtures.sampleData(Fixtures.stanza)), filename: "stanza.png", contentType: "image/png"),
            FormPart(name: "find", text: "Lenore"), FormPart(name: "replaceWith", text: "Alex"),
            FormPart(name: "showReading", text: "true"),
        ]
        let response = await service.respond(to: HTTPRequest(method: "POST", target: "/", form: parts))
        #expect(response.status == 200, "\(response.text)")
        let page = response.text
        #expect(page.contains("<section class=\"card reading-card\""))
        #expect(page.contains("<img src=\"data:image/jpeg;base64,"))
        #expect(page.contains("thy love, <a class=\"replaced c-1\" id=\"change-1\" href=\"#box-1\""))
        #expect(page.contains("<span class=\"reading-number\" aria-hidden=\"true\">"))
        #expect(!page.contains(" style=\""), "positions are in the nonce'd style sheet, which the policy allows")
        let policy = try #require(response.header("Content-Security-Policy"))
        #expect(policy.contains("img-src blob: data:"))
        // The text download is still the poem alone.
        #expect(page.contains("download=\"poem.txt\""))

        // Not ticked: the note as before, no photo.
        let plain = await service.respond(to: HTTPRequest(method: "POST", target: "/", form: Array(parts.dropLast())))
        #expect(plain.status == 200)
        #expect(!plain.text.contains("<section class=\"card reading-card\"") && !plain.text.contains("data:image/jpeg"))
        #expect(plain.text.contains("<span class=\"line\">See! on yon drear and rigid bier low lies thy love, Alex!</span>"))
    }
}
