import CMicroHTTPD
import Foundation
import SnapPoemService
import Synchronization

/// One request's state, from its headers to its completion. libmicrohttpd keeps a pointer to
/// it (retained) in the connection's request slot until the request completes.
///
/// Threading: everything but `answer` is touched only on libmicrohttpd's polling thread
/// (the access handler and the completion callback run there, one at a time). `answer` is
/// written by the task that runs the service and read by the polling thread after
/// `MHD_resume_connection`.
final class RequestContext: @unchecked Sendable {
    /// The request's identifier.
    let id: String
    /// `GET`, `POST`, …
    let method: String
    /// The path, decoded.
    let path: String
    /// When the headers were complete.
    let start = ContinuousClock.now
    /// The headers.
    var headers: [HTTPField] = []
    /// The query's parameters.
    var query: [HTTPField] = []
    /// The raw body, when it is not a form.
    var body = Data()
    /// The form's parts, when the body is `multipart/form-data`.
    var form: [FormPart]?
    /// libmicrohttpd's form parser for this request, when it has one.
    var postProcessor: OpaquePointer?
    /// The largest body this request may send: the upload limit, or its route's smaller one.
    var bodyLimit = 0
    /// Body bytes received so far.
    var receivedBytes = 0
    /// The body passed the upload limit: the rest is read and dropped, then 413.
    var overLimit = false
    /// The form parser refused the body.
    var formBroken = false
    /// The request was handed to the service.
    var dispatched = false
    /// The status of the response queued, for the log line.
    var status: Int?
    /// The response's body size, for the log line.
    var sentBytes = 0
    /// Why the connection was closed without an answer, for the log line.
    var closedBecause: String?
    /// The task running the service, cancelled if a stop runs out of time.
    var task: Task<Void, Never>?
    /// The service's answer, set by `task`.
    let answer = Mutex<HTTPResponse?>(nil)

    init(id: String, method: String, path: String) {
        self.id = id
        self.method = method
        self.path = path
    }

    /// The request as the service takes it.
    var request: HTTPRequest {
        HTTPRequest(method: method, path: path, query: query, headers: headers, body: body, form: form, id: id)
    }

    /// Adds a chunk of a form part, as libmicrohttpd's parser delivers them: a part begins at
    /// offset 0 and continues at later offsets.
    func appendFormData(name: String, filename: String?, contentType: String?, offset: UInt64, bytes: UnsafeBufferPointer<UInt8>) {
        if offset == 0 || form?.last?.name != name {
            form = (form ?? []) + [FormPart(name: name, data: Array(bytes), filename: filename, contentType: contentType)]
        } else if var last = form?.popLast() {
            last.data.append(contentsOf: bytes)
            form?.append(last)
        }
    }
}

/// A libmicrohttpd connection handle carried into the task that answers it; the task only
/// passes it back to `MHD_resume_connection`, which may be called from any thread.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
