import Foundation
import SnapPoem

/// Why a request was refused, with the honest HTTP status, a stable machine-readable code and
/// one line for a person. Sent as JSON: `{"code": "…", "error": "…", "requestId": "…"}`.
///
/// Every code the service can send is a case of `Code`, and each code has one status: the
/// OpenAPI document (`GET /openapi.json`) and the tests are generated from that table, so
/// the documentation cannot miss a code.
public struct ServiceError: Error, Sendable, Equatable {
    /// Every machine-readable code of an error answer, with its status.
    public enum Code: String, Sendable, CaseIterable, Codable {
        /// 400: an option's value or a combination is wrong; an unknown field; a language
        /// without data.
        case badOption = "bad_option"
        /// 400: no body, or a form without the field `image`.
        case missingImage = "missing_image"
        /// 400: a `multipart/form-data` body that cannot be parsed (no boundary, a part cut
        /// short, no closing boundary).
        case badForm = "bad_form"
        /// 404: no such path.
        case notFound = "not_found"
        /// 405: a known path with another method; `Allow` lists the right ones.
        case methodNotAllowed = "method_not_allowed"
        /// 408: the request stopped arriving (its body silent for the idle timeout), or did
        /// not arrive whole within the request timeout; the connection is closed.
        case requestTimeout = "request_timeout"
        /// 413: the body is over the upload limit (or the library's input limit).
        case payloadTooLarge = "payload_too_large"
        /// 414: the request target (path and query) is longer than the server takes.
        case uriTooLong = "uri_too_long"
        /// 415: the bytes are no image snap-poem reads, or the declared `Content-Type`
        /// contradicts them.
        case unsupportedMediaType = "unsupported_media_type"
        /// 422: the image is damaged or cut short.
        case damagedImage = "damaged_image"
        /// 422: the image is over the pixel limit the memory budget allows (checked from its
        /// header, before it waits for an engine).
        case imageTooLarge = "image_too_large"
        /// 422: the page holds more separate marks than Tesseract's layout analysis, which
        /// cannot be stopped, may be given (`RecognitionOptions.markLimit`); nothing was read.
        case tooManyMarks = "too_many_marks"
        /// 429: this client address already holds its share of the engines and queue, or of
        /// the upload budget; `Retry-After`.
        case tooManyRequests = "too_many_requests"
        /// 431: the request line and headers together are larger than the server takes.
        case headersTooLarge = "headers_too_large"
        /// 500: the engine itself failed.
        case internalError = "internal_error"
        /// 503: every engine is busy and the queue is full; `Retry-After` says when to try again.
        case busy
        /// 503: the server is stopping.
        case shuttingDown = "shutting_down"
        /// 503: the server ran short of memory while reading this image; `Retry-After`.
        case outOfMemory = "out_of_memory"
        /// 503: the request bodies held at once would pass the upload budget; refused before
        /// the body is read; `Retry-After`.
        case tooManyUploads = "too_many_uploads"
        /// 504: the time limit stopped recognition; `partialText` holds what was read.
        case timedOut = "timed_out"

        /// The HTTP status every error with this code has.
        public var status: Int {
            switch self {
            case .badOption, .missingImage, .badForm: 400
            case .notFound: 404
            case .methodNotAllowed: 405
            case .requestTimeout: 408
            case .payloadTooLarge: 413
            case .uriTooLong: 414
            case .unsupportedMediaType: 415
            case .damagedImage, .imageTooLarge, .tooManyMarks: 422
            case .tooManyRequests: 429
            case .headersTooLarge: 431
            case .internalError: 500
            case .busy, .shuttingDown, .outOfMemory, .tooManyUploads: 503
            case .timedOut: 504
            }
        }

        /// When the code is sent, in one sentence (the OpenAPI document's description).
        public var summary: String {
            switch self {
            case .badOption: "An option's value or a combination of options is wrong, a field is unknown, or a language has no data."
            case .missingImage: "The request holds no image: no body, or a form without the field 'image'."
            case .badForm: "The multipart/form-data body could not be parsed (no boundary, a part cut short, or no closing boundary)."
            case .notFound: "No such path."
            case .methodNotAllowed: "The path takes other methods; the Allow header lists them."
            case .requestTimeout:
                "The request stopped arriving (--idle-timeout) or did not arrive whole in time (--request-timeout); the connection is closed."
            case .payloadTooLarge: "The body is over the server's upload limit (--max-upload-mb)."
            case .uriTooLong: "The request target (path and query) is longer than the server takes; send the options as form fields."
            case .headersTooLarge: "The request line and headers together are larger than the server takes."
            case .unsupportedMediaType:
                "The bytes are no image snap-poem reads (a PDF, text, an AVIF without an AV1 decoder), or the declared Content-Type contradicts them."
            case .damagedImage: "The image is damaged or cut short."
            case .imageTooLarge:
                "The image has more pixels than this server's memory budget allows per image (at most 150 megapixels, 65 000 pixels a side), checked from its header."
            case .tooManyMarks:
                "The page holds more separate marks (specks, dots) than any page of text, so it was not read: Tesseract's layout analysis of them cannot be stopped; crop the photo to the poem."
            case .tooManyRequests:
                "This client address already holds its share of the engines and queue, or of the upload budget; Retry-After says when to try again."
            case .internalError: "The engine itself failed."
            case .busy:
                "Every engine is busy and the queue is full, or the connections hold all the memory they may; Retry-After says when to try again."
            case .shuttingDown: "The server is stopping; Retry-After says when to try again (elsewhere)."
            case .outOfMemory: "The server ran short of memory while reading this image; another try may fit (Retry-After)."
            case .tooManyUploads:
                "The uploads the server holds at once would pass its memory budget; refused before the body is read (Retry-After)."
            case .timedOut: "The time limit stopped recognition; partialText holds what was read by then."
            }
        }
    }

