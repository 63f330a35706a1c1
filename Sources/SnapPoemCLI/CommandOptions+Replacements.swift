import SnapPoem

extension CommandOptions {
    /// The replacements of `--replacements` files then `--replace` options, with the matching
    /// options `--ignore-case`, `--substring`, `--exact` and `--strictness`.
    static func replacementSet(_ parsed: ParsedArguments) throws(UsageError) -> ReplacementSet {
        var options = MatchingOptions(caseSensitive: !parsed.has("ignore-case"), wholeWords: !parsed.has("substring"))
        if let level = parsed.value("strictness") {
            guard !parsed.has("exact") else {
                throw UsageError(message: "'--strictness \(level)' cannot be combined with '--exact'.")
            }
            guard let strictness = Strictness(named: level) else {
                let names = Strictness.named.map(\.name).joined(separator: ", ")
                throw UsageError(message: "Invalid value '\(level)' for '--strictness <LEVEL>': expected one of \(names).")
            }
            options.strictness = strictness
        }
        if parsed.has("exact") { options.strictness = .exact }

        var pairs: [(replacement: Replacement, source: String)] = []
        do throws(SnapPoemError) {
            for path in parsed.values["replacements"] ?? [] {
                pairs += try ReplacementsFile.load(path: path).map { ($0, path) }
            }
            for argument in parsed.values["replace"] ?? [] {
                pairs.append((try Replacement(parsing: argument), "--replace \(argument)"))
            }
        } catch {
            if case .invalidOption = error { throw UsageError(message: "Invalid value: \(error.description).") }
            throw UsageError(message: error.description)
        }
        var seen: [String: (replacement: Replacement, source: String)] = [:]
        for pair in pairs {
            if let earlier = seen[pair.replacement.find], earlier.replacement != pair.replacement {
                throw UsageError(
                    message:
                        "'\(pair.replacement.find)' is replaced twice, by '\(earlier.replacement.replacement)' (\(earlier.source)) and by '\(pair.replacement.replacement)' (\(pair.source))."
                )
            }
            seen[pair.replacement.find] = pair
        }
        var unique: [Replacement] = []
        var kept: Set<Replacement> = []
        for pair in pairs where kept.insert(pair.replacement).inserted { unique.append(pair.replacement) }
        guard unique.count <= ReplacementSet.maximumPairs else {
            throw UsageError(
                message:
                    "\(unique.count) replacement pairs were given; snap-poem takes at most \(ReplacementSet.maximumPairs) (each pair is tried against every word of the poem)."
            )
        }
        return ReplacementSet(unique, options: options)
    }
}
