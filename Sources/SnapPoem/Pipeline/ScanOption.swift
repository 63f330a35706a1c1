import Foundation

/// A setting of a scan that a front end receives as text: the command line's `--ignore-case`
/// or `--max-dimension 2000`, the HTTP service's `ignoreCase=true` or `maxDimension=2000`.
///
/// One table of names and one set of rules (`ScanConfiguration.apply(_:replacementSource:leadingReplacements:)`),
/// so that every front end reads a setting alike and refuses the same values with the same
/// explanation; each front end only spells the option's name its own way. The raw value is
/// the command line's long name.
///
/// Settings that reach outside the scan (files, Tesseract variables, the tessdata folder) are
/// not here: a front end that offers them (the command line does, the HTTP service does not)
/// binds them itself.
public enum ScanOption: String, Sendable, CaseIterable {
    /// `FIND=REPLACE`, repeatable.
    case replace
    /// Match FIND in any letter case.
    case ignoreCase = "ignore-case"
    /// Replace FIND inside longer words too.
    case substring
    /// No OCR-tolerant matching.
    case exact
    /// How far an OCR misreading may stray: a `Strictness` name.
    case strictness
    /// Keep the recognised text as it is (`OCRTextCleanup.layoutOnly`).
    case noCleanup = "no-cleanup"
    /// Tesseract languages, `+`-separated.
    case lang
    /// `N`, `auto` or `none` (`ScalingMode`).
    case maxDimension = "max-dimension"
    /// An `ImageFilter` name.
    case filter
    /// Do not detect pages turned 90/180/270°.
    case noRotate = "no-rotate"
    /// Do not straighten tilted text.
    case noDeskew = "no-deskew"
    /// Do not invert light text on a dark background.
    case noInvert = "no-invert"
    /// Do not flatten the curved lines of a page photographed in a book.
    case noDewarp = "no-dewarp"
    /// Do not map a sheet photographed at an angle onto a rectangle.
    case noKeystone = "no-keystone"
    /// Do not paint a dark table around a photographed sheet in the paper's tone.
    case noClearSurround = "no-clear-surround"
    /// Do not check that recognised words cover the text-like ink (and re-read what they miss).
    case noCoverageCheck = "no-coverage-check"
    /// A page segmentation mode, by number or name.
    case psm
    /// An `EngineMode` name.
    case oem
    /// The resolution to assume, 70–2400.
    case dpi
    /// Characters to recognise only.
    case allow
    /// Characters never to recognise.
    case deny
    /// Keep runs of spaces between words.
    case preserveSpaces = "preserve-spaces"
    /// `X,Y,W,H` in the upright image's pixels.
    case region
    /// Seconds (decimals allowed) that bound each image's recognition.
    case timeout
    /// How many engines read one image at once: 1 or 2 (`ScanConfiguration.recognitionEngines`).
    case engines
    /// Read with the languages given, without letting the poem's language choose the model
    /// (`ScanConfiguration.choosesLanguage` off).
    case noLanguageChoice = "no-language-choice"
    /// When to read the page as Tesseract reads the image on its own too, and keep the surer
    /// reading: a `PlainReadingPolicy` name.
    case plainReading = "plain-reading"

    /// The command line's long name, e.g. `max-dimension`.
    public var name: String { rawValue }

    /// Whether the option takes a value; the others are switches, present or absent.
    public var takesValue: Bool {
        switch self {
        case .ignoreCase, .substring, .exact, .noCleanup, .noRotate, .noDeskew, .noInvert, .noClearSurround, .noCoverageCheck,
            .preserveSpaces, .noLanguageChoice, .noDewarp, .noKeystone:
            false
        default: true
        }
    }

    /// Whether the option may be given more than once.
    public var isRepeatable: Bool { self == .replace }

