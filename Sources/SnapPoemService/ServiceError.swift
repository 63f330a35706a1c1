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
        /// 400: a `multipart/form-data` body that cannot be parsed (no boundary, cut short).
        case badForm = "bad_form"
        /// 404: no such path.
        case notFound = "not_found"
        /// 405: a known path with another method; `Allow` lists the right ones.
        case methodNotAllowed = "method_not_allowed"
        /// 413: the body is over the upload limit (or the library's input limit).
        case payloadTooLarge = "payload_too_large"
        /// 415: the bytes are no image snap-poem reads, or the declared `Content-Type`
        /// contradicts them.
        case unsupportedMediaType = "unsupported_media_type"
        /// 422: the image is damaged or cut short.
        case damagedImage = "damaged_image"
        /// 422: the image is over the pixel limits (checked from its header).
        case imageTooLarge = "image_too_large"
        /// 500: the engine itself failed.
        case internalError = "internal_error"
        /// 503: every engine is busy and the queue is full; `Retry-After` says when to try again.
        case busy
        /// 503: the server is stopping.
        case shuttingDown = "shutting_down"
        /// 503: the server ran short of memory while reading this image; `Retry-After`.
        case outOfMemory = "out_of_memory"
        /// 504: the time limit stopped recognition; `partialText` holds what was read.
        case timedOut = "timed_out"

        /// The HTTP status every error with this code has.
        public var status: Int {
            switch self {
            case .badOption, .missingImage, .badForm: 400
            case .notFound: 404
            case .methodNotAllowed: 405
            case .payloadTooLarge: 413
            case .unsupportedMediaType: 415
            case .damagedImage, .imageTooLarge: 422
            case .internalError: 500
            case .busy, .shuttingDown, .outOfMemory: 503
            case .timedOut: 504
            }
        }

        /// When the code is sent, in one sentence (the OpenAPI document's description).
        public var summary: String {
            switch self {
            case .badOption: "An option's value or a combination of options is wrong, a field is unknown, or a language has no data."
            case .missingImage: "The request holds no image: no body, or a form without the field 'image'."
            case .badForm: "The multipart/form-data body could not be parsed (no boundary, or a part cut short)."
            case .notFound: "No such path."
            case .methodNotAllowed: "The path takes other methods; the Allow header lists them."
            case .payloadTooLarge: "The body is over the server's upload limit (--max-upload-mb)."
            case .unsupportedMediaType:
                "The bytes are no image snap-poem reads (a PDF, HEIC, text), or the declared Content-Type contradicts them."
            case .damagedImage: "The image is damaged or cut short."
            case .imageTooLarge: "The image is over 150 megapixels or 65 000 pixels a side (checked from its header)."
            case .internalError: "The engine itself failed."
            case .busy: "Every engine is busy and the queue is full; Retry-After says when to try again."
            case .shuttingDown: "The server is stopping; Retry-After says when to try again (elsewhere)."
            case .outOfMemory: "The server ran short of memory while reading this image; another try may fit (Retry-After)."
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
        case .imageTooLarge:
            self.init(.imageTooLarge, message: error.description)
        case .invalidLanguage, .languageNotAvailable, .invalidOption, .invalidEngineVariable, .invalidReplacementsFile:
            self.init(.badOption, message: error.description)
        case .fileTooLarge:
            self.init(.payloadTooLarge, message: error.description)
        case .outOfMemory:
            // The server's memory, not the request, ran short: another try may succeed.
            self.init(.outOfMemory, message: error.description, retryAfterSeconds: 5)
        case .cancelled:
            self = .shuttingDown
        case .notARegularFile, .fileNotFound, .unreadableFile, .tessdataNotFound, .engineInitializationFailed, .recognitionFailed,
            .outputNotWritten, .exportFailed, .noImagesInFolder, .workerFailed:
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