    /// The stable code for programs, e.g. `payload_too_large`.
    public var code: Code
    /// One line for a person: what is wrong and what to do.
    public var message: String
    /// Seconds after which a retry may succeed (`Retry-After`), for 503.
    public var retryAfterSeconds: Int?
    /// The methods a path takes (`Allow`), for 405.
    public var allowedMethods: [String]?
    /// What a time limit left of the poem, for 504.
    public var partialText: String?

    /// The HTTP status: the code's.
    public var status: Int { code.status }

    /// Creates an error. Control characters in `message` (from a field name or value the
    /// client sent) are escaped, so the message is always one line.
    public init(
        _ code: Code, message: String, retryAfterSeconds: Int? = nil, allowedMethods: [String]? = nil, partialText: String? = nil
    ) {
        self.code = code
        // A field name or value from the request may hold a line break: one line, escaped.
        self.message = OneLine.escaping(message)
        self.retryAfterSeconds = retryAfterSeconds
        self.allowedMethods = allowedMethods
        self.partialText = partialText
    }

    /// 400: an option's value or a combination of options is wrong.
    static func badOption(_ message: String) -> ServiceError {
        ServiceError(.badOption, message: message)
    }

    /// 413: the body is over the upload limit.
    public static func payloadTooLarge(limitBytes: Int) -> ServiceError {
        ServiceError(
            .payloadTooLarge,
            message: "the upload is larger than this server's limit of \(ByteCount(limitBytes)); send a smaller photo")
    }

    /// 400: a `multipart/form-data` body the form parser could not read to its end: a
    /// missing or wrong boundary, a part cut short, no closing boundary.
    public static let unreadableForm = ServiceError(
        .badForm,
        message: "the multipart/form-data body could not be parsed (a missing boundary, a part cut short, or no closing boundary)")

    /// 400: a `multipart/form-data` body whose `Content-Type` has no boundary the form can be
    /// read by (none, two, or one that RFC 2046 does not allow).
    public static let formWithoutBoundary = ServiceError(
        .badForm,
        message:
            "the Content-Type multipart/form-data has no usable boundary parameter (one, of 1 to \(MediaType.maximumBoundaryLength) letters, digits, spaces or '()+_,-./:=?)"
    )

    /// 400: a form with more than one field named `image`.
    public static let secondImage = duplicateField("image")

    /// 400: a form with more than one field named `name`, which takes one.
    public static func duplicateField(_ name: String) -> ServiceError {
        .badOption("the form has more than one field named '\(name.prefix(40))'; send one")
    }

    /// 400: more than `limit` text fields (form fields and query parameters each).
    public static func tooManyFields(limit: Int) -> ServiceError {
        .badOption("the request has more than \(limit) fields; send at most \(limit) form fields and \(limit) query parameters")
    }

    /// 400: a query of `count` parameters, more than `limit`.
    public static func tooManyQueryParameters(_ count: Int, limit: Int) -> ServiceError {
        .badOption("the query has \(count) parameters; at most \(limit) are taken")
    }

    /// 408: the body stopped arriving for `seconds` (`stalled`), or the request did not arrive
    /// whole within `seconds`.
    public static func requestTimedOut(seconds: Int, stalled: Bool) -> ServiceError {
        ServiceError(
            .requestTimeout,
            message: stalled
                ? "nothing of the request's body arrived for \(seconds) s; the upload was given up, send it again"
                : "the request did not arrive whole within \(seconds) s; send it again, faster")
    }

    /// 414: a request target longer than `limitBytes`.
    public static func targetTooLong(limitBytes: Int) -> ServiceError {
        ServiceError(
            .uriTooLong,
            message:
                "the request's path and query are longer than this server's limit of \(ByteCount(limitBytes)); send the options as form fields"
        )
    }

    /// 431: a request line and headers larger than `limitBytes` together.
    public static func headersTooLarge(limitBytes: Int) -> ServiceError {
        ServiceError(
            .headersTooLarge, message: "the request line and headers are larger than this server's limit of \(ByteCount(limitBytes))")
    }

