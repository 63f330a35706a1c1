import Foundation

/// When a scan also reads the page as Tesseract reads it on its own, and keeps the surer of
/// the two readings (`ScanConfiguration.plainReading`).
public enum PlainReadingPolicy: String, Sendable, Codable, CaseIterable {
    /// When the image was changed and the prepared page's reading gives reason to doubt it:
    /// under 100 sure letters, or 2 % of its characters doubtful (`PlainReadingCheck.wants`).
    case auto
    /// For every image: the floor always holds, at the cost of a second reading.
    case always
    /// Never: the prepared page's reading stands.
    case never
}

/// What comparing the prepared page's reading with Tesseract's own reading of the page found
/// (`ScannedPoem.plainReading`).
public struct PlainReadingReport: Sendable, Equatable, Codable {
    /// Which reading was kept.
    public enum Kept: String, Sendable, Codable {
        /// The reading of the image as snap-poem prepared it.
        case prepared
        /// The reading of the upright image as it is.
        case plain
    }

    /// Why the plain reading was made, or why not ("always", "doubtful reading", "no change
    /// to the image", "over the mark limit"…).
    public var reason: String
    /// How sure the prepared page's reading is.
    public var prepared: ReadingQuality
    /// How sure the plain reading is; nil when it was not made.
    public var plain: ReadingQuality?
    /// Which reading was kept.
    public var kept: Kept
    /// The time the plain reading took, in milliseconds (0 when it was not made).
    public var milliseconds: Int

    /// Creates a report.
    public init(reason: String, prepared: ReadingQuality, plain: ReadingQuality?, kept: Kept, milliseconds: Int) {
        self.reason = reason
        self.prepared = prepared
        self.plain = plain
        self.kept = kept
        self.milliseconds = milliseconds
    }
}

/// The floor under every reading: Tesseract's own reading of the upright image, as it is. The
/// steps that prepare a photo (flattening, scaling, clearing the surround, keystone,
/// deskew, dewarp) each help the photos they were made for; on a photo nobody here chose, one
/// of them can mislead Tesseract instead. So, where the evidence is weak, the page is read
/// both ways and the surer reading kept (`ReadingQuality`).
enum PlainReadingCheck {
    /// Whether the plain reading is worth making for a page prepared with `options` as `report`
    /// describes and read with `quality`, under `policy`; with the reason either way.
    static func wants(
        _ policy: PlainReadingPolicy, options: PreprocessingOptions = PreprocessingOptions(), report: PreprocessingReport,
        quality: ReadingQuality
    ) -> (Bool, String) {
        switch policy {
        case .never: return (false, "not asked for")
        case .always: return (true, "always")
        case .auto:
            guard !choosesPreparation(options) else { return (false, "the caller chose how the image is prepared") }
            guard changesImage(report) else { return (false, "the image was not changed") }
            guard isDoubtful(quality) else { return (false, "the image was changed, and its reading is sure") }
            return (true, "the image was changed, and its reading has doubtful words")
        }
    }

    /// Whether a reading leaves room for doubt: under `sureLetterFloor` sure letters, or
    /// doubtful characters `doubtfulShare` or more of all it read. On the tune part of the
    /// corpus, 72 of 157 changed pages read surer than that; their plain readings cost 172 s
    /// in all and were, as often as not, worse.
    static func isDoubtful(_ quality: ReadingQuality) -> Bool {
        let all = quality.sureLetters + quality.doubtfulCharacters
        return quality.sureLetters < sureLetterFloor || Double(quality.doubtfulCharacters) >= doubtfulShare * Double(all)
    }

    /// Sure letters under which a reading is always doubtful (a few lines, or nothing read).
    static let sureLetterFloor = 100
    /// The share of doubtful characters from which a reading is doubtful.
    static let doubtfulShare = 0.02

    /// Whether `options` choose the scale or the tone filter (`--max-dimension`, `--filter`):
    /// under `auto`, the caller's choice stands, and only `always` second-guesses it.
    static func choosesPreparation(_ options: PreprocessingOptions) -> Bool {
        let defaults = PreprocessingOptions()
        return options.scaling != defaults.scaling || options.filter != defaults.filter
    }

    /// Whether preparing the page changed more than its tone and size: a step that moves or
    /// hides pixels (a turn, a deskew, a dewarp, a keystone correction, a cleared surround),
    /// a flattened background or a lifted white point, inverted text, or a scale far from 1.
    static func changesImage(_ report: PreprocessingReport) -> Bool {
        report.flattened || report.liftedWhitePoint != nil || report.inverted || report.clearedSurroundShare > 0 || report.deskewAngle != 0
            || report.curvature?.applied == true || report.keystone != nil || report.scaleFactor < 0.7 || report.scaleFactor > 1.4
    }

    /// Whether `plain` beats `prepared` by more than chance: its score is higher by at least
    /// `margin` letters and `relativeMargin` of the prepared reading's sure letters, and it
    /// has no more doubtful characters, unless its lead is `overwhelmingLead` of the prepared
    /// reading's sure letters (a prepared page read as almost nothing).
    ///
    /// On the tune part of the corpus (`make corpus-tune`), a plain reading that led by a few
    /// letters was as often worse as better, and one whose doubtful characters grew had most
    /// often read lines twice (a ghosted or double-struck page), which adds sure letters too.
    ///
    /// A prepared page that read next to nothing (under `sureLetterFloor` sure letters) is
    /// also passed over for a plain reading with at least `sureLetterRatio` times its sure
    /// letters and `sureLetterFloor` of them: the score counts every doubtful character
    /// against a reading, so a page that reads nothing scores better than one that reads a
    /// noisy photo's words among its noise (a screen photo of a second draw of the corpus,
    /// its x-height measured above the specks: 20 sure letters and 53 doubtful characters
    /// kept at CER 75 % over 164 and 204, which read at 38 %).
    static func prefersPlain(_ plain: ReadingQuality, over prepared: ReadingQuality) -> Bool {
        if prepared.sureLetters < sureLetterFloor, plain.sureLetters >= sureLetterFloor,
            Double(plain.sureLetters) >= sureLetterRatio * Double(prepared.sureLetters)
        {
            return true
        }
        let lead = plain.score - prepared.score
        let needed = max(margin, Int((relativeMargin * Double(prepared.sureLetters)).rounded(.up)))
        guard lead >= needed else { return false }
        return plain.doubtfulCharacters <= prepared.doubtfulCharacters
            || Double(lead) >= overwhelmingLead * Double(max(prepared.sureLetters, 1))
    }

    /// The least lead, in letters, for the plain reading to be kept.
    static let margin = 5
    /// The least lead as a share of the prepared reading's sure letters.
    static let relativeMargin = 0.03
    /// A lead, as a share of the prepared reading's sure letters, for which more doubtful
    /// characters are accepted.
    static let overwhelmingLead = 0.5
    /// How many times a prepared reading's sure letters a plain reading must have to be kept
    /// over a prepared page that read next to nothing, whatever its doubtful characters.
    static let sureLetterRatio = 2.0

    /// The options that prepare the plain page: the upright image in grey, at its own size
    /// (within Tesseract's limits), and nothing else.
    static func options(from options: PreprocessingOptions) -> PreprocessingOptions {
        PreprocessingOptions(
            scaling: .original, filter: .none, invertsLightText: false, detectsOrientation: false, deskews: false,
            maxOutputPixels: options.maxOutputPixels, clearsSurround: false, dewarps: false, correctsKeystone: false)
    }
}
