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
