import Foundation

/// The pieces of HTML that put an annotated photo beside a poem, for a page of one's own (the
/// snap-poem service's note page) as for `SideBySideHTMLExporter`'s:
///
/// - `figure`: the photo (`PoemAnnotation` drawn at `imageMaximumSide`, embedded as a JPEG
///   `data:` URL), the poem's line numbers over it, a link over each replaced word's box, and
///   a caption with the legend and any warning (text not read, recognition cut short);
/// - `lines`: the poem's title and stanzas, each line escaped, with its number, and each
///   replaced word in it a link to its box (`a.replaced`);
/// - `styleSheet`: everything the two need, positions included, so the markup carries no
///   `style` attribute and works under a Content-Security-Policy that allows only one nonce'd
///   style sheet (and `img-src data:`).
///
/// Each replaced word and its boxes share the class `c-N`; pointing at either, focusing it or
/// following its link highlights all of them (CSS `:has()` and `:target`, no script). Class
/// names other than `line`, `stanza` and `replaced` start with `reading` or `swatch`, and ids
/// are `box-N`, `change-N`, `label-N` and `line-N`, so the pieces sit in another page's markup
/// without clashing.
public struct AnnotatedPhotoHTML: Sendable {
    /// One line of the poem, ready to be placed.
    public struct Line: Sendable, Equatable {
        /// The line's number in the poem's text (1-based, blank lines counted), as the photo's
        /// margin shows it.
        public var number: Int
        /// The line's text.
        public var text: String
        /// The line as HTML: escaped, each replaced word in it a link to its box.
        public var html: String
    }

    /// The `<figure class="reading">` with the photo and its caption.
    public let figure: String
    /// The title line, when the poem has one (a first stanza of one short line).
    public let title: Line?
    /// The stanzas after the title.
    public let stanzas: [[Line]]
    /// The CSS the figure and the linked lines need (free of `<` and `&`).
    public let styleSheet: String
    /// The annotation the photo was drawn from (at the embedded size).
    public let annotation: PoemAnnotation

    /// Draws the photo of `poem` and lays out the pieces.
    ///
    /// - Parameters:
    ///   - poem: a scan that kept its upright image (`ScanConfiguration.keepsUprightImage`).
    ///   - style: how the photo is annotated. Its line numbers and legend are written in
    ///     HTML rather than drawn, so that they stay legible however small the photo is shown.
    ///   - imageMaximumSide: the longest side of the embedded photo, in pixels.
    ///   - imageQuality: the embedded JPEG's quality, 1–100.
    /// - Throws: `SnapPoemError.exportFailed` when the scan kept no image, or the photo cannot
    ///   be drawn or encoded.
    public init(
        poem: ScannedPoem, style: AnnotationStyle = .standard, imageMaximumSide: Int = 1600, imageQuality: Int = 85
    ) throws(SnapPoemError) {
        guard let image = poem.uprightImage else {
            throw .exportFailed(
                path: poem.source, format: "html",
                reason: "showing the photo needs it kept; scan with ScanConfiguration.keepsUprightImage set")
        }
        var drawn = style
        drawn.showsLineNumbers = false
        drawn.showsLegend = false
        let annotation = try PoemAnnotation(of: poem, on: image, style: drawn, maximumSide: max(16, imageMaximumSide))
        let jpeg = try annotation.jpegData(quality: imageQuality)
        let links = ChangeLinks(poem: poem, annotation: annotation)
        let stanzas = PoemStanzas(poem.text)
        func line(_ line: PoemStanzas.Line) -> Line {
            Line(number: line.number, text: line.text, html: links.markup(of: line))
        }
        self.annotation = annotation
        self.title = stanzas.titleLine.map(line)
        self.stanzas = stanzas.stanzaLines.map { $0.map(line) }
        let labels = style.showsLineNumbers ? Self.firstWords(of: annotation) : []
        self.figure = Self.figure(poem: poem, annotation: annotation, jpeg: jpeg, links: links, labels: labels, style: style)
        self.styleSheet = Self.styleSheet(annotation: annotation, links: links, labels: labels, style: style)
    }

    // MARK: - The figure

