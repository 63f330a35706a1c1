import Foundation
import SnapPoem

/// What the note's editor posts to `POST /note`: the poem as the person corrected it, the
/// words that were marked for a look, and the poem's language, as an
/// `application/x-www-form-urlencoded` form. Text only, never a photo, so its bounds are a
/// text's: the body's size is checked by the server before it is read
/// (`PoemService.maximumBodyBytes(path:)`), then every field's here.
struct NoteEdit: Sendable, Equatable {
    /// The poem, with `\n` line breaks.
    var text: String
    /// The words marked for a look.
    var doubts: [ServicePage.Doubt]
    /// The poem's language, a BCP 47 tag, for the exports.
    var languageTag: String

    /// The longest poem taken, in UTF-8 bytes.
    static let maxTextBytes = 128 << 10
    /// The most words marked.
    static let maxDoubts = 300
    /// The largest body: the text percent-encoded (at most three bytes for one), the marks.
    static let maxBodyBytes = 512 << 10

    /// Reads the form of `request`.
    ///
    /// - Throws: `ServiceError` 415 for a body that is not a URL-encoded form, 413 for one
    ///   over the bounds, 400 for a field that is not UTF-8 text, an unknown field, `text` or
    ///   `poemLang` given twice, more than `maxDoubts` marks, or no text. So no form has more
    ///   than `maxDoubts` + 2 fields that count.
    init(_ request: HTTPRequest, text page: PageText) throws(ServiceError) {
        guard request.form == nil, request.mediaType == "application/x-www-form-urlencoded" else {
            throw ServiceError(.unsupportedMediaType, message: "the note's form must be sent as application/x-www-form-urlencoded")
        }
        guard request.body.count <= Self.maxBodyBytes else { throw .payloadTooLarge(limitBytes: Self.maxBodyBytes) }
        guard let fields = HTTPRequest.formFields(urlEncoded: request.body) else {
            throw .badOption("the note's form is not URL-encoded UTF-8 text")
        }
        var text: String?
        var doubts: [ServicePage.Doubt] = []
        var languageTag: String?
        for field in fields {
            switch field.name {
            case "text":
                guard text == nil else { throw .badOption("'text' was given more than once") }
                guard field.value.utf8.count <= Self.maxTextBytes else {
                    throw ServiceError(.payloadTooLarge, message: page.textTooLong(ByteCount(Self.maxTextBytes).description))
                }
                text = field.value.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            case "doubt":
                guard doubts.count < Self.maxDoubts else { throw .badOption("more than \(Self.maxDoubts) words are marked") }
                if let doubt = ServicePage.Doubt(field: field.value) { doubts.append(doubt) }
            case "poemLang":
                guard languageTag == nil else { throw .badOption("'poemLang' was given more than once") }
                languageTag = Self.isLanguageTag(field.value) ? field.value : "en"
            default:
                throw .badOption("the note's form has no field '\(field.name.prefix(40))'")
            }
        }
        guard let text, !text.allSatisfy(\.isWhitespace) else { throw .badOption(page.noTextSent) }
        self.text = text
        self.doubts = doubts
        self.languageTag = languageTag ?? "en"
    }

    /// Whether `tag` looks like a BCP 47 language tag: letters, digits and hyphens, a letter
    /// first, at most 35 characters.
    static func isLanguageTag(_ tag: String) -> Bool {
        guard (2...35).contains(tag.utf8.count), tag.utf8.first.map({ $0.isASCIILetter }) == true else { return false }
        return tag.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") }
    }
}

extension UInt8 {
    var isASCIILetter: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
    }
}
