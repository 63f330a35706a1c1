import Foundation
import SnapPoem

/// A photo the page hands back with its form after a mistake that was not the photo's (a
/// name missing, the server busy), so that the person need not find it a second time.
///
/// The service keeps nothing between requests, so the photo travels with the form: base64 in
/// the hidden field `keptImage` (its name in `keptImageName`). The page's script puts it back
/// into the file input, to be sent as the file it is; without JavaScript the hidden field is
/// sent, and `restore(into:maxUploadBytes:)` turns it back into the form's `image`. A photo
/// is kept only while its base64 copy and the rest of the form fit in the upload limit.
struct KeptPhoto: Sendable, Equatable {
    /// The name it came with, for the person.
    var name: String
    /// Its bytes.
    var data: Data
    /// Its media type, from its bytes, for the script that puts it back in the file input.
    var mediaType: String

    /// The hidden fields.
    static let field = "keptImage"
    static let nameField = "keptImageName"
    /// Room left in the upload limit for the form's other fields.
    static let formAllowance = 64 << 10

    /// The length of the base64 text of `count` bytes.
    static func base64Length(of count: Int) -> Int { (count + 2) / 3 * 4 }

    /// A photo to keep; nil when its base64 copy would not fit in `maxUploadBytes` with the
    /// rest of the form (the page then asks for it again, saying why).
    init?(name: String, data: Data, maxUploadBytes: Int) {
        guard Self.base64Length(of: data.count) + Self.formAllowance <= maxUploadBytes else { return nil }
        self.name = name
        self.data = data
        self.mediaType = (try? ImageDecoder.format(of: data, name: name))?.mediaType ?? "application/octet-stream"
    }

    /// Whether the photo stays with the form after `error`: yes when the photo was not the
    /// problem (the names, the server's load or memory, the engine), no when it was (missing,
    /// not an image, damaged, too large).
    static func survives(_ error: ServiceError) -> Bool {
        switch error.code {
        case .badOption, .busy, .shuttingDown, .outOfMemory, .internalError: true
        default: false
        }
    }

    /// Takes the hidden fields out of `form`, and when the form has no photo of its own,
    /// puts the kept one back as its `image` (a photo chosen anew wins).
    ///
    /// - Throws: `ServiceError` 413 when the kept field is longer than any photo this server
    ///   takes could be in base64 (checked before decoding), 400 when it is not base64.
    static func restore(into form: inout [FormPart], maxUploadBytes: Int) throws(ServiceError) {
        guard let index = form.firstIndex(where: { $0.name == field }) else {
            form.removeAll { $0.name == nameField }
            return
        }
        let encoded = form[index].data
        let name = form.first { $0.name == nameField }?.text
        form.removeAll { $0.name == field || $0.name == nameField }
        guard !form.contains(where: { $0.name == "image" && !$0.data.isEmpty }) else { return }
        guard encoded.count <= base64Length(of: maxUploadBytes) else { throw .payloadTooLarge(limitBytes: maxUploadBytes) }
        guard let data = Data(base64Encoded: Data(encoded)), !data.isEmpty else {
            throw ServiceError(.missingImage, message: "the photo kept with the form could not be read back; choose it again")
        }
        form.removeAll { $0.name == "image" }
        form.append(FormPart(name: "image", data: Array(data), filename: name ?? "photo"))
    }
}
