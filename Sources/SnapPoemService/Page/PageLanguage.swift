import Foundation

/// The language the page speaks: English, or French when the browser prefers it. The poems
/// snap-poem reads by default are English and French, so their readers are too.
enum PageLanguage: String, Sendable, CaseIterable {
    case english = "en"
    case french = "fr"

    /// The BCP 47 tag of the page's `lang`.
    var tag: String { rawValue }

    /// The words of the page in this language.
    var text: PageText {
        switch self {
        case .english: .english
        case .french: .french
        }
    }

    /// The language an `Accept-Language` header prefers among the page's (RFC 9110 §12.5.4):
    /// the highest weight wins, the earlier of equal weights; `fr-CA` counts as `fr`; `*`
    /// and languages the page does not speak are passed over. English when nothing matches.
    /// The header is cut at 1 000 bytes and 50 entries before it is read.
    init(acceptLanguage header: String?) {
        self = .english
        guard let header else { return }
        var best: (language: PageLanguage, weight: Double)?
        for entry in header.utf8.prefix(1000).split(separator: UInt8(ascii: ",")).prefix(50) {
            let parts = String(decoding: entry, as: UTF8.self).split(separator: ";").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard let range = parts.first, let primary = range.split(separator: "-").first,
                let language = PageLanguage(rawValue: String(primary))
            else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                weight = Double(parameter.dropFirst(2)).map { min(1, max(0, $0)) } ?? 0
            }
            guard weight > 0 else { continue }
            if best == nil || weight > best!.weight { best = (language, weight) }
        }
        if let best { self = best.language }
    }
}
