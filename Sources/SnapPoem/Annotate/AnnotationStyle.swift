import Foundation

/// How an annotated image looks: where the confidence bands meet, the colours of its marks,
/// and whether it has line numbers and a legend.
///
/// The default colours are from Okabe and Ito's palette for colour-blind readers where they
/// could be (blue, orange), with a red for doubtful words, a green for replaced ones and a
/// magenta for text that was not read; doubtful words and replaced ones also get thicker
/// lines, so that no mark depends on colour alone.
public struct AnnotationStyle: Sendable, Equatable {
    /// Words with a confidence at or above this are `.sure`. Default 90: on the sample photos,
    /// correctly read words score 90–97, while slips such as "bow!!" for "bowl!" score 82–88.
    public var sureConfidence: Double
    /// Words with a confidence at or above this (and under `sureConfidence`) are `.unsure`;
    /// under it, `.doubtful`. Default 70, the page confidence under which a scan suspects
    /// it read a turned page (`PoemScanner.doubtfulConfidence`).
    public var unsureConfidence: Double
    /// The outline of a `.sure` word. Default blue `#0072b2`.
    public var sureColor: RGBColor
    /// The outline of an `.unsure` word. Default orange `#e69f00`.
    public var unsureColor: RGBColor
    /// The outline of a `.doubtful` word. Default red `#d7191c`.
    public var doubtfulColor: RGBColor
    /// The outline of a replaced word, which is also tinted with a light shade of it. Default
    /// green `#1a9641`.
    public var replacedColor: RGBColor
    /// The dashed outline of text-like ink that no recognised word covers (the coverage
    /// check's unread regions). Default magenta `#c51b8a`.
    public var unreadColor: RGBColor
    /// The colour of line numbers and the legend's words. Default dark grey `#333333`.
    public var labelColor: RGBColor
    /// Whether each recognised line gets its number (the line of the poem as written out)
    /// in the margin.
    public var showsLineNumbers: Bool
    /// Whether a small legend explains the colours, in the corner with the fewest words.
    public var showsLegend: Bool

    /// Creates a style; every setting has the default described above.
    public init(
        sureConfidence: Double = 90, unsureConfidence: Double = 70,
        sureColor: RGBColor = RGBColor(hex: 0x0072B2), unsureColor: RGBColor = RGBColor(hex: 0xE69F00),
        doubtfulColor: RGBColor = RGBColor(hex: 0xD7191C), replacedColor: RGBColor = RGBColor(hex: 0x1A9641),
        unreadColor: RGBColor = RGBColor(hex: 0xC51B8A), labelColor: RGBColor = RGBColor(hex: 0x333333),
        showsLineNumbers: Bool = true, showsLegend: Bool = true
    ) {
        self.sureConfidence = sureConfidence
        self.unsureConfidence = unsureConfidence
        self.sureColor = sureColor
        self.unsureColor = unsureColor
        self.doubtfulColor = doubtfulColor
        self.replacedColor = replacedColor
        self.unreadColor = unreadColor
        self.labelColor = labelColor
        self.showsLineNumbers = showsLineNumbers
        self.showsLegend = showsLegend
    }

    /// The defaults.
    public static let standard = AnnotationStyle()

    /// The band a word of `confidence` (0–100) falls in.
    public func band(forConfidence confidence: Double) -> ConfidenceBand {
        if confidence >= sureConfidence { return .sure }
        if confidence >= unsureConfidence { return .unsure }
        return .doubtful
    }

    /// The outline colour of a band.
    public func color(for band: ConfidenceBand) -> RGBColor {
        switch band {
        case .sure: sureColor
        case .unsure: unsureColor
        case .doubtful: doubtfulColor
        }
    }

    /// The highlighter shade a replaced word is tinted with: `replacedColor` mixed with
    /// three parts of white, multiplied into the paper so the ink stays dark.
    public var replacedTint: RGBColor {
        func lighter(_ component: UInt8) -> UInt8 { UInt8((Int(component) + 3 * 255) / 4) }
        return RGBColor(red: lighter(replacedColor.red), green: lighter(replacedColor.green), blue: lighter(replacedColor.blue))
    }

    /// The legend's words for a band: `read, confidence 90+`.
    func legendText(for band: ConfidenceBand) -> String {
        func number(_ value: Double) -> String {
            value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
        }
        switch band {
        case .sure: return "read, confidence \(number(sureConfidence))+"
        case .unsure:
            let top = sureConfidence.rounded() == sureConfidence ? number(sureConfidence - 1) : "<" + number(sureConfidence)
            return "read, confidence \(number(unsureConfidence))-\(top)"
        case .doubtful: return "read, confidence under \(number(unsureConfidence))"
        }
    }
}
