// fuzz-modules: SnapPoem SnapPoemService
//
// What `snap-poem serve` reads from the network before any image is decoded: the request
// target (path and query string) and the form's parts, as libmicrohttpd hands them over.
// The input is split at NUL bytes: the first piece is the request target, the second the
// image part's file name, the rest alternate between a form field's name and its value.
// The upload and the options are taken apart as `POST /v1/poems` does; a refusal must be a
// 4xx with a one-line message, and the JSON error body must parse.
import Foundation
import SnapPoem

@testable import SnapPoemService

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let pieces = UnsafeBufferPointer(start: bytes, count: size).split(separator: 0, omittingEmptySubsequences: false)
        .prefix(2 + 2 * 120).map { Array($0) }
    guard let target = pieces.first else { return 0 }
    var form = [FormPart(name: "image", data: [0x89, 0x50, 0x4E, 0x47], filename: pieces.count > 1 ? String(decoding: pieces[1], as: UTF8.self) : nil)]
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
    return 0
}
