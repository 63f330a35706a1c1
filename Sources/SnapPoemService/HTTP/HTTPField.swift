import Foundation

/// One name and value: a header, a query parameter or a form field.
public struct HTTPField: Sendable, Equatable {
    /// The name as received (header names are compared without regard to case).
    public var name: String
    /// The value.
    public var value: String

    /// Creates a field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// One part of a `multipart/form-data` body, as the server's form parser delivered it.
public struct FormPart: Sendable, Equatable {
    /// The field's name, e.g. `image` or `replace`.
    public var name: String
    /// The field's bytes (a file's content, or a text field's UTF-8).
    public var data: Data
    /// The file name the browser sent, for file fields.
    public var filename: String?
    /// The part's own `Content-Type`, when it had one.
    public var contentType: String?

    /// Creates a part holding `bytes` (not copied).
    public init(name: String, bytes: Data, filename: String? = nil, contentType: String? = nil) {
        self.name = name
        self.data = bytes
        self.filename = filename
        self.contentType = contentType
    }

    /// Creates a part from an array of bytes.
    public init(name: String, data: [UInt8], filename: String? = nil, contentType: String? = nil) {
        self.init(name: name, bytes: Data(data), filename: filename, contentType: contentType)
    }

    /// A text field.
    public init(name: String, text: String) {
        self.init(name: name, bytes: Data(text.utf8))
    }

    /// The value as text, when it is UTF-8.
    var text: String? { String(validating: data, as: UTF8.self) }
}
