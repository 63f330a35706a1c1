import CMicroHTTPD
import Foundation
import SnapPoemService
import Synchronization

/// One request's state, from its request line to its completion. libmicrohttpd keeps a
/// pointer to it (retained) in the connection's request slot until the request completes:
/// the slot is filled when the request line is in (`.URI_LOG_CALLBACK`), before
/// libmicrohttpd reads the query and the headers, so that a request libmicrohttpd refuses
/// itself afterwards still reaches the completion callback and the log.
///
/// Threading: everything but `answer` is touched only on the server's loop thread (the
/// access handler, the completion callback and the housekeeping run there, one at a time).
/// `answer` is written by the task that runs the service and read by the loop thread after
/// `MHD_resume_connection`.
final class RequestContext: @unchecked Sendable {
    /// The request's identifier.
    var id = "-"
    /// `GET`, `POST`, …; `-` until the headers are in.
    var method = "-"
    /// The path, decoded; `-` until the headers are in.
    var path = "-"
    /// The client's address.
    let address: String
    /// When the request line arrived; when the headers were complete, once they are.
    var start = ContinuousClock.now
    /// Whether the headers are in (the access handler has been called).
    var headersIn = false
    /// The parameters of a query with more than `FormLimits.maxFields`, which libmicrohttpd
    /// was kept from reading; nil for a query within the limit.
    var queryOverLimit: Int?
    /// The bytes of the request target (path and query), as sent.
    var targetBytes = 0
    /// The headers.
    var headers: [HTTPField] = []
    /// The query's parameters.
    var query: [HTTPField] = []
    /// Why the query cannot be taken as text (`HTTPRequest.queryProblem`).
    var queryProblem: String?
    /// The raw body, when it is not a form.
    var body = Data()
    /// The form's parts, when the body is `multipart/form-data`.
    var form: [FormPart]?
    /// Text fields of the form seen so far, and the photo fields by name.
    private(set) var textParts = 0
    private var photoParts: [String: Int] = [:]
    /// libmicrohttpd's form parser for this request, when it has one.
    var postProcessor: OpaquePointer?
    /// The largest body this request may send: the upload limit, or its route's smaller one.
    var bodyLimit = 0
    /// Body bytes received so far.
    var receivedBytes = 0
    /// When the headers or the latest chunk of the body arrived.
    var lastArrival = ContinuousClock.now
    /// Bytes of the shared body budget this request holds (`UploadBudget`).
    var reservedBytes = 0
    /// Whether the request holds one of its address's places in the service.
    var holdsPlace = false
    /// Why the request is refused, found while its body arrived (a part over a limit, the
    /// body budget spent): the rest of the body is read and dropped, then this is the answer.
    var refusal: ServiceError?
    /// The request was handed to the service.
    var dispatched = false
    /// The client went away while the service worked on the request: its task is cancelled
    /// and nothing is sent.
    var clientGone = false
    /// The request is HTTP/1.1 (or later), so an interim response (`100 Continue`) may be sent
    /// before its answer.
    var acceptsInterimResponse = false
    /// The client stopped sending while its request was being worked on, and was sent an
    /// interim response to find out whether it still reads (a half-close) or has gone.
    var interimProbed = false
    /// The status of the response queued, for the log line.
    var status: Int?
    /// The response's body size, for the log line.
    var sentBytes = 0
    /// Why the connection was closed without an answer, for the log line.
    var closedBecause: String?
    /// The task running the service, cancelled if the client goes or a stop runs out of time.
    var task: Task<Void, Never>?
    /// The service's answer, set by `task`.
    let answer = Mutex<HTTPResponse?>(nil)

    init(address: String) {
        self.address = address
    }

    /// The request as the service takes it.
    var request: HTTPRequest {
        HTTPRequest(
            method: method, path: path, query: query, headers: headers, body: body, form: form, id: id, queryProblem: queryProblem)
    }

    /// Lets go of everything received (after a refusal, or once the service has it).
    func dropBody() {
        body = Data()
        form = form == nil ? nil : []
    }

    /// Adds a chunk of a form part, as libmicrohttpd's parser delivers them: a part begins at
    /// offset 0 and continues at later offsets. Parts are appended in place (never by copying
    /// the list), and the form's limits are checked as the parts arrive: at most
    /// `FormLimits.maxFields` text fields of at most `FormLimits.maxFieldBytes` each, and one
    /// of each photo field (`FormLimits.photoFields`, bounded by the upload limit).
    ///
    /// - Returns: the refusal when this chunk passed a limit; the caller stops the parser.
    func appendFormData(name: String, filename: String?, contentType: String?, offset: UInt64, bytes: UnsafeBufferPointer<UInt8>)
        -> ServiceError?
    {
        if form == nil { form = [] }
        if offset == 0 || form?.last?.name != name {
            if FormLimits.photoFields.contains(name) {
                photoParts[name, default: 0] += 1
                if photoParts[name, default: 0] > 1 {
                    return .duplicateField(name)
                }
            } else {
                textParts += 1
                if textParts > FormLimits.maxFields { return .tooManyFields(limit: FormLimits.maxFields) }
            }
            form!.append(FormPart(name: name, bytes: Data(bytes), filename: filename, contentType: contentType))
        } else {
            form![form!.count - 1].data.append(bytes)
        }
        if !FormLimits.photoFields.contains(name), let last = form?.last, last.data.count > FormLimits.maxFieldBytes {
            return .fieldTooLarge(name: name, limit: FormLimits.maxFieldBytes)
        }
        return nil
    }
}

/// A libmicrohttpd connection handle carried into the task that answers it; the task only
/// passes it back to `MHD_resume_connection`, which may be called from any thread.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