    private static func figure(
        poem: ScannedPoem, annotation: PoemAnnotation, jpeg: Data, links: ChangeLinks, labels: [(Int, AnnotatedWord)],
        style: AnnotationStyle
    ) -> String {
        var photo = "<figure class=\"reading\">\n<div class=\"reading-photo\">\n"
        photo +=
            "<img src=\"data:image/jpeg;base64,\(jpeg.base64EncodedString())\" width=\"\(annotation.image.width)\" height=\"\(annotation.image.height)\" alt=\"\(MarkupEscaping.escape(altText(for: annotation)))\" />\n"
        for (change, boxes) in links.boxes {
            for index in boxes.indices {
                let label = MarkupEscaping.escape(links.description(of: change))
                photo +=
                    "<a class=\"reading-box c-\(change + 1)\" id=\"\(boxID(change, index))\" href=\"#change-\(change + 1)\" title=\"\(label)\" aria-label=\"\(label)\"></a>\n"
            }
        }
        for (line, _) in labels {
            photo += "<span class=\"reading-label\" id=\"label-\(line)\" aria-hidden=\"true\">\(line)</span>\n"
        }
        photo += "</div>\n<figcaption>\n<ul class=\"reading-legend\">\n"
        for band in ConfidenceBand.allCases {
            photo += "<li><span class=\"swatch \(band.rawValue)\"></span>\(MarkupEscaping.escape(style.legendText(for: band)))</li>\n"
        }
        if !links.boxes.isEmpty { photo += "<li><span class=\"swatch replaced\"></span>replaced</li>\n" }
        if !annotation.unreadRegions.isEmpty { photo += "<li><span class=\"swatch unread\"></span>text not read</li>\n" }
        photo += "</ul>\n"
        photo += "<p>What snap-poem read in the photo. The numbers are the lines of the poem.</p>\n"
        if !annotation.unreadRegions.isEmpty {
            let count = annotation.unreadRegions.count
            photo +=
                "<p class=\"reading-warning\">\(count == 1 ? "One region" : "\(count) regions") of text in the photo could not be read (dashed outline): the poem may be missing lines there.</p>\n"
        }
        if poem.page.timedOut {
            photo += "<p class=\"reading-warning\">The time limit stopped recognition: the poem is only what was read by then.</p>\n"
        }
        return photo + "</figcaption>\n</figure>\n"
    }

    /// The id of a change's `index`th box: `box-N` for the first (what the word links to),
    /// `box-N-2`, … for the others.
    private static func boxID(_ change: Int, _ index: Int) -> String {
        index == 0 ? "box-\(change + 1)" : "box-\(change + 1)-\(index + 1)"
    }

    /// The leftmost word of each numbered line of the photo, by line number.
    private static func firstWords(of annotation: PoemAnnotation) -> [(Int, AnnotatedWord)] {
        var first: [Int: AnnotatedWord] = [:]
        for word in annotation.words {
            guard let line = word.line else { continue }
            if let known = first[line], known.bounds.left <= word.bounds.left { continue }
            first[line] = word
        }
        return first.keys.sorted().compactMap { line in first[line].map { (line, $0) } }
    }

    /// The photo's description for those who cannot see it.
    private static func altText(for annotation: PoemAnnotation) -> String {
        var text =
            "The photo of the poem, with a box round each of the \(annotation.words.count) words read, coloured by how sure Tesseract was of it"
        let doubtful = annotation.words.filter { $0.band == .doubtful && $0.change == nil }
        if !doubtful.isEmpty {
            let some = doubtful.prefix(5).map { "“\($0.text)”" }.joined(separator: ", ")
            text += "; in doubt: \(some)\(doubtful.count > 5 ? ", …" : "")"
        }
        text += "; replaced words highlighted; line numbers in the margin."
        return text
    }

    // MARK: - The style sheet

    private static func styleSheet(
        annotation: PoemAnnotation, links: ChangeLinks, labels: [(Int, AnnotatedWord)], style: AnnotationStyle
    ) -> String {
        let replaced = style.replacedColor
        let tint = "rgba(\(replaced.red), \(replaced.green), \(replaced.blue), 0.28)"
        let width = Double(max(1, annotation.image.width)), height = Double(max(1, annotation.image.height))
        // The numbers on the photo, as tall as its capitals: a share of the photo's width
        // (`cqw`, the photo's box being a size container), never under 0.5rem.
        let lineHeight = annotation.typicalLineHeight / width * 100
        let labelSize = String(format: "%.3f", max(0.1, 0.62 * lineHeight))
        var css = """
            .reading { margin: 0; }
            .reading-photo { position: relative; line-height: 0; container-type: inline-size; }
            .reading-photo img { display: block; width: 100%; height: auto; border: 1px solid #ecd3cb; border-radius: 4px; box-shadow: 0 1px 2px rgba(90, 40, 40, 0.10), 0 18px 48px rgba(90, 40, 40, 0.14); }
            .reading-box { position: absolute; display: block; border-radius: 3px; }
            .reading-label { position: absolute; transform: translate(-100%, -50%); margin-left: -0.6em; padding: 0.1em 0.25em; line-height: 1; font-size: max(0.5rem, \(labelSize)cqw); color: #333333; background: rgba(255, 255, 255, 0.78); border-radius: 2px; font-variant-numeric: tabular-nums; pointer-events: none; }
            .reading-number { position: absolute; left: -2.7rem; width: 2rem; text-indent: 0; text-align: right; font-style: normal; font-weight: normal; font-size: 0.8rem; line-height: inherit; color: #7d6060; font-variant-numeric: tabular-nums; }
            .reading-numbered { position: relative; }
            a.replaced { color: inherit; text-decoration: underline; text-decoration-color: \(replaced); text-underline-offset: 0.18em; background: \(tint); border-radius: 3px; padding: 0 0.1em; }
            .reading-legend { list-style: none; margin: 1rem 0 0.4rem; padding: 0; display: flex; flex-wrap: wrap; gap: 0.3rem 1.2rem; font-size: 0.9rem; line-height: 1.4; }
            .reading-legend li { display: flex; align-items: center; gap: 0.45rem; }
            .swatch { display: inline-block; width: 1.5rem; height: 0.9rem; border: 2px solid; border-radius: 2px; }
            .swatch.sure { border-color: \(style.sureColor); }
            .swatch.unsure { border-color: \(style.unsureColor); }
            .swatch.doubtful { border-color: \(style.doubtfulColor); border-width: 3px; }
            .swatch.replaced { border-color: \(replaced); border-width: 3px; background: \(style.replacedTint); }
            .swatch.unread { border-color: \(style.unreadColor); border-style: dashed; border-width: 3px; }
            .reading figcaption p { margin: 0.3rem 0; font-size: 0.9rem; line-height: 1.4; color: #6b5555; }
            .reading figcaption .reading-warning { color: #9e3349; font-weight: bold; }
            @media (max-width: 34rem) {
              .reading-number { left: -1.35rem; width: 1.1rem; font-size: 0.65rem; }
            }
            """
        func percent(_ value: Double, of total: Double) -> String { String(format: "%.3f%%", value / total * 100) }
        for (change, boxes) in links.boxes {
            for (index, box) in boxes.enumerated() {
                css +=
                    "\n#\(boxID(change, index)) { left: \(percent(Double(box.left), of: width)); top: \(percent(Double(box.top), of: height)); width: \(percent(Double(box.width), of: width)); height: \(percent(Double(box.height), of: height)); }"
            }
            let name = "c-\(change + 1)"
            css +=
                "\nbody:has(.\(name):hover) .\(name), body:has(.\(name):focus) .\(name), body:has(.\(name):target) .\(name), .\(name):target { outline: 3px solid \(replaced); outline-offset: 2px; background: \(tint); }"
        }
        for (line, word) in labels {
            let middle = Double(word.bounds.top + word.bounds.bottom) / 2
            css += "\n#label-\(line) { left: \(percent(Double(word.bounds.left), of: width)); top: \(percent(middle, of: height)); }"
        }
        return css
    }

