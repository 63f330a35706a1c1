/// One find/replace pair: every whole-word occurrence of `find` becomes `replacement`.
public struct Replacement: Sendable, Hashable, Codable {
    /// The text to look for, e.g. the poet's muse, "Lenore".
    public var find: String
    /// What it becomes, e.g. "Alex".
    public var replacement: String

    /// Creates a pair; `find` must not be empty.
    public init(find: String, replaceWith replacement: String) {
        precondition(!find.isEmpty, "a replacement needs something to find")
        self.find = find
        self.replacement = replacement
    }

    /// Parses the command-line form `FIND=REPLACE`, splitting at the first `=` not preceded
    /// by a backslash (`\=` puts an `=` in FIND; `\\` is a backslash).
    ///
    /// - Throws: `SnapPoemError.invalidOption` when there is no `=` or FIND is empty.
    public init(parsing argument: String) throws(SnapPoemError) {
        var find = ""
        var rest: Substring?
        var index = argument.startIndex
        while index < argument.endIndex {
            let character = argument[index]
            let next = argument.index(after: index)
            if character == "\\", next < argument.endIndex, argument[next] == "=" || argument[next] == "\\" {
                find.append(argument[next])
                index = argument.index(after: next)
                continue
            }
            if character == "=" {
                rest = argument[next...]
                break
            }
            find.append(character)
            index = next
        }
        guard let rest else {
            throw .invalidOption(option: "--replace", reason: "'\(argument)' has no '='; write FIND=REPLACE, e.g. Lenore=Alex")
        }
        guard !find.isEmpty else {
            throw .invalidOption(option: "--replace", reason: "'\(argument)' has nothing to find before '='")
        }
        self.init(find: find, replaceWith: String(rest))
    }
}