    /// What the option does, in one sentence that suits any front end (the HTTP service's
    /// OpenAPI document says it for each field).
    public var summary: String {
        switch self {
        case .replace:
            "FIND=REPLACE: replace FIND with REPLACE, also where the OCR misread it; repeatable, all at once, never chained; \\= for an '=' in FIND."
        case .ignoreCase: "Match FIND in any letter case; the replacement takes the text's case (LENORE → ALEX)."
        case .substring: "Replace FIND inside longer words too (by default 'Lenored' is left alone)."
        case .exact: "Turn off OCR-tolerant matching: misreadings such as 'Lenorc' or 'L enore' are left as they are."
        case .strictness: "How far an OCR misreading of FIND may stray (default normal); exact is the same as the exact switch."
        case .noCleanup: "Keep the text as recognised: no '|' → 'I', ligatures, hyphenation joining or space tidying."
        case .lang: "Tesseract languages, '+'-separated, e.g. eng or fra+eng; each needs its traineddata."
        case .maxDimension:
            "Image size: N shrinks so the longer side is at most N pixels (never enlarges); auto scales the text to about 24 px letters; none keeps the size."
        case .filter: "Tone filter before recognition; flatten (the default) evens out shadows and vignettes where there are any."
        case .noRotate: "Do not detect and undo a page turned 90, 180 or 270 degrees."
        case .noDeskew: "Do not straighten slightly tilted text."
        case .noInvert: "Do not turn light text on a dark background into dark on light."
        case .noClearSurround: "Do not paint over the dark table around a photographed sheet before recognition."
        case .noCoverageCheck: "Do not look for text Tesseract skipped (rows of letters no recognised word covers) and read it again."
        case .psm: "Tesseract's page segmentation mode, by number (0-13) or name (default 3, auto)."
        case .oem: "Recogniser: lstm (default), legacy or combined (legacy needs traineddata that includes it)."
        case .dpi: "Resolution to assume, in dots per inch (default 300)."
        case .allow: "Recognise only these characters."
        case .deny: "Never recognise these characters."
        case .preserveSpaces: "Keep runs of spaces between words instead of single spaces."
        case .region:
            "X,Y,W,H: recognise only this rectangle, in the upright image's pixels (the page is then neither turned nor deskewed)."
        case .timeout: "Stop recognising after this many seconds (decimals allowed)."
        case .noDewarp: "Do not flatten the curved lines of a page photographed in an open book."
        case .noKeystone: "Do not undo the perspective of a sheet photographed at an angle (its outline seen on a table)."
        case .engines:
            "How many Tesseract engines read one image at once, its lines split between them (1 or 2); the service's workers decide their own."
        case .noLanguageChoice:
            "Read with the languages given: do not let the poem's language (English or French) choose the model."
        case .plainReading:
            "When to also read the image as Tesseract reads it on its own, and keep the surer reading: auto (default: where the image was changed), always or never."
        }
    }

