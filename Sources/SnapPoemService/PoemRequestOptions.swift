import Foundation
import SnapPoem

/// What one poem request asks for, read from its query and form fields: the scan's settings
/// (by the same rules as the command line: `ScanOption`, spelled in camelCase, e.g.
/// `ignoreCase`, `maxDimension`), the export format and the e-mail headers.
///
/// Only settings that stay inside the scan can be given over HTTP: no Tesseract variables,
/// tessdata folder, files or output paths.
struct PoemRequestOptions: Sendable {
    /// What the scan does.
    var scan: ScanConfiguration
    /// What is made of the poem: `format`, and `to` and `subject` for `format=eml`,
    /// `sideBySide` for `format=html` (the library's request, bound by the rules the command
    /// line shares).
    var export = ExportRequest()

    /// The HTTP spelling of each scan option: the command line's long name in camelCase.
    static let scanFields: [String: ScanOption] = Dictionary(
        uniqueKeysWithValues: ScanOption.allCases.map { (camelCase($0.name), $0) })
    /// The fields of the export.
    static let exportFields = ["format", "to", "subject", "sideBySide"]
    /// Every field name `POST /v1/poems` takes, for "did you mean".
    static var knownFields: [String] { scanFields.keys.sorted() + exportFields + ["image"] }

    /// Reads `fields` over `defaults`.
    ///
    /// - Parameters:
    ///   - leadingReplacements: pairs that come before the `replace` fields (the page's name
    ///     fields), each with where it came from.
    ///   - ignoring: fields another layer has read (the page's own).
    ///   - maxTimeLimit: the server's bound on a recognition; a request may ask for less, and
    ///     gets this when it asks for nothing.
    /// - Throws: `ServiceError` 400 naming the field.
    init(
        fields: [HTTPField], defaults: ScanConfiguration, maxTimeLimit: Duration,
        leadingReplacements: [(replacement: Replacement, source: String)] = [], ignoring: Set<String> = []
    ) throws(ServiceError) {
        scan = defaults
        var scanValues: [ScanOption: [String]] = [:]
        var exportValues: [String: String] = [:]
        for field in fields where !ignoring.contains(field.name) {
            if let option = Self.scanFields[field.name] {
                if !option.isRepeatable, scanValues[option] != nil {
                    throw .badOption("'\(field.name)' was given more than once")
                }
                if option == .lang {
                    scanValues[option, default: []].append(Self.languages(field.value))
                } else if option.takesValue {
                    scanValues[option, default: []].append(field.value)
                } else {
                    switch field.value.lowercased() {
                    case "", "true", "1", "yes", "on": scanValues[option] = [""]
                    case "false", "0", "no", "off": scanValues[option] = nil
                    default:
                        throw .badOption("invalid value '\(field.value)' for '\(field.name)': expected true or false")
                    }
                }
            } else if Self.exportFields.contains(field.name) {
                guard exportValues[field.name] == nil else { throw .badOption("'\(field.name)' was given more than once") }
                exportValues[field.name] = field.value
            } else {
                throw .badOption(Self.unknownFieldMessage(field.name))
            }
        }
        // Judged against this server's limit, not the library's (a day).
        if let text = scanValues[.timeout]?.last, Duration(seconds: text, atLeast: 0.001, atMost: maxTimeLimit.inSeconds) == nil {
            if Duration(seconds: text, atLeast: 0.001, atMost: .greatestFiniteMagnitude) != nil {
                throw .badOption("invalid value '\(text)' for 'timeout': this server allows at most \(maxTimeLimit.secondsText) s")
            }
            throw .badOption(
                "invalid value '\(text)' for 'timeout': expected a number of seconds from 0.001 to \(maxTimeLimit.secondsText)")
        }
        do throws(ScanOptionError) {
            try scan.apply(scanValues, replacementSource: { "replace=\($0)" }, leadingReplacements: leadingReplacements)
        } catch {
            throw .badOption(Self.message(for: error))
        }
        if scanValues[.timeout] == nil { scan.recognition.timeLimit = maxTimeLimit }
        let languages = scan.engine.languages
        if languages != defaults.engine.languages, languages.codes.count > Self.maxRequestLanguages {
            throw .badOption(
                "lang: '\(languages)' names \(languages.codes.count) languages; a request may name at most \(Self.maxRequestLanguages) (each loads a model, and this server plans memory for an engine of two)"
            )
        }
        try bindExport(exportValues)
    }

