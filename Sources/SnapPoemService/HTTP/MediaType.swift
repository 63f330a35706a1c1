import Foundation

/// A `Content-Type` value read by the rules of RFC 9110 (section 8.3.1): a type and subtype,
/// compared without regard to case, and parameters whose names are compared without regard to
/// case, whose values are tokens or quoted strings, and which may come in any order; a
/// parameter the reader does not know is ignored. `multipart/form-data; charset=utf-8;
/// BOUNDARY="a b"` is a form with the boundary `a b`.
public struct MediaType: Sendable, Equatable {
    /// `type/subtype`, lower case: `multipart/form-data`, `image/png`.
    public var essence: String
    /// The parameters in order, each name in lower case and each value unquoted.
    public var parameters: [HTTPField]

    /// Reads `text`; nil when it is not `type/subtype` followed by parameters (a quoted string
    /// without its closing quote, a parameter without a name).
    public init?(parsing text: String) {
        var rest = Substring(text)
        let typeEnd = rest.firstIndex(of: ";") ?? rest.endIndex
        let essence = rest[..<typeEnd].trimmingCharacters(in: CharacterSet(charactersIn: " \t")).lowercased()
        let halves = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, halves.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isTokenCharacter) }) else { return nil }
        self.essence = essence
        parameters = []
        rest = rest[typeEnd...]
        while let first = rest.first {
            guard first == ";" else { return nil }
            rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            // An empty parameter (";;", a trailing ";") is allowed by the grammar.
            if rest.isEmpty || rest.first == ";" { continue }
            let name = rest.prefix { $0.isTokenCharacter }
            guard !name.isEmpty, rest.dropFirst(name.count).first == "=" else { return nil }
            rest = rest.dropFirst(name.count + 1)
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var closed = false
                while let character = rest.popFirst() {
                    if character == "\"" {
                        closed = true
                        break
                    }
                    if character == "\\" {
                        guard let escaped = rest.popFirst() else { return nil }
                        value.append(escaped)
                    } else {
                        value.append(character)
                    }
                }
                guard closed else { return nil }
            } else {
                value = String(rest.prefix { $0.isTokenCharacter })
                rest = rest.dropFirst(value.count)
            }
            parameters.append(HTTPField(name: name.lowercased(), value: value))
            rest = rest.drop { $0 == " " || $0 == "\t" }
        }
    }

    /// The value of the parameter `name` (compared without regard to case), when it is given
    /// exactly once.
    public func parameter(_ name: String) -> String? {
        let matches = parameters.filter { $0.name == name.lowercased() }
        return matches.count == 1 ? matches[0].value : nil
    }

    /// Whether this is `multipart/form-data`.
    public var isForm: Bool { essence == "multipart/form-data" }

    /// The boundary of a `multipart/form-data` body, when it is given once and is one by RFC
    /// 2046 (section 5.1.1): letters, digits, spaces (not last) and `'()+_,-./:=?`, from 1 to
    /// `maximumBoundaryLength` of them (RFC 2046 says 70; a longer one from a careless client
    /// is taken).
    public var formBoundary: String? {
        guard isForm, let boundary = parameter("boundary"), (1...Self.maximumBoundaryLength).contains(boundary.utf8.count),
            boundary.utf8.allSatisfy({ $0.isASCIIAlphanumeric || Self.boundarySymbols.contains($0) }), boundary.last != " "
        else { return nil }
        return boundary
    }

    /// The longest boundary taken.
    public static let maximumBoundaryLength = 200

    /// The characters a boundary may hold besides letters and digits.
    private static let boundarySymbols = Set(" '()+_,-./:=?".utf8)
}

extension Character {
    /// A character of an RFC 9110 token (`tchar`).
    fileprivate var isTokenCharacter: Bool {
        guard let ascii = asciiValue, ascii > 0x20, ascii < 0x7F else { return false }
        return !"\"(),/:;<=>?@[\\]{}".utf8.contains(ascii)
    }
}
