import Foundation

/// Exports the love-note page (`HTMLExporter`) with the photo beside it, annotated with what
/// was read (`PoemAnnotation`): a box round every word coloured by confidence, the replaced
/// words in green, line numbers, text that was not read outlined. A person can check the
/// poem against the photo line by line: the poem's lines carry the same numbers as the
/// photo's margin, and each replaced word links to its box on the photo and back; pointing
/// at either, or focusing it with the keyboard, highlights both.
///
/// Still one self-contained file: the photo is embedded as a JPEG `data:` URL (scaled down
/// to `imageMaximumSide`), all styling is inline CSS, and there is no script: the
/// highlighting is CSS (`:has()`, with `:target` for browsers without it). The two sit side
/// by side on a wide screen and one above the other on a phone.
///
/// Needs the upright image the scan read: scan with `ScanConfiguration.keepsUprightImage`.
public struct SideBySideHTMLExporter: PoemExporter {
    /// The poem's language as a BCP 47 tag, for the page's `lang`.
    public var languageTag: String
    /// How the photo is annotated.
    public var style: AnnotationStyle
    /// The longest side of the embedded photo, in pixels. Default 1600: sharp on a laptop,
    /// a few hundred kilobytes.
    public var imageMaximumSide: Int
    /// The embedded JPEG's quality, 1–100. Default 85.
    public var imageQuality: Int

    /// Creates the exporter.
    public init(languageTag: String = "en", style: AnnotationStyle = .standard, imageMaximumSide: Int = 1600, imageQuality: Int = 85) {
        self.languageTag = languageTag
        self.style = style
        self.imageMaximumSide = imageMaximumSide
        self.imageQuality = imageQuality
    }

    /// `.html`.
    public var format: ExportFormat { .html }

    /// The page in UTF-8.
    ///
    /// - Throws: `SnapPoemError.exportFailed` when the scan did not keep its upright image
    ///   or the photo cannot be drawn or encoded.
    public func export(_ poem: ScannedPoem) throws(SnapPoemError) -> Data {
        guard let image = poem.uprightImage else {
            throw .exportFailed(
                path: poem.source, format: "html",
                reason: "the side-by-side page needs the photo; scan with ScanConfiguration.keepsUprightImage set")
        }
        // The page writes the line numbers and the legend itself, in its own type, so that
        // they stay legible however small the photo is shown.
        var drawn = style
        drawn.showsLineNumbers = false
        drawn.showsLegend = false
        let annotation = try PoemAnnotation(of: poem, on: image, style: drawn, maximumSide: max(16, imageMaximumSide))
        let jpeg = try annotation.jpegData(quality: imageQuality)
        return Data(page(for: poem, annotation: annotation, jpeg: jpeg).utf8)
    }

