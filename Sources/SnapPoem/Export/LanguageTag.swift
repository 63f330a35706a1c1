/// BCP 47 language tags (`en`, `fr`) for the `lang` attributes of HTML and hOCR, derived from
/// Tesseract's language codes (`eng`, `fra`), which are mostly ISO 639-2.
public enum LanguageTag {
    /// The tag for the first language of `languages`: the one Tesseract tries first, and for
    /// the default `eng+fra` the poem's most likely language. Codes without a two-letter
    /// equivalent in the table are used as they are (a three-letter ISO 639 code is a valid
    /// tag); script models (`script/Latin`) and `osd` give `und` (undetermined).
    public static func forTesseract(_ languages: LanguageSet) -> String {
        guard let first = languages.codes.first else { return "und" }
        return forTesseractCode(first)
    }

    /// The tag for one Tesseract language code, e.g. `fra` → `fr`, `chi_sim` → `zh-Hans`.
    public static func forTesseractCode(_ code: String) -> String {
        if let tag = table[code] { return tag }
        if code.contains("/") || code == "osd" || code == "equ" { return "und" }
        let base = code.split(separator: "_").first.map(String.init) ?? code
        if let tag = table[base] { return tag }
        return base.allSatisfy({ $0.isASCII && $0.isLetter }) && (2...3).contains(base.count) ? base : "und"
    }

    private static let table: [String: String] = [
        "eng": "en", "fra": "fr", "deu": "de", "spa": "es", "ita": "it", "por": "pt", "nld": "nl",
        "dan": "da", "swe": "sv", "nor": "no", "fin": "fi", "isl": "is", "pol": "pl", "ces": "cs",
        "slk": "sk", "slv": "sl", "hrv": "hr", "srp": "sr", "hun": "hu", "ron": "ro", "bul": "bg",
        "rus": "ru", "ukr": "uk", "bel": "be", "ell": "el", "tur": "tr", "heb": "he", "ara": "ar",
        "fas": "fa", "hin": "hi", "ben": "bn", "jpn": "ja", "kor": "ko", "vie": "vi", "tha": "th",
        "ind": "id", "msa": "ms", "cat": "ca", "eus": "eu", "glg": "gl", "gle": "ga", "cym": "cy",
        "lat": "la", "est": "et", "lav": "lv", "lit": "lt", "afr": "af", "swa": "sw",
        "chi_sim": "zh-Hans", "chi_tra": "zh-Hant", "frk": "de", "enm": "enm", "frm": "frm",
    ]
}
