import Foundation

/// Exports ALTO v3 XML: a complete `<alto>` document (namespace, schema location and a
/// `Description` with the measurement unit, the source file and the processing steps) around
/// Tesseract's page (`TessBaseAPIGetAltoText`).
///
/// Positions and word confidences (`WC`) are Tesseract's. By default each `String`'s
/// `CONTENT` is the personalised word (see `WordPersonalization`), recorded as a
/// post-processing step; the recognised words are in the JSON export.
public struct ALTOExporter: PoemExporter {
    /// Whether `String` elements carry the personalised words (default) or the words as
    /// recognised.
    public var personalizesWords: Bool

    /// Creates the exporter.
    public init(personalizesWords: Bool = true) {
        self.personalizesWords = personalizesWords
    }

    /// `.alto`.
    public var format: ExportFormat { .alto }

    /// The ALTO document in UTF-8.
    ///
    /// - Throws: `SnapPoemError.exportFailed` when the scan did not record the ALTO rendering.
    public func export(_ poem: ScannedPoem) throws(SnapPoemError) -> Data {
        var page = try poem.recordedRendering(.alto, for: .alto)
        let personalizing = personalizesWords && !poem.personalized.changes.isEmpty
        if personalizing {
            page = Self.rewritingContents(of: page) { WordPersonalization.personalized($0, in: poem) }
        }
        var preprocessing = "greyscale"
        if case .maxDimension(let side) = poem.preprocessing.scaling { preprocessing += "; longest side at most \(side) px" }
        preprocessing += "; filter: \(poem.preprocessing.filter.rawValue)"
        if poem.imageFacts.orientation != .up {
            preprocessing = "EXIF orientation \(poem.imageFacts.orientation.rawValue) applied; " + preprocessing
        }
        var steps = """
            \t\t\t<preProcessingStep>
            \t\t\t\t<processingStepDescription>\(MarkupEscaping.escape(preprocessing))</processingStepDescription>
            \(Self.software("snap-poem", Versions.snapPoem))
            \t\t\t</preProcessingStep>
            \t\t\t<ocrProcessingStep>
            \(Self.software("tesseract", Versions.tesseract))
            \t\t\t</ocrProcessingStep>

            """
        if personalizing {
            steps += """
                \t\t\t<postProcessingStep>
                \t\t\t\t<processingStepDescription>personalised: words replaced by snap-poem</processingStepDescription>
                \(Self.software("snap-poem", Versions.snapPoem))
                \t\t\t</postProcessingStep>

                """
        }
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <alto xmlns="http://www.loc.gov/standards/alto/ns-v3#" xmlns:xlink="http://www.w3.org/1999/xlink" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.loc.gov/standards/alto/ns-v3# http://www.loc.gov/alto/v3/alto-3-0.xsd">
            \t<Description>
            \t\t<MeasurementUnit>pixel</MeasurementUnit>
            \t\t<sourceImageInformation>
            \t\t\t<fileName>\(MarkupEscaping.escape(poem.source))</fileName>
            \t\t</sourceImageInformation>
            \t\t<OCRProcessing ID="OCR_0">
            \(steps)\t\t</OCRProcessing>
            \t</Description>
            \t<Layout>

            """ + page + (page.hasSuffix("\n") ? "" : "\n") + "\t</Layout>\n</alto>\n"
        return Data(document.utf8)
    }

    private static func software(_ name: String, _ version: String) -> String {
        """
        \t\t\t\t<processingSoftware>
        \t\t\t\t\t<softwareName>\(MarkupEscaping.escape(name))</softwareName>
        \t\t\t\t\t<softwareVersion>\(MarkupEscaping.escape(version))</softwareVersion>
        \t\t\t\t</processingSoftware>
        """
    }

    /// Replaces the `CONTENT` of every `String` element. `transform` gets the contents as
    /// found (unescaped, in document order) and returns their new texts.
    static func rewritingContents(of page: String, _ transform: ([String]) -> [String]) -> String {
        var contents: [Range<String.Index>] = []
        var searchFrom = page.startIndex
        while let element = page.range(of: "<String ", range: searchFrom..<page.endIndex),
            let tagEnd = page[element.upperBound...].firstIndex(of: ">")
        {
            if let attribute = page.range(of: " CONTENT=\"", range: element.upperBound..<tagEnd),
                let valueEnd = page[attribute.upperBound..<tagEnd].firstIndex(of: "\"")
            {
                contents.append(attribute.upperBound..<valueEnd)
            }
            searchFrom = tagEnd
        }
        return MarkupEscaping.replacingTexts(at: contents, in: page, transform)
    }
}
