import Foundation
import SnapPoem

/// Why a request was refused, with the honest HTTP status, a stable machine-readable code and
/// one line for a person. Sent as JSON: `{"code": "…", "error": "…", "requestId": "…"}`.
public struct ServiceError: Error, Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// A stable code for programs, e.g. `payload_too_large`.
    public var code: String
    /// One line for a person: what is wrong and what to do.
    public var message: String
    /// Seconds after which a retry may succeed (`Retry-After`), for 503.
    public var retryAfterSeconds: Int?
    /// The methods a path takes (`Allow`), for 405.
    public var allowedMethods: [String]?
    /// What a time limit left of the poem, for 504.
    public var partialText: String?

    /// Creates an error. Control characters in `message` (from a field name or value the
    /// client sent) are escaped, so the message is always one line.
    public init(
        status: Int, code: String, message: String, retryAfterSeconds: Int? = nil, allowedMethods: [String]? = nil,
        partialText: String? = nil
    ) {
        self.status = status
        self.code = code
        // A field name or value from the request may hold a line break: one line, escaped.
        self.message = OneLine.escaping(message)
        self.retryAfterSeconds = retryAfterSeconds
        self.allowedMethods = allowedMethods
        self.partialText = partialText
    }

    /// 400: an option's value or a combination of options is wrong.
    static func badOption(_ message: String) -> ServiceError {
        ServiceError(status: 400, code: "bad_option", message: message)
    }

    /// 413: the body is over the upload limit.
    public static func payloadTooLarge(limitBytes: Int) -> ServiceError {
        ServiceError(
            status: 413, code: "payload_too_large",
            message: "the upload is larger than this server's limit of \(ByteCount(limitBytes)); send a smaller photo")
    }

    /// 400: a `multipart/form-data` body the form parser could not read to its end: a
    /// missing or wrong boundary, a part cut short, no closing boundary.
    public static let badForm = ServiceError(
        status: 400, code: "bad_form",
        message: "the multipart/form-data body could not be parsed (a missing boundary, a part cut short, or no closing boundary)")

    /// 400: a form with more than one field named `image`.
    public static let secondImage = ServiceError.badOption("the form has more than one field named 'image'; send one")

    /// 400: more than `limit` text fields (form fields and query parameters each).
    public static func tooManyFields(limit: Int) -> ServiceError {
        .badOption("the request has more than \(limit) fields; send at most \(limit) form fields and \(limit) query parameters")
    }

    /// 400: a text field of the form larger than `limit` bytes.
    public static func fieldTooLarge(name: String, limit: Int) -> ServiceError {
        .badOption("the form field '\(name.prefix(40))' is larger than \(ByteCount(limit)); a text field holds at most that")
    }

    /// 503: the request bodies the server holds at once (arriving or waiting, over all
    /// connections) would pass its upload budget: refused before the body is read.
    public static func tooManyUploads(limitBytes: Int, retryAfterSeconds: Int) -> ServiceError {
        ServiceError(
            status: 503, code: "too_many_uploads",
            message:
                "the server holds as many uploads as its memory allows (\(ByteCount(limitBytes)) in all); try again in \(retryAfterSeconds) s",
            retryAfterSeconds: retryAfterSeconds)
    }

    /// 429: this client address already holds its share of the upload budget.
    public static func addressUploadsBusy(limitBytes: Int, retryAfterSeconds: Int) -> ServiceError {
        ServiceError(
            status: 429, code: "too_many_requests",
            message:
                "uploads from this address already hold \(ByteCount(limitBytes)), this address's share of the server; try again in \(retryAfterSeconds) s",
            retryAfterSeconds: retryAfterSeconds)
    }

    /// 429: this client address already has `places` requests waiting or being read, its
    /// share of the service's engines and queue.
    public static func tooManyRequests(places: Int, retryAfterSeconds: Int) -> ServiceError {
        ServiceError(
            status: 429, code: "too_many_requests",
            message:
                "this address already has \(places) request\(places == 1 ? "" : "s") waiting or being read, its share of the server; try again in \(retryAfterSeconds) s",
            retryAfterSeconds: retryAfterSeconds)
    }

    /// 503: the service is stopping and takes no new work.
    public static let shuttingDown = ServiceError(
        status: 503, code: "shutting_down", message: "the service is stopping; try again in a moment", retryAfterSeconds: 5)

    /// The status for a `SnapPoemError` raised while reading an upload: 400 for what the
    /// client chose (options, languages), 415 for bytes that are no image, 422 for an image
    /// that cannot be read, 413 for one over the library's input limit, 503 when the scan was
    /// cancelled (the service is stopping) or memory ran out, 500 for the engine's own failures.
    init(_ error: SnapPoemError) {
        switch error {
        case .emptyFile:
            self.init(status: 400, code: "missing_image", message: "the request holds no image; \(Self.howToSend)")
        case .unsupportedImageFormat:
            self.init(status: 415, code: "unsupported_media_type", message: error.description)
        case .corruptImage:
            self.init(status: 422, code: "damaged_image", message: error.description)
        case .imageTooLarge:
            self.init(status: 422, code: "image_too_large", message: error.description)
        case .invalidLanguage, .languageNotAvailable, .invalidOption, .invalidEngineVariable, .invalidReplacementsFile:
            self.init(status: 400, code: "bad_option", message: error.description)
        case .fileTooLarge:
            self.init(status: 413, code: "payload_too_large", message: error.description)
        case .outOfMemory:
            // The server's memory, not the request, ran short: another try may succeed.
            self.init(status: 503, code: "out_of_memory", message: error.description, retryAfterSeconds: 5)
        case .cancelled:
            self = .shuttingDown
        case .notARegularFile, .fileNotFound, .unreadableFile, .tessdataNotFound, .engineInitializationFailed, .recognitionFailed,
            .outputNotWritten, .exportFailed, .noImagesInFolder, .workerFailed:
            self.init(status: 500, code: "internal_error", message: error.description)
        }
    }

    /// How an image is sent, for messages.
    static let howToSend =
        "send the image as the body (Content-Type: image/* or application/octet-stream) or as the field 'image' of a multipart/form-data form"

    /// The JSON body.
    func jsonBody(requestID: String) -> Data {
        struct Body: Encodable {
            var code: String
            var error: String
            var partialText: String?
            var requestId: String
            var retryAfterSeconds: Int?
            var timedOut: Bool?
        }
        let body = Body(
            code: code, error: message, partialText: partialText, requestId: requestID, retryAfterSeconds: retryAfterSeconds,
            timedOut: code == "timed_out" ? true : nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and booleans only: encoding cannot fail.
        var data = (try? encoder.encode(body)) ?? Data("{\"code\":\"internal_error\"}".utf8)
        data.append(0x0A)
        return data
    }
}

/// A byte count for people: `20 MB`, `512 KB`, `37 bytes`.
struct ByteCount: CustomStringConvertible {
    let bytes: Int
    init(_ bytes: Int) { self.bytes = bytes }

    var description: String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 20 { return String(format: "%.1f MB", Double(bytes) / Double(1 << 20)) }
        if bytes >= 1 << 10 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }
}
