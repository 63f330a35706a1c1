/// The page returned when the time limit ran out before Tesseract recognised any text: in
/// layout analysis (the recognizer answered on its own), or before recognition started.
extension RecognizedPage {
    /// An empty page marked `timedOut`, carrying an empty rendering of each format asked for,
    /// shaped as Tesseract writes a page without text, so that `--format hocr|tsv|alto`
    /// still writes a complete (empty) document and the run ends with the time limit's exit
    /// code rather than an export error.
    static func timedOutBeforeText(
        imageWidth: Int, imageHeight: Int, renderings: Set<PageRenderingFormat>, dotsPerInch: Int
    ) -> RecognizedPage {
        var page = RecognizedPage(
            text: "", meanConfidence: 0, blocks: [], timedOut: true, imageWidth: imageWidth, imageHeight: imageHeight)
        for format in renderings {
            page.renderings[format] = format.emptyPage(width: imageWidth, height: imageHeight, dotsPerInch: dotsPerInch)
        }
        return page
    }
}

extension PageRenderingFormat {
    /// What Tesseract 5 renders for a `width` × `height` page on which it found nothing
    /// (checked against `tesseract blank.png - hocr|tsv|alto`).
    func emptyPage(width: Int, height: Int, dotsPerInch: Int) -> String {
        switch self {
        case .hocr:
            return """
                  <div class='ocr_page' id='page_1' title='image "unknown"; bbox 0 0 \(width) \(height); ppageno 0; scan_res \(dotsPerInch) \(dotsPerInch)'>
                  </div>

                """
        case .tsv:
            return TesseractEngine.tsvHeader + "1\t1\t0\t0\t0\t0\t0\t0\t\(width)\t\(height)\t-1\t\n"
        case .alto:
            return """
                \t\t<Page WIDTH="\(width)" HEIGHT="\(height)" PHYSICAL_IMG_NR="0" ID="page_0">
                \t\t\t<PrintSpace HPOS="0" VPOS="0" WIDTH="\(width)" HEIGHT="\(height)">
                \t\t\t</PrintSpace>
                \t\t</Page>

                """
        }
    }
}
