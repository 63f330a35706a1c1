/// Which language a poem, or one of its lines, is written in, judged from recognised text.
///
/// Tesseract with `eng+fra` reads French well enough to tell that it is French, but its
/// English model answers first and confidently on letters that differ only by an accent
/// ("à" → "a", "sœur" → "sceur"). So the first reading decides the language, and the
/// French model alone then reads what is French (`PageReading`). The judgement uses the
/// words themselves: the most frequent short words of each language ("le", "et", "qui" /
/// "the", "and", "with"), elisions ("l'", "d'", "qu'") and letters only French uses here
/// (é, è, ê, à, ç, œ, …), which survive even a poor first reading often enough.
public enum PoemLanguage: String, Sendable, Codable, CaseIterable {
    /// English: read with the languages configured (`eng+fra` by default).
    case english = "eng"
    /// French: read with the French model alone (`fra`).
    case french = "fra"

    /// How strongly `text` leans to French (positive) or English (negative): one point for
    /// each frequent word or elision of a language, half a point for each French-only letter.
    public static func score(_ text: String) -> Double {
        var score = 0.0
        for scalar in text.unicodeScalars where frenchLetters.contains(scalar) { score += 0.5 }
        let words = text.lowercased().split { !$0.isLetter && $0 != "'" && $0 != "’" }
        for raw in words {
            let word = raw.replacingOccurrences(of: "’", with: "'")
            if let apostrophe = word.firstIndex(of: "'") {
                let head = String(word[..<apostrophe])
                if frenchElisions.contains(head) { score += 1 }
                continue
            }
            if frenchWords.contains(word) { score += 1 } else if englishWords.contains(word) { score -= 1 }
        }
        return score
    }

    /// The language `text` is judged to be in, or nil when the evidence is too thin (fewer
    /// than `leastEvidence` points either way).
    public static func judge(_ text: String, leastEvidence: Double = 2) -> PoemLanguage? {
        let score = score(text)
        if score >= leastEvidence { return .french }
        if score <= -leastEvidence { return .english }
        return nil
    }

    static let frenchLetters: Set<Unicode.Scalar> = Set("éèêëàâîïôûùüçœÉÈÊÀÂÎÔÛÇŒ«»".unicodeScalars)
    static let frenchElisions: Set<String> = ["l", "d", "qu", "j", "m", "n", "s", "c", "t", "jusqu", "lorsqu", "puisqu"]
    static let frenchWords: Set<String> = [
        "le", "la", "les", "un", "une", "des", "du", "de", "et", "est", "qui", "que", "dans", "pour", "par", "sur", "au", "aux",
        "ne", "pas", "plus", "je", "tu", "il", "elle", "nous", "vous", "ils", "mon", "ma", "mes", "ton", "ta", "tes", "son", "sa",
        "ses", "ce", "cette", "ces", "comme", "mais", "ou", "où", "sans", "avec", "leur", "leurs", "se", "sont", "été", "être",
        "tout", "toute", "rien", "quand", "si", "très", "à", "lui", "moi", "toi", "cœur", "coeur", "nuit", "jour",
    ]
    static let englishWords: Set<String> = [
        "the", "and", "of", "to", "in", "is", "that", "with", "my", "you", "he", "it", "for", "his", "her", "was", "me", "thy",
        "thee", "thou", "i", "an", "by", "at", "from", "be", "not", "but", "all", "this", "what", "who", "when",
        "which", "their", "they", "we", "our", "your", "have", "had", "as", "or", "so", "no", "there", "where", "how", "shall",
        "will", "are", "were", "into", "upon", "love", "night", "day",
    ]
}