    /// The values the option takes, as the rules of
    /// `ScanConfiguration.apply(_:replacementSource:leadingReplacements:)` accept them, for
    /// front ends that describe them (the HTTP service's OpenAPI schemas).
    public var values: ScanOptionValues {
        switch self {
        case .ignoreCase, .substring, .exact, .noCleanup, .noRotate, .noDeskew, .noInvert, .noClearSurround, .noCoverageCheck,
            .preserveSpaces, .noDewarp, .noLanguageChoice, .noKeystone:
            .none
        case .engines: .wholeNumber(1...2)
        case .replace: .pattern(#"^(\\.|[^=\\])+=.*$"#, example: "Lenore=Alex")
        case .strictness: .oneOf(Strictness.named.map(\.name))
        case .lang: .pattern(#"^[A-Za-z0-9_-]+(\+[A-Za-z0-9_-]+)*$"#, example: "eng+fra")
        case .maxDimension: .pattern(#"^(auto|none|[0-9]+)$"#, example: "2000")
        case .filter: .oneOf(ImageFilter.allCases.map(\.rawValue))
        case .plainReading: .oneOf(PlainReadingPolicy.allCases.map(\.rawValue))
        case .psm:
            .oneOf(PageSegmentationMode.allCases.map { String($0.rawValue) } + PageSegmentationMode.allCases.map(\.name))
        case .oem: .oneOf(EngineMode.allCases.map(\.rawValue))
        case .dpi: .wholeNumber(70...2400)
        case .allow, .deny: .text(example: "abcdefghijklmnopqrstuvwxyz")
        case .region: .pattern(#"^ *[0-9]+ *, *[0-9]+ *, *[0-9]+ *, *[0-9]+ *$"#, example: "0,0,800,600")
        case .timeout: .seconds
        }
    }
}

/// What values a `ScanOption` takes, for front ends that describe them.
public enum ScanOptionValues: Sendable, Equatable {
    /// None: the option is a switch, present or absent.
    case none
    /// Any text, e.g. a list of characters.
    case text(example: String)
    /// One of these names.
    case oneOf([String])
    /// A whole number in the range.
    case wholeNumber(ClosedRange<Int>)
    /// A number of seconds from 0.001 (one millisecond) to 86 400, decimals allowed.
    case seconds
    /// Text matching the regular expression (ECMA-262, as JSON Schema has it), such as the
    /// example.
    case pattern(String, example: String)
}

/// Why text values could not be applied to a `ScanConfiguration`. Each front end words it in
/// its own spelling of the option (`'--dpi <N>'` on the command line, `'dpi'` over HTTP).
public enum ScanOptionError: Error, Sendable, Equatable {
    /// `value` is not what `option` takes; `expected` says what it takes, e.g. "a whole number
    /// from 70 to 2400".
    case invalidValue(option: ScanOption, value: String, expected: String)
    /// The library refused the value, with its own one-line reason (a language list, a
    /// `FIND=REPLACE` pair).
    case rejected(option: ScanOption, error: SnapPoemError)
    /// `option` with `value` cannot be combined with `other`.
    case conflict(option: ScanOption, value: String, other: ScanOption)
    /// The same FIND is given two different replacements; the sources say where each came from.
    case replacedTwice(find: String, first: String, firstSource: String, second: String, secondSource: String)
    /// More distinct pairs than `ReplacementSet.maximumPairs` were given (`count` of them):
    /// each pair is tried against every word of the poem, so the work has a bound.
    case tooManyPairs(count: Int)
}

extension ScanConfiguration {
    /// Applies settings given as text, checking each value's range and the options'
    /// consistency. Options absent from `values` keep their current setting, except the
    /// switches and the matching options, which are set from their presence.
    ///
    /// - Parameters:
    ///   - values: each option's values in the order given (an empty string for a switch).
    ///   - replacementSource: how a `replace` value is named when it clashes with another
    ///     pair, e.g. `--replace Lenore=Alex`.
    ///   - leadingReplacements: pairs read before the `replace` values (the command line's
    ///     `--replacements` files), each with where it came from.
    /// - Throws: `ScanOptionError` for the first value or combination that is refused.
    public mutating func apply(
        _ values: [ScanOption: [String]],
        replacementSource: (String) -> String = { $0 },
        leadingReplacements: [(replacement: Replacement, source: String)] = []
    ) throws(ScanOptionError) {
        func has(_ option: ScanOption) -> Bool { values[option] != nil }
        func value(_ option: ScanOption) -> String? { values[option]?.last }

        replacements = try Self.replacementSet(
            values, replacementSource: replacementSource, leadingReplacements: leadingReplacements)
        if has(.noCleanup) { cleanup = .layoutOnly }
        if let text = value(.lang) {
            do throws(SnapPoemError) {
                engine.languages = try LanguageSet(parsing: text)
            } catch {
                throw .rejected(option: .lang, error: error)
            }
        }
        if let text = value(.maxDimension) {
            switch text {
            case "auto": preprocessing.scaling = .automatic
            case "none": preprocessing.scaling = .original
            default:
                guard let side = Int(text), side >= 16 else {
                    throw .invalidValue(
                        option: .maxDimension, value: text, expected: "a whole number of pixels (at least 16), auto or none")
                }
                preprocessing.scaling = .maxDimension(side)
            }
        }
        preprocessing.detectsOrientation = !has(.noRotate)
        preprocessing.deskews = !has(.noDeskew)
        preprocessing.invertsLightText = !has(.noInvert)
        preprocessing.clearsSurround = !has(.noClearSurround)
        preprocessing.dewarps = !has(.noDewarp)
        preprocessing.correctsKeystone = !has(.noKeystone)
        checksTextCoverage = !has(.noCoverageCheck)
        choosesLanguage = !has(.noLanguageChoice)
        if let text = value(.engines) {
            guard let count = Int(text), (1...2).contains(count) else {
                throw .invalidValue(option: .engines, value: text, expected: "1 or 2")
            }
            recognitionEngines = count
        }
        if let text = value(.filter) {
            guard let filter = ImageFilter(rawValue: text) else {
                let names = ImageFilter.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidValue(option: .filter, value: text, expected: "one of \(names)")
            }
            preprocessing.filter = filter
        }
        if let text = value(.plainReading) {
            guard let policy = PlainReadingPolicy(rawValue: text) else {
                let names = PlainReadingPolicy.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidValue(option: .plainReading, value: text, expected: "one of \(names)")
            }
            plainReading = policy
        }
        if let text = value(.psm) {
            guard let mode = PageSegmentationMode(argument: text) else {
                throw .invalidValue(option: .psm, value: text, expected: "0-13 or a name such as auto, single-block, single-line")
            }
            recognition.pageSegmentation = mode
        }
        if let text = value(.oem) {
            guard let mode = EngineMode(rawValue: text) else {
                throw .invalidValue(option: .oem, value: text, expected: "lstm, legacy or combined")
            }
            engine.engineMode = mode
        }
        if let text = value(.dpi) {
            guard let dpi = Int(text), (70...2400).contains(dpi) else {
                throw .invalidValue(option: .dpi, value: text, expected: "a whole number from 70 to 2400")
            }
            recognition.dotsPerInch = dpi
        }
        if let text = value(.allow) { recognition.allowedCharacters = text }
        if let text = value(.deny) { recognition.deniedCharacters = text }
        recognition.preserveInterwordSpaces = has(.preserveSpaces)
        if let text = value(.region) {
            let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map {
                Int($0.trimmingCharacters(in: .whitespaces))
            }
            guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let width = numbers[2], let height = numbers[3],
                (0...65_000).contains(x), (0...65_000).contains(y), (1...65_000).contains(width), (1...65_000).contains(height)
            else {
                throw .invalidValue(option: .region, value: text, expected: "four whole numbers up to 65000, e.g. 0,0,800,600")
            }
            recognition.regionOfInterest = BoundingBox(left: x, top: y, right: x + width, bottom: y + height)
        }
        if let text = value(.timeout) {
            // At least a millisecond: a smaller number rounds to no time at all.
            guard let limit = Duration(seconds: text, atLeast: 0.001, atMost: 86_400) else {
                throw .invalidValue(option: .timeout, value: text, expected: "a number of seconds from 0.001 to 86400")
            }
            recognition.timeLimit = limit
        }
    }

    /// The replacements of `leadingReplacements` then the `replace` values, with the matching
    /// options `ignore-case`, `substring`, `exact` and `strictness`. Identical repeats are
    /// kept once; the same FIND with two different replacements is refused.
    static func replacementSet(
        _ values: [ScanOption: [String]],
        replacementSource: (String) -> String,
        leadingReplacements: [(replacement: Replacement, source: String)]
    ) throws(ScanOptionError) -> ReplacementSet {
        var options = MatchingOptions(caseSensitive: values[.ignoreCase] == nil, wholeWords: values[.substring] == nil)
        if let level = values[.strictness]?.last {
            guard values[.exact] == nil else {
                throw .conflict(option: .strictness, value: level, other: .exact)
            }
            guard let strictness = Strictness(named: level) else {
                let names = Strictness.named.map(\.name).joined(separator: ", ")
                throw .invalidValue(option: .strictness, value: level, expected: "one of \(names)")
            }
            options.strictness = strictness
        }
        if values[.exact] != nil { options.strictness = .exact }

        var pairs = leadingReplacements
        for argument in values[.replace] ?? [] {
            do throws(SnapPoemError) {
                pairs.append((try Replacement(parsing: argument), replacementSource(argument)))
            } catch {
                throw .rejected(option: .replace, error: error)
            }
        }
        var seen: [String: (replacement: Replacement, source: String)] = [:]
        for pair in pairs {
            if let earlier = seen[pair.replacement.find], earlier.replacement != pair.replacement {
                throw .replacedTwice(
                    find: pair.replacement.find, first: earlier.replacement.replacement, firstSource: earlier.source,
                    second: pair.replacement.replacement, secondSource: pair.source)
            }
            seen[pair.replacement.find] = pair
        }
        // A set, not `Array.contains` in a loop: 110 000 pairs took 22 s that way.
        var unique: [Replacement] = []
        var kept: Set<Replacement> = []
        for pair in pairs where kept.insert(pair.replacement).inserted { unique.append(pair.replacement) }
        guard unique.count <= ReplacementSet.maximumPairs else { throw .tooManyPairs(count: unique.count) }
        // Pairs that did not come through `Replacement(parsing:)` (a file's, a page's fields)
        // meet the same bounds.
        if let problem = ReplacementSet.sizeProblem(unique) {
            throw .rejected(option: .replace, error: .invalidOption(option: Setting.replace.rawValue, reason: problem))
        }
        return ReplacementSet(unique, options: options)
    }
}