    /// A line's number, for the poem's gutter (its parent needs the class `reading-numbered`);
    /// hidden from screen readers, which have the text.
    public static func number(_ line: Int) -> String {
        "<span class=\"reading-number\" aria-hidden=\"true\">\(line)</span>"
    }
}

/// Each change of a poem tied to where it stands in the poem's text and to its words' boxes
/// on the annotated photo.
struct ChangeLinks {
    /// The changes that have boxes, in order, with their boxes in the annotated image's pixels.
    let boxes: [(change: Int, boxes: [BoundingBox])]
    /// Each linked change's replacement, as `Character` offsets in the poem's text.
    private let spans: [Int: Range<Int>]
    private let changes: [TextChange]
    private let characters: [Character]

    init(poem: ScannedPoem, annotation: PoemAnnotation) {
        changes = poem.personalized.changes
        characters = Array(poem.text)
        var found: [Int: [BoundingBox]] = [:]
        for word in annotation.words {
            if let change = word.change { found[change, default: []].append(word.bounds) }
        }
        var spans: [Int: Range<Int>] = [:]
        let placements = poem.personalized.placements
        if placements.count == changes.count {
            for (index, placement) in placements.enumerated() where found[index] != nil {
                let range = placement.replacement
                // Linked only where the text really holds the replacement there.
                guard range.lowerBound >= 0, range.upperBound <= characters.count, !range.isEmpty,
                    String(characters[range]) == changes[index].replacement
                else { continue }
                spans[index] = range
            }
        }
        self.spans = spans
        boxes = found.keys.sorted().filter { spans[$0] != nil }.map { ($0, found[$0] ?? []) }
    }

    /// A line of the text as HTML: escaped, each linked replacement in it wrapped in a link
    /// to its box.
    func markup(of line: PoemStanzas.Line) -> String {
        let start = line.offset, end = line.offset + line.text.count
        var output = ""
        var position = start
        for (change, span) in spans.sorted(by: { $0.value.lowerBound < $1.value.lowerBound })
        where span.lowerBound >= position && span.lowerBound < end {
            let until = min(span.upperBound, end)
            output += MarkupEscaping.escape(String(characters[position..<span.lowerBound]))
            let label = MarkupEscaping.escape(description(of: change))
            output +=
                "<a class=\"replaced c-\(change + 1)\" id=\"change-\(change + 1)\" href=\"#box-\(change + 1)\" title=\"\(label)\">"
                + MarkupEscaping.escape(String(characters[span.lowerBound..<until])) + "</a>"
            position = until
        }
        output += MarkupEscaping.escape(String(characters[position..<end]))
        return output
    }

    /// What a change did, for a title: `Alex: the photo said “Lenore” (confidence 96)`.
    func description(of change: Int) -> String {
        let record = changes[change]
        let said = record.original.replacingOccurrences(of: "\n", with: " ")
        var text = "\(record.replacement): the photo said “\(said)”"
        if let confidence = record.confidence { text += " (confidence \(Int(confidence.rounded())))" }
        return text
    }
}