    /// The page for a poem, its annotation and the annotation's JPEG bytes.
    func page(for poem: ScannedPoem, annotation: PoemAnnotation, jpeg: Data) -> String {
        let stanzas = PoemStanzas(poem.text)
        let links = ChangeLinks(poem: poem, annotation: annotation)
        var article = "<article>\n"
        if let title = stanzas.titleLine {
            article += "<h1 id=\"line-\(title.number)\">\(Self.number(title.number))\(links.markup(of: title))</h1>\n"
        }
        article += "<p class=\"ornament\" aria-hidden=\"true\">\u{2766}</p>\n"
        if stanzas.stanzaLines.isEmpty {
            article += "<p class=\"empty\">(no text was found in the photo)</p>\n"
        }
        for stanza in stanzas.stanzaLines {
            let lines = stanza.map { line in
                "<span class=\"line\" id=\"line-\(line.number)\">\(Self.number(line.number))\(links.markup(of: line))</span>"
            }
            article += "<p class=\"stanza\">\n" + lines.joined(separator: "\n") + "\n</p>\n"
        }
        article += "<p class=\"closing\" aria-hidden=\"true\">\u{2665}</p>\n</article>\n"

        let width = Double(max(1, annotation.image.width)), height = Double(max(1, annotation.image.height))
        var photo = "<div class=\"photo\">\n"
        photo +=
            "<img src=\"data:image/jpeg;base64,\(jpeg.base64EncodedString())\" width=\"\(annotation.image.width)\" height=\"\(annotation.image.height)\" alt=\"\(MarkupEscaping.escape(altText(for: annotation)))\" />\n"
        for (change, boxes) in links.boxes {
            for (index, box) in boxes.enumerated() {
                let position = String(
                    format: "left:%.3f%%;top:%.3f%%;width:%.3f%%;height:%.3f%%", Double(box.left) / width * 100,
                    Double(box.top) / height * 100, Double(box.width) / width * 100, Double(box.height) / height * 100)
                let id = index == 0 ? " id=\"box-\(change + 1)\"" : ""
                let label = MarkupEscaping.escape(links.description(of: change))
                photo +=
                    "<a class=\"box c-\(change + 1)\"\(id) href=\"#change-\(change + 1)\" style=\"\(position)\" title=\"\(label)\" aria-label=\"\(label)\"></a>\n"
            }
        }
        if style.showsLineNumbers {
            for (line, word) in Self.firstWords(of: annotation) {
                let middle = Double(word.bounds.top + word.bounds.bottom) / 2
                let position = String(format: "left:%.3f%%;top:%.3f%%", Double(word.bounds.left) / width * 100, middle / height * 100)
                photo += "<span class=\"label\" style=\"\(position)\" aria-hidden=\"true\">\(line)</span>\n"
            }
        }
        photo += "</div>\n"

        var caption = "<figcaption>\n<ul class=\"legend\">\n"
        for band in ConfidenceBand.allCases {
            caption += "<li><span class=\"swatch \(band.rawValue)\"></span>\(MarkupEscaping.escape(style.legendText(for: band)))</li>\n"
        }
        if !links.boxes.isEmpty { caption += "<li><span class=\"swatch replaced\"></span>replaced</li>\n" }
        if !annotation.unreadRegions.isEmpty { caption += "<li><span class=\"swatch unread\"></span>text not read</li>\n" }
        caption += "</ul>\n"
        caption += "<p>What snap-poem read in the photo. The numbers are the lines of the poem beside it.</p>\n"
        if !annotation.unreadRegions.isEmpty {
            let count = annotation.unreadRegions.count
            caption +=
                "<p class=\"warning\">\(count == 1 ? "One region" : "\(count) regions") of text in the photo could not be read (dashed outline): the poem may be missing lines there.</p>\n"
        }
        if poem.page.timedOut {
            caption += "<p class=\"warning\">The time limit stopped recognition: the poem is only what was read by then.</p>\n"
        }
        caption += "</figcaption>\n"

        let title = stanzas.title ?? HTMLExporter.untitled
        return """
            <!DOCTYPE html>
            <html lang="\(MarkupEscaping.escape(languageTag))">
            <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <meta name="generator" content="snap-poem \(Versions.snapPoem)" />
            <title>\(MarkupEscaping.escape(title))</title>
            <style>
            \(HTMLExporter.styleSheet)
            \(sideBySideStyleSheet(changes: links.boxes.map(\.change), annotation: annotation))
            </style>
            </head>
            <body class="side-by-side">
            <div class="pair">
            <main>
            \(article)</main>
            <figure class="reading">
            \(photo)\(caption)</figure>
            </div>
            </body>
            </html>

            """
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

    /// A line's number, for the gutter; hidden from screen readers, which have the text.
    private static func number(_ line: Int) -> String {
        "<span class=\"number\" aria-hidden=\"true\">\(line)</span>"
    }

    /// The photo's description for those who cannot see it.
    private func altText(for annotation: PoemAnnotation) -> String {
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

    /// The styling the side-by-side page adds to the love note's: the two columns, the line
    /// numbers, the boxes over the photo and their highlighting for each change. Kept free of
    /// `<` and `&`, like the love note's, so the page stays well-formed XML.
    private func sideBySideStyleSheet(changes: [Int], annotation: PoemAnnotation) -> String {
        let replaced = style.replacedColor
        // The photo's numbers, as tall as its capitals: a share of the photo's width
        // (`cqw`, the `.photo` box being a size container), never under 0.5rem.
        let lineHeight = annotation.typicalLineHeight / Double(max(1, annotation.image.width)) * 100
        let labelSize = String(format: "%.3f", max(0.1, 0.62 * lineHeight))
        let tint = "rgba(\(replaced.red), \(replaced.green), \(replaced.blue), 0.28)"
        var css = """
            body.side-by-side { padding: 2rem 1rem 3rem; }
            .pair { display: flex; flex-wrap: wrap; gap: 2rem; justify-content: center; align-items: flex-start; max-width: 92rem; margin: 0 auto; }
            .pair > main { flex: 1 1 28rem; margin: 0; }
            .reading { flex: 1 1 28rem; max-width: 46rem; margin: 0; }
            .photo { position: relative; line-height: 0; container-type: inline-size; }
            .photo .label { position: absolute; transform: translate(-100%, -50%); margin-left: -0.6em; padding: 0.1em 0.25em; line-height: 1; font-size: max(0.5rem, \(labelSize)cqw); color: #333333; background: rgba(255, 255, 255, 0.78); border-radius: 2px; font-variant-numeric: tabular-nums; pointer-events: none; }
            .photo img { display: block; width: 100%; height: auto; border: 1px solid #ecd3cb; border-radius: 4px; box-shadow: 0 1px 2px rgba(90, 40, 40, 0.10), 0 18px 48px rgba(90, 40, 40, 0.14); }
            .box { position: absolute; display: block; border-radius: 3px; outline: 0 solid transparent; }
            .line, h1 { position: relative; }
            .number { position: absolute; left: -2.7rem; width: 2rem; text-indent: 0; text-align: right; font-style: normal; font-size: 0.8rem; line-height: inherit; color: #a88c8c; font-variant-numeric: tabular-nums; }
            h1 .number { line-height: 2.3rem; top: 0.3rem; }
            a.replaced { color: inherit; text-decoration: underline; text-decoration-color: \(replaced); text-underline-offset: 0.18em; background: \(tint); border-radius: 3px; padding: 0 0.1em; }
            .legend { list-style: none; margin: 1rem 0 0.4rem; padding: 0; display: flex; flex-wrap: wrap; gap: 0.3rem 1.2rem; font-size: 0.9rem; }
            .legend li { display: flex; align-items: center; gap: 0.45rem; }
            .swatch { display: inline-block; width: 1.5rem; height: 0.9rem; border: 2px solid; border-radius: 2px; }
            .swatch.sure { border-color: \(style.sureColor); }
            .swatch.unsure { border-color: \(style.unsureColor); }
            .swatch.doubtful { border-color: \(style.doubtfulColor); border-width: 3px; }
            .swatch.replaced { border-color: \(replaced); border-width: 3px; background: \(style.replacedTint); }
            .swatch.unread { border-color: \(style.unreadColor); border-style: dashed; border-width: 3px; }
            figcaption p { margin: 0.3rem 0; font-size: 0.9rem; color: #6b5555; }
            figcaption .warning { color: #9e3349; font-weight: bold; }
            @media (max-width: 34rem) {
              body.side-by-side { padding: 1rem 0.5rem; }
              .number { left: -1.35rem; width: 1.1rem; font-size: 0.65rem; }
            }
            """
        for change in changes {
            let name = "c-\(change + 1)"
            css +=
                "\nbody:has(.\(name):hover) .\(name), body:has(.\(name):focus) .\(name), body:has(.\(name):target) .\(name), .\(name):target { outline: 3px solid \(replaced); outline-offset: 2px; background: \(tint); }"
        }
        return css
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
