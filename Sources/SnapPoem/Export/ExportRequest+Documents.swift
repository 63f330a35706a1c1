import Foundation

/// A file of several pages made into what an `ExportRequest` asks for: one document with
/// every page in it, in page order.
extension ExportRequest {
    /// Makes `document` into what this request asks for. A document of one page is rendered
    /// exactly as its poem (`render(_:stamp:)`). Of several pages:
    ///
    /// - text: the pages' poems joined by `ScannedDocument.pageSeparator` (a form feed line);
    ///   Markdown: by a thematic break (`* * *`); HTML: one `<article>` a page on one page;
    ///   JSON: the whole text at the top and every page under `pages` (`JSONPoemDocument`);
    ///   an e-mail draft or a `mailto:` URL: the joined text. hOCR, TSV and ALTO, Tesseract's
    ///   renderings of one page, are not made for several (an error says to use JSON).
    /// - images (`--annotate`, `--save-preprocessed`) and the side-by-side page show page
    ///   `imagesPage`, or page 1 with a warning saying so.
    /// - diagnostics: each page's own (its image's warnings, no text, coverage, the time
    ///   limit), naming `FILE (page N of M)`; an error for each page that could not be read;
    ///   the replacements over the whole document (`--report` lists each with its page; a
    ///   FIND is "not found" only when no page has it).
    public func render(_ document: ScannedDocument, stamp: DraftStamp) -> RenderedPoem {
        let name = document.source == "-" ? "<stdin>" : document.source
        if document.pageCount == 1, let page = document.pages.first {
            switch page.result {
            case .success(let poem): return render(poem, stamp: stamp)
            case .failure(let error): return RenderedPoem(document: nil, diagnostics: [Diagnostic(error)])
            }
        }
        let count = document.pageCount
        func pageName(_ number: Int) -> String { "\(name) (page \(number) of \(count))" }
        var rendered = RenderedPoem(document: nil)
        // Each page's own diagnostics, through the single-page path with nothing to make.
        var pageRequest = self
        pageRequest.format = .text
        pageRequest.mailtoLink = false
        pageRequest.images = []
        pageRequest.sideBySide = false
        pageRequest.listsChanges = false
        for page in document.pages {
            switch page.result {
            case .success(var poem):
                poem.source = pageName(page.number)
                poem.personalized.unmatched = []
                rendered.diagnostics += pageRequest.render(poem, stamp: stamp).diagnostics
            case .failure(let error):
                rendered.diagnostics.append(
                    Diagnostic(.error, Self.pageError(error, name: name, page: pageName(page.number)), category: .input))
            }
        }
        let poems = document.pages.compactMap { page in page.poem.map { (page.number, $0) } }
        guard let first = poems.first?.1 else { return rendered }
        rendered.diagnostics += documentPersonalization(poems, name: name)
        // The images and the side-by-side page: one page's.
        let shown = imagesPage ?? 1
        if !images.isEmpty || sideBySide {
            guard let chosen = poems.first(where: { $0.0 == shown })?.1 else {
                let reason = shown > count ? "the file has \(count) pages" : "that page could not be read"
                rendered.diagnostics.append(
                    Diagnostic(
                        SnapPoemError.exportFailed(path: name, format: "image", reason: "page \(shown) cannot be shown: \(reason)"),
                        category: .output))
                return rendered
            }
            if imagesPage == nil {
                rendered.diagnostics.append(
                    Diagnostic(
                        .warning, "the file has \(count) pages; the images show page 1, and another page can be chosen", subject: name,
                        setting: .annotationPage))
            }
            var single = self
            single.format = sideBySide ? .html : .text
            single.listsChanges = false
            let made = single.render(chosen, stamp: stamp)
            rendered.images = made.images
            if made.images.count < images.count {
                rendered.diagnostics += made.diagnostics.filter { $0.category == .output }
                return rendered
            }
            if sideBySide {
                rendered.document = made.document
                return rendered
            }
        }
        var merged = first
        merged.source = document.source
        merged.personalized.text = document.text
        merged.recognizedText = document.recognizedText
        if mailtoLink {
            let url = MailtoLink.url(for: merged, to: to, subject: subject)
            rendered.document = Data((url + "\n").utf8)
            return rendered
        }
        switch format {
        case .text:
            rendered.document = Data(document.text.utf8)
        case .markdown:
            let pages = document.poems.map { MarkdownExporter.markdown(for: $0.text) }.filter { !$0.isEmpty }
            rendered.document = Data(pages.joined(separator: "\n* * *\n\n").utf8)
        case .html:
            rendered.document = HTMLExporter(languageTag: languageTag).export(texts: document.poems.map(\.text))
        case .json:
            rendered.document = JSONExporter(layout: jsonLayout).export(document)
        case .eml:
            do throws(SnapPoemError) {
                rendered.document = try merged.exported(as: .eml, options: exportOptions(stamp: stamp))
            } catch {
                rendered.diagnostics.append(Diagnostic(error, category: .output))
            }
        case .hocr, .tsv, .alto:
            rendered.diagnostics.append(
                Diagnostic(
                    SnapPoemError.exportFailed(
                        path: name, format: format.rawValue,
                        reason:
                            "the file has \(count) pages, and Tesseract's \(format.rawValue) rendering is made for one; export JSON instead, which has every page's lines and words, or split the file (tiffsplit) and read its pages as a batch"
                    ), category: .output))
        }
        return rendered
    }

    /// A page's error, with the page named after the file: `FILE (page 2 of 3): …`.
    static func pageError(_ error: SnapPoemError, name: String, page: String) -> String {
        let text = error.description
        let prefix = OneLine.escaping(name) + ": "
        return text.hasPrefix(prefix) ? OneLine.escaping(page) + ": " + text.dropFirst(prefix.count) : OneLine.escaping(page) + ": " + text
    }

    /// The replacements over every page read: the report (each change with its page) and
    /// the FINDs no page has.
    private func documentPersonalization(_ poems: [(Int, ScannedPoem)], name: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        if listsChanges {
            var notes: [String] = []
            var total = 0
            for (number, poem) in poems {
                total += poem.personalized.changes.count
                notes += poem.personalized.changes.map { "page \(number), " + PoemDiagnostics.describe($0) }
                notes += poem.personalized.nearMisses.map {
                    "not replaced: page \(number), line \($0.line), column \($0.column): '\($0.word)' looks like '\($0.find)'"
                }
            }
            let summary = total == 0 ? "no replacements" : total == 1 ? "1 replacement" : "\(total) replacements"
            diagnostics.append(Diagnostic(.report, summary + " on \(poems.count) pages", subject: name, notes: notes))
        }
        let unmatchedEverywhere = poems.first?.1.personalized.unmatched.filter { find in
            poems.allSatisfy { _, poem in poem.personalized.unmatched.contains { $0.find == find.find } }
        }
        for unmatched in unmatchedEverywhere ?? [] {
            diagnostics.append(Diagnostic(.warning, unmatched.message, subject: namesPoemInReplacementWarnings ? name : nil))
        }
        return diagnostics
    }
}