    /// 400: a text field of the form larger than `limit` bytes.
    public static func fieldTooLarge(name: String, limit: Int) -> ServiceError {
        .badOption("the form field '\(name.prefix(40))' is larger than \(ByteCount(limit)); a text field holds at most that")
    }

    /// 503: the request bodies the server holds at once (arriving or waiting, over all
    /// connections) would pass its upload budget: refused before the body is read.
    public static func tooManyUploads(limitBytes: Int, retryAfterSeconds: Int) -> ServiceError {
        ServiceError(
            .tooManyUploads,
            message:
                "the server holds as many uploads as its memory allows (\(ByteCount(limitBytes)) in all); try again in \(retryAfterSeconds) s",
            retryAfterSeconds: retryAfterSeconds)
    }

    /// 429: this client address already holds its share of the upload budget.
    public static func addressUploadsBusy(limitBytes: Int, retryAfterSeconds: Int) -> ServiceError {
        ServiceError(
            .tooManyRequests,
            message:
                "uploads from this address would pass \(ByteCount(limitBytes)), this address's share of the server; try again in \(retryAfterSeconds) s",
            retryAfterSeconds: retryAfterSeconds)
    }

    /// 429: this client address already has `places` requests waiting or being read, its
    /// share of the service's engines and queue.
    public static func tooManyRequests(places: Int, retryAfterSeconds: Int) -> ServiceError {
        ServiceError(
            .tooManyRequests,
            message:
                "this address already has \(places) request\(places == 1 ? "" : "s") waiting or being read, its share of the server; try again in \(retryAfterSeconds) s",
            retryAfterSeconds: retryAfterSeconds)
    }

    /// 429: this client address already has `limit` connections open, each with a request
    /// under way.
    public static func tooManyConnections(_ limit: Int, retryAfterSeconds: Int) -> ServiceError {
        ServiceError(
            .tooManyRequests,
            message:
                "this address already has \(limit) connections with a request under way, its share of the server; try again in \(retryAfterSeconds) s",
            retryAfterSeconds: retryAfterSeconds)
    }

    /// 503: the server's connections hold all the memory they may (`limitBytes`), each with a
    /// request under way.
    public static func connectionsFull(limitBytes: Int, retryAfterSeconds: Int) -> ServiceError {
        ServiceError(
            .busy,
            message:
                "the server's connections hold \(ByteCount(limitBytes)), all the memory they may, each with a request under way; try again in \(retryAfterSeconds) s",
            retryAfterSeconds: retryAfterSeconds)
    }

    /// 503: the service is stopping and takes no new work.
    public static let shuttingDown = ServiceError(
        .shuttingDown, message: "the service is stopping; try again in a moment", retryAfterSeconds: 5)

    /// The status for a `SnapPoemError` raised while reading an upload: 400 for what the
    /// client chose (options, languages), 415 for bytes that are no image, 422 for an image
    /// that cannot be read, 413 for one over the library's input limit, 503 when the scan was
    /// cancelled (the service is stopping) or memory ran out, 500 for the engine's own failures.
    init(_ error: SnapPoemError) {
        switch error {
        case .emptyFile:
            self.init(.missingImage, message: "the request holds no image; \(Self.howToSend)")
        case .unsupportedImageFormat:
            self.init(.unsupportedMediaType, message: error.description)
        case .corruptImage:
            self.init(.damagedImage, message: error.description)
        case .imageTooLarge, .tooManyPages, .pagesTooLarge:
            self.init(.imageTooLarge, message: error.description)
        case .tooManyMarks:
            self.init(.tooManyMarks, message: error.description)
        case .invalidLanguage, .languageNotAvailable, .invalidOption, .invalidEngineVariable, .invalidReplacementsFile,
            .regionOutsideImage:
            self.init(.badOption, message: error.description)
        case .fileTooLarge:
            self.init(.payloadTooLarge, message: error.description)
        case .outOfMemory:
            // The server's memory, not the request, ran short: another try may succeed.
            self.init(.outOfMemory, message: error.description, retryAfterSeconds: 5)
        case .cancelled:
            self = .shuttingDown
        case .notARegularFile, .fileNotFound, .unreadableFile, .tessdataNotFound, .engineInitializationFailed, .recognitionFailed,
            .outputNotWritten, .exportFailed, .noImagesInFolder, .unreadableFolder, .workerFailed:
            self.init(.internalError, message: error.description)
        }
    }

    /// How an image is sent, for messages.
    static let howToSend =
        "send the image as the body (Content-Type: image/* or application/octet-stream) or as the field 'image' of a multipart/form-data form"

    /// The JSON body.
    func jsonBody(requestID: String) -> Data {
        struct Body: Encodable {
            var code: Code
            var error: String
            var partialText: String?
            var requestId: String
            var retryAfterSeconds: Int?
            var timedOut: Bool?
        }
        let body = Body(
            code: code, error: message, partialText: partialText, requestId: requestID, retryAfterSeconds: retryAfterSeconds,
            timedOut: code == .timedOut ? true : nil)
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
