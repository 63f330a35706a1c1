import SnapPoem

/// A command-line mistake, reported swift-argument-parser style: the message, then the usage
/// line and a pointer to `--help`. Exit code 64.
struct UsageError: Error, Equatable, Sendable {
    let message: String
}

/// The command line split into options and positional arguments, before any meaning is given
/// to values. Knows only the shapes in `OptionSpec.all`.
struct ParsedArguments: Equatable, Sendable {
    /// Values of each option by long name, in the order given (an empty string for a flag).
    var values: [String: [String]] = [:]
    /// Positional arguments (image paths; `-` for standard input).
    var positionals: [String] = []

    /// Whether a flag or option was given.
    func has(_ long: String) -> Bool { values[long] != nil }

    /// The last value of a single-valued option.
    func value(_ long: String) -> String? { values[long]?.last }

    /// Splits `arguments` (without the program name).
    ///
    /// Accepts `--name value`, `--name=value`, `-n value`, `-nVALUE`, and `--` to end options;
    /// a lone `-` is a positional argument (standard input).
    static func parse(_ arguments: [String], specs: [OptionSpec] = OptionSpec.all) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if optionsEnded || token == "-" || !token.hasPrefix("-") {
                parsed.positionals.append(token)
                continue
            }
            if token == "--" {
                optionsEnded = true
                continue
            }
            let spec: OptionSpec
            var inlineValue: String?
            if token.hasPrefix("--") {
                let body = token.dropFirst(2)
                let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                if let equals = body.firstIndex(of: "=") { inlineValue = String(body[body.index(after: equals)...]) }
                guard let found = specs.first(where: { $0.long == name }) else {
                    throw UsageError(message: unknownOptionMessage("--\(name)", specs: specs))
                }
                spec = found
            } else {
                let letter = token.dropFirst().first!
                guard let found = specs.first(where: { $0.short == letter }) else {
                    throw UsageError(message: unknownOptionMessage(token, specs: specs))
                }
                spec = found
                let rest = token.dropFirst(2)
                if !rest.isEmpty {
                    guard found.takesValue else {
                        throw UsageError(message: "Unknown option '\(token)'. Flags cannot be combined; write them separately.")
                    }
                    inlineValue = String(rest)
                }
            }
            let display = token.hasPrefix("--") ? "--\(spec.long)" : "-\(spec.short!)"
            var value = ""
            if spec.takesValue {
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError(message: "Missing value for '\(display) <\(spec.valueName!)>'.")
                    }
                    value = arguments[index]
                    index += 1
                }
            } else if inlineValue != nil {
                throw UsageError(message: "'\(display)' takes no value.")
            }
            if !spec.repeatable, parsed.values[spec.long] != nil {
                throw UsageError(message: "'\(display)' was given more than once.")
            }
            parsed.values[spec.long, default: []].append(value)
        }
        return parsed
    }

    /// "Unknown option '--outptu'. Did you mean '--output'?"
    static func unknownOptionMessage(_ option: String, specs: [OptionSpec]) -> String {
        let typed = option.drop { $0 == "-" }.split(separator: "=").first.map(String.init) ?? ""
        let closest =
            specs
            .map { (spec: $0, distance: editDistance(typed, $0.long)) }
            .filter { $0.distance <= max(2, typed.count / 3) || $0.spec.long.hasPrefix(typed) && !typed.isEmpty }
            .min { $0.distance < $1.distance }
        if let closest {
            return "Unknown option '\(option)'. Did you mean '--\(closest.spec.long)'?"
        }
        return "Unknown option '\(option)'."
    }
}
