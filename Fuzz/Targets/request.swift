// fuzz-modules: SnapPoem SnapPoemService
//
// What `snap-poem serve` reads from the network before any image is decoded: the request
// target (path and query string) and the form's parts, as libmicrohttpd hands them over.
// The input is split at NUL bytes: the first piece is the request target, the second the
// image part's file name, the rest alternate between a form field's name and its value.
// The upload and the options are taken apart as `POST /v1/poems` does; a refusal must be a
// 4xx with a one-line message, and the JSON error body must parse. The whole input is also
// the URL-encoded body of the page's note editor (`POST /note`): refused with a 4xx, or a
// note page whose only script is its own.
import Foundation
import SnapPoem

@testable import SnapPoemService

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let pieces = UnsafeBufferPointer(start: bytes, count: size).split(separator: 0, omittingEmptySubsequences: false)
        .prefix(2 + 2 * 120).map { Array($0) }
    guard let target = pieces.first else { return 0 }
    // A real 1×1 PNG: the upload's bytes are checked before the options are read.
    var form = [FormPart(name: "image", data: onePixelPNG, filename: pieces.count > 1 ? String(decoding: pieces[1], as: UTF8.self) : nil)]
    var index = 2
    while index + 1 < pieces.count {
        form.append(FormPart(name: String(decoding: pieces[index], as: UTF8.self), data: pieces[index + 1]))
        index += 2
    }
    let request = HTTPRequest(
        method: "POST", target: String(decoding: target, as: UTF8.self),
        headers: [HTTPField(name: "Content-Type", value: "multipart/form-data; boundary=x")], form: form)
    do throws(ServiceError) {
        let upload = try Upload(request)
        precondition(!upload.name.contains("\n"), "an upload's name spans two lines")
        _ = try PoemRequestOptions(fields: request.query + upload.fields, defaults: ScanConfiguration(), maxTimeLimit: .seconds(30))
    } catch {
        precondition((400..<500).contains(error.status), "a request's own fault answered \(error.status)")
        precondition(!error.message.contains("\n"), "an error message spans two lines")
        let body = error.jsonBody(requestID: "fuzz")
        precondition((try? JSONSerialization.jsonObject(with: body)) != nil, "the error body is not JSON")
    }
    let note = HTTPRequest(
        method: "POST", path: "/note", headers: [HTTPField(name: "Content-Type", value: "application/x-www-form-urlencoded")],
        body: Data(UnsafeBufferPointer(start: bytes, count: size)))
    do throws(ServiceError) {
        let edit = try NoteEdit(note, text: PageLanguage.english.text)
        let page = ServicePage(nonce: "fuzz", language: .english, maxUploadBytes: 1 << 20)
        let html = page.note(
            ServicePage.Note(text: edit.text, doubts: edit.doubts, languageTag: edit.languageTag, downloads: [], mailto: "mailto:"))
        precondition(html.components(separatedBy: "<script").count == 2, "the note has a script that is not its own")
        precondition(html.components(separatedBy: "<mark").count - 1 <= edit.doubts.count, "more marks than marked words")
    } catch {
        precondition((400..<500).contains(error.status), "a note's own fault answered \(error.status)")
    }
    return 0
}

let onePixelPNG: [UInt8] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
    0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3A, 0x7E, 0x9B, 0x55, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41,
    0x54, 0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x48, 0xAF, 0xA4, 0x71, 0x00, 0x00, 0x00, 0x00, 0x49,
    0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
]
