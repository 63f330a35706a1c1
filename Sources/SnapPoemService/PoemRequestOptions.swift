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
    /// The format of the answer.
    var format: ExportFormat = .text
    /// `to`, for `format=eml`.
    var to: [EmailAddress] = []
    /// `subject`, for `format=eml`.
    var subject: String?
    /// `sideBySide`, for `format=html`: the page with the annotated photo beside the poem
    /// (`SideBySideHTMLExporter`); the scan then keeps its upright image.
    var sideBySide = false

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
                if option.takesValue {
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
        do throws(ScanOptionError) {
            try scan.apply(scanValues, replacementSource: { "replace=\($0)" }, leadingReplacements: leadingReplacements)
        } catch {
            throw .badOption(Self.message(for: error))
        }
        if let limit = scan.recognition.timeLimit, scanValues[.timeout] != nil {
            guard limit <= maxTimeLimit else {
                throw .badOption(
                    "invalid value '\(scanValues[.timeout]?.last ?? "")' for 'timeout': this server allows at most \(Self.seconds(maxTimeLimit)) s"
                )
            }
        } else {
            scan.recognition.timeLimit = maxTimeLimit
        }
        try bindExport(exportValues)
    }

    /// Binds `format`, `to` and `subject`, and asks the scan for the Tesseract rendering the
    /// format needs.
    private mutating func bindExport(_ values: [String: String]) throws(ServiceError) {
        if let text = values["format"] {
            guard let format = ExportFormat(rawValue: text.lowercased()) else {
                let names = ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw .badOption("invalid value '\(text)' for 'format': expected one of \(names)")
            }
            self.format = format
        }
        for name in ["to", "subject"] where values[name] != nil && format != .eml {
            throw .badOption("'\(name)' applies only to format=eml")
        }
        if let text = values["sideBySide"] {
            switch text.lowercased() {
            case "", "true", "1", "yes", "on": sideBySide = true
            case "false", "0", "no", "off": sideBySide = false
            default: throw .badOption("invalid value '\(text)' for 'sideBySide': expected true or false")
            }
            if sideBySide, format != .html { throw .badOption("'sideBySide' applies only to format=html") }
            scan.keepsUprightImage = sideBySide
        }
        do throws(SnapPoemError) {
            if let to = values["to"] { self.to = try EmailAddress.list(parsing: to) }
            if let subject = values["subject"] {
                try EmailDraftOptions.validate(subject: subject)
                self.subject = subject
            }
        } catch {
            throw .badOption(error.description)
        }
        if let rendering = format.requiredRendering {
            scan.recognition.renderings.insert(rendering)
        }
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

    /// A duration in seconds for messages: `30`, `2.5`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)" : String(format: "%.3g", Double(milliseconds) / 1000)
    }
}