    /// The most languages a request may name when they differ from the server's own: an
    /// engine loaded for a request's languages is planned at `MemoryPlan.engineBytes` (two
    /// models: `eng+fra` measured 46 MB), and each more model would hold memory the plan
    /// does not count.
    static let maxRequestLanguages = 2

    /// Binds `format`, `to`, `subject` and `sideBySide` (`ExportRequest.apply(_:)`), and ties
    /// the request to the scan (`ExportRequest.prepare(_:)`: the Tesseract rendering the
    /// format needs, the upright image for the side-by-side page).
    private mutating func bindExport(_ values: [String: String]) throws(ServiceError) {
        var given: [ExportOption: String] = [:]
        if let text = values["format"] { given[.format] = text }
        if let text = values["to"] { given[.to] = text }
        if let text = values["subject"] { given[.subject] = text }
        if let text = values["sideBySide"] {
            switch text.lowercased() {
            case "", "true", "1", "yes", "on": given[.sideBySide] = ""
            case "false", "0", "no", "off": break
            default: throw .badOption("invalid value '\(text)' for 'sideBySide': expected true or false")
            }
        }
        do throws(ExportOptionError) {
            try export.apply(given)
        } catch {
            switch error {
            case .invalidValue(let option, let value, let expected):
                throw .badOption("invalid value '\(value)' for '\(option.rawValue)': expected \(expected)")
            case .rejected(_, let error):
                throw .badOption(error.description)
            case .notApplicable(.sideBySide):
                throw .badOption("'sideBySide' applies only to format=html")
            case .notApplicable(let option):
                throw .badOption("'\(option.rawValue)' applies only to format=eml")
            }
        }
        export.prepare(&scan)
    }

    /// A `lang` value as Tesseract takes it. A query's literal `+` arrives as a space (the form
    /// encoding's), and no language code holds a space, so `fra eng` is read as `fra+eng`.
    /// (`LanguageSet(parsing:)` judges the codes, `osd` among them, as for every front end.)
    static func languages(_ value: String) -> String {
        guard value.contains(" ") else { return value }
        let codes = value.split(separator: "+", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: " ", omittingEmptySubsequences: true)
        }
        return codes.joined(separator: "+")
    }

    /// `ScanOptionError` in the service's words: `invalid value 'x' for 'dpi': …`.
    static func message(for error: ScanOptionError) -> String {
        switch error {
        case .invalidValue(let option, let value, let expected):
            return "invalid value '\(value)' for '\(camelCase(option.name))': expected \(expected)"
        case .rejected(let option, let error):
            if case .invalidOption(_, let reason) = error { return "\(camelCase(option.name)): \(reason)" }
            return "\(camelCase(option.name)): \(error.description)"
        case .conflict(let option, let value, let other):
            return "'\(camelCase(option.name))=\(value)' cannot be combined with '\(camelCase(other.name))'"
        case .replacedTwice(let find, let first, let firstSource, let second, let secondSource):
            return "'\(find)' is replaced twice, by '\(first)' (\(firstSource)) and by '\(second)' (\(secondSource))"
        case .tooManyPairs(let count):
            return "\(count) replacement pairs were given; at most \(ReplacementSet.maximumPairs) are taken"
        }
    }

    /// "unknown option 'fromat'; did you mean 'format'?"
    static func unknownFieldMessage(_ name: String) -> String {
        let closest = knownFields.map { ($0, editDistance(name.lowercased(), $0.lowercased())) }
            .filter { $0.1 <= max(2, name.count / 3) }
            .min { $0.1 < $1.1 }
        let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
        if let closest { return "unknown option '\(shown)'; did you mean '\(closest.0)'?" }
        return "unknown option '\(shown)'; the options are \(knownFields.joined(separator: ", "))"
    }

    /// `max-dimension` → `maxDimension`.
    static func camelCase(_ name: String) -> String {
        let words = name.split(separator: "-")
        return (words.first.map(String.init) ?? "") + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

}
