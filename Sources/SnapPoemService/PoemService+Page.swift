import Foundation
import SnapPoem

extension PoemService {
    /// The paths of the page, answered in HTML (errors too).
    static let pagePaths: Set<String> = ["/", "/note"]

    /// The largest body a path takes, when it is smaller than the server's upload limit: the
    /// note's editor posts text, never a photo (`NoteEdit.maxBodyBytes`). The server checks it
    /// from `Content-Length` before reading the body, and while a body without one streams.
    public func maximumBodyBytes(path: String) -> Int? {
        path == "/note" ? NoteEdit.maxBodyBytes : nil
    }

    /// A page for `request`, in the language its `Accept-Language` prefers.
    func page(for request: HTTPRequest) -> ServicePage {
        ServicePage(
            nonce: ServicePage.newNonce(), language: PageLanguage(acceptLanguage: request.header("Accept-Language")),
            maxUploadBytes: configuration.maxUploadBytes)
    }

    /// `POST /note`: the note's editor. Without JavaScript it is how an edit reaches the
    /// downloads and the e-mail link; with it, the page posts it in the background a moment
    /// after typing stops (`?fragment=true`: the page's parts without its style and script,
    /// which a page parsed in the background would only have refused). No photo, no engine:
    /// the note is rendered from the text sent.
    func notePost(_ request: HTTPRequest) -> HTTPResponse {
        let page = page(for: request)
        do throws(ServiceError) {
            let edit = try NoteEdit(request, text: page.text)
            let note = ServicePage.Note(
                text: edit.text, doubts: edit.doubts, languageTag: edit.languageTag,
                downloads: Self.downloads(of: edit.text, languageTag: edit.languageTag, page: page.text),
                mailto: MailtoLink.url(forText: edit.text))
            let fragment = request.query.contains { $0.name == "fragment" && $0.value == "true" }
            return Self.html(page.note(note, fragment: fragment), status: 200, page: page)
        } catch {
            return Self.html(
                page.form(ServicePage.FormState(error: Self.pageMessage(for: error, text: page.text))), status: error.status,
                page: page)
        }
    }

    /// The note's downloads of `text`: `.txt`, `.html` (the love note) and `.eml` (a draft),
    /// each made by the library's exporter from the text as it stands.
    static func downloads(of text: String, languageTag: String, page: PageText) -> [ServicePage.Download] {
        var downloads: [ServicePage.Download] = [
            .init(fileName: "poem.txt", label: page.downloadText, mediaType: "text/plain;charset=utf-8", data: Data(text.utf8)),
            .init(
                fileName: "poem.html", label: page.downloadHTML, mediaType: "text/html;charset=utf-8",
                data: HTMLExporter(languageTag: languageTag).export(text: text)),
        ]
        let email = EmailDraftOptions(stamp: .now())
        if let eml = try? EmailDraftExporter(options: email, languageTag: languageTag).export(text: text) {
            downloads.append(.init(fileName: "poem.eml", label: page.downloadEmail, mediaType: "message/rfc822", data: eml))
        }
        return downloads
    }
}
