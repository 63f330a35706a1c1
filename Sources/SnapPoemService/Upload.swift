import Foundation
import SnapPoem

/// The image of a poem request and the fields that came with it, from either shape of
/// request: the raw image as the body (options in the query), or a `multipart/form-data`
/// form with the file field `image` and text fields.
struct Upload: Sendable {
    /// The encoded image.
    var image: Data
    /// How the image is named in messages: the form's file name, or `upload`.
    var name: String
    /// The form's text fields (none for a raw body).
    var fields: [HTTPField]

    /// The most text fields a form may have, and the longest value of one (`FormLimits`).
    static let maxFields = FormLimits.maxFields
    static let maxFieldBytes = FormLimits.maxFieldBytes

    /// Takes the image and fields out of `request`.
    ///
    /// - Throws: `ServiceError` 400 for a form without an image or with a bad field; for a raw
    ///   body, 415 when its bytes are no image snap-poem reads or its declared `Content-Type`
    ///   contradicts them (`checkRawBody(_:declared:)`).
    init(_ request: HTTPRequest) throws(ServiceError) {
        guard request.query.count <= Self.maxFields else { throw .tooManyFields(limit: Self.maxFields) }
        if let form = request.form {
            let images = form.filter { $0.name == "image" }
            guard images.count <= 1 else { throw .secondImage }
            guard let image = images.first, !image.data.isEmpty else {
                throw ServiceError(.missingImage, message: "the form has no image; \(ServiceError.howToSend)")
            }
            let texts = form.filter { $0.name != "image" }
            guard texts.count <= Self.maxFields else { throw .tooManyFields(limit: Self.maxFields) }
            var fields: [HTTPField] = []
            for part in texts {
                guard part.data.count <= Self.maxFieldBytes else { throw .fieldTooLarge(name: part.name, limit: Self.maxFieldBytes) }
                guard let text = part.text else { throw .badOption("the form field '\(part.name.prefix(40))' is not UTF-8 text") }
                fields.append(HTTPField(name: part.name, value: text))
            }
            self.image = image.data
            self.name = Self.displayName(image.filename)
            self.fields = fields
            // The bytes decide, not the part's Content-Type: a browser derives that from the
            // file's name, which a person cannot be asked to get right.
            do throws(SnapPoemError) {
                _ = try ImageDecoder.format(of: self.image, name: self.name)
            } catch {
                throw ServiceError(error)
            }
            return
        }
        guard !request.body.isEmpty else {
            throw ServiceError(.missingImage, message: "the request holds no image; \(ServiceError.howToSend)")
        }
        try Self.checkRawBody(request.body, declared: request.mediaType)
        self.image = request.body
        self.name = "upload"
        self.fields = []
    }

    /// The media types under which a raw body's bytes alone decide what it is: none at all,
    /// `application/octet-stream`, and `application/x-www-form-urlencoded`, which curl sends
    /// for `--data-binary` unless told otherwise.
    static let undeclaredTypes: Set<String> = ["application/octet-stream", "application/x-www-form-urlencoded"]

    /// Checks a raw body before any work is queued for it: its first bytes (the magic bytes)
    /// must be an image snap-poem reads, and a declared type that names a format must name
    /// that one. A type that says nothing (`undeclaredTypes`, or none) leaves it to the bytes.
    ///
    /// - Throws: `ServiceError` 415 saying what the bytes are and what was declared.
    static func checkRawBody(_ body: Data, declared: String?) throws(ServiceError) {
        let format: ImageFormat
        do throws(SnapPoemError) {
            format = try ImageDecoder.format(of: body, name: "upload")
        } catch {
            var answer = ServiceError(error)
            if let declared, !declared.isEmpty, !declared.hasPrefix("image/"), !undeclaredTypes.contains(declared) {
                answer.message += " (sent as \(declared); \(ServiceError.howToSend))"
            }
            throw answer
        }
        guard let declared, !declared.isEmpty, !undeclaredTypes.contains(declared) else { return }
        if let named = ImageFormat(mediaType: declared), named == format { return }
        let proper = format.mediaType.map { "Content-Type: \($0)" } ?? "no Content-Type"
        throw ServiceError(
            .unsupportedMediaType,
            message:
                "the body is declared \(declared), but its bytes are a \(format.displayName) image; send it with \(proper) or application/octet-stream (then the bytes decide)"
        )
    }

    /// A file name fit for a one-line message: its last path component, printable, at most
    /// 100 characters; `upload` when there is none.
    static func displayName(_ filename: String?) -> String {
        let last = filename?.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let printable = String(String.UnicodeScalarView(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        guard !printable.isEmpty else { return "upload" }
        return printable.count > 100 ? String(printable.prefix(100)) + "…" : printable
    }
}
