import Foundation

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
    /// - Throws: `ServiceError` 400 for a form without an image or with a bad field, 415 for a
    ///   raw body whose `Content-Type` is not an image's.
    init(_ request: HTTPRequest) throws(ServiceError) {
        guard request.query.count <= Self.maxFields else { throw .tooManyFields(limit: Self.maxFields) }
        if let form = request.form {
            let images = form.filter { $0.name == "image" }
            guard images.count <= 1 else { throw .secondImage }
            guard let image = images.first, !image.data.isEmpty else {
                throw ServiceError(status: 400, code: "missing_image", message: "the form has no image; \(ServiceError.howToSend)")
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
            return
        }
        guard !request.body.isEmpty else {
            throw ServiceError(status: 400, code: "missing_image", message: "the request holds no image; \(ServiceError.howToSend)")
        }
        let type = request.mediaType ?? ""
        guard type.hasPrefix("image/") || type == "application/octet-stream" else {
            let given = type.isEmpty ? "no Content-Type" : "Content-Type \(type)"
            throw ServiceError(
                status: 415, code: "unsupported_media_type",
                message:
                    "the body was sent with \(given); \(ServiceError.howToSend) (curl: --data-binary @poem.jpg -H 'Content-Type: image/jpeg')"
            )
        }
        self.image = request.body
        self.name = "upload"
        self.fields = []
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
