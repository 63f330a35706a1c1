import Foundation
import SnapPoem

/// The HTML of the service's page: the form at `GET /` and, after a post, the love note with
/// its editor and its share, copy, e-mail and download actions. One self-contained document
/// each time: the style sheet and the script are inline and carry the response's nonce,
/// which the `Content-Security-Policy` header names; nothing else may run or load.
///
/// Everything that came from the user or the photo is escaped (`MarkupEscaping`, shared with
/// the exporters); the script only sets text and attributes, and moves in nodes this page's
/// own answers hold.
struct ServicePage {
    /// The nonce of this response's style sheet and script.
    let nonce: String
    /// The language the page speaks.
    let language: PageLanguage
    /// The largest photo the server takes, for the script's check before upload.
    let maxUploadBytes: Int

    /// The page's words.
    var text: PageText { language.text }

    /// A file the note page offers for download.
    struct Download {
        /// The file name, e.g. `poem.html`.
        var fileName: String
        /// The label on the link.
        var label: String
        /// The media type of the `data:` URL.
        var mediaType: String
        /// The file's bytes.
        var data: Data
    }

    /// What the form shows again after a failed post.
    struct FormState {
        /// The name in the poem the user typed.
        var find = ""
        /// Their love's name.
        var replaceWith = ""
        /// Why the last post failed.
        var error: String?
        /// "Show what was read" was ticked.
        var showsReading = false
        /// The photo kept with the form.
        var kept: KeptPhoto?
        /// Why the photo could not be kept (its size), when it could not.
        var notKept: String?
        /// The name field the error is about (`find` or `replaceWith`): marked invalid and
        /// focused.
        var invalidField: String?
    }

    /// A word the note marks for a look: where it was when the poem was read (1-based line
    /// and column), how sure Tesseract was, and the word.
    struct Doubt: Equatable {
        var line: Int
        var column: Int
        var confidence: Int
        var word: String

        /// The hidden field's value: `LINE:COLUMN:CONFIDENCE:WORD`.
        var field: String { "\(line):\(column):\(confidence):\(word)" }

        /// Reads a hidden field's value; nil when it is not one.
        init?(field: String) {
            let parts = field.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, let line = Int(parts[0]), let column = Int(parts[1]), let confidence = Int(parts[2]),
                (1...100_000).contains(line), (1...100_000).contains(column), (0...100).contains(confidence),
                !parts[3].isEmpty, parts[3].count <= 100, !parts[3].contains(where: \.isNewline)
            else { return nil }
            self.init(line: line, column: column, confidence: confidence, word: String(parts[3]))
        }

        init(line: Int, column: Int, confidence: Int, word: String) {
            self.line = line
            self.column = column
            self.confidence = confidence
            self.word = word
        }

        /// The uncertain words of a poem, placed by line and column in its text.
        static func of(_ words: [UncertainWord], in text: String) -> [Doubt] {
            var lineStarts = [0]
            for (offset, character) in text.enumerated() where character.isNewline { lineStarts.append(offset + 1) }
            return words.map { word in
                let start = lineStarts[max(0, min(lineStarts.count - 1, word.line - 1))]
                return Doubt(
                    line: word.line, column: word.range.lowerBound - start + 1, confidence: Int(word.confidence.rounded(.down)),
                    word: word.text)
            }
        }
    }

    /// What the note page shows.
    struct Note {
        /// The poem, as the person will send it.
        var text: String
        /// Names not found, no text, time limit.
        var notices: [String] = []
        /// The words to check.
        var doubts: [Doubt] = []
        /// The poem's language, for the editor and the exports.
        var languageTag: String
        var downloads: [Download]
        var mailto: String
        /// The annotated photo, when "Show what was read" was ticked.
        var reading: AnnotatedPhotoHTML?
    }

    /// A fresh nonce: 16 random bytes in base64.
    static func newNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
    }

    /// The page's policy: only its own nonce'd style and script, images from the chosen photo
    /// (`blob:`) and the annotated photo embedded in the note (`data:`), requests and forms
    /// only back here (the note's editor brings its downloads up to date with `fetch`), no
    /// framing, no plugins, no base URL.
    var contentSecurityPolicy: String {
        "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; img-src blob: data:; "
            + "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    }

    // MARK: - The form

    /// The upload form; `state` carries what was typed, the error of a failed post and the
    /// photo kept with it.
    func form(_ state: FormState = FormState()) -> String {
        var body = header
        let alert = state.error.map { MarkupEscaping.escape($0) } ?? ""
        body +=
            "<p class=\"alert\" id=\"form-alert\" role=\"alert\"\(state.error == nil ? " hidden" : "")>\(alert)</p>\n"
        body +=
            "<form class=\"card\" id=\"poem-form\" method=\"post\" action=\"/\" enctype=\"multipart/form-data\" data-max-upload=\"\(maxUploadBytes)\" data-max-upload-text=\"\(MarkupEscaping.escape(text.fileTooLarge(ByteCount(maxUploadBytes).description)))\">\n"
        if let kept = state.kept {
            let size = ByteCount(kept.data.count).description
            body += "<div class=\"kept\" id=\"kept\">\n"
            body += "<img id=\"kept-preview\" alt=\"\(MarkupEscaping.escape(text.keptPreviewAlt))\" hidden>\n"
            body += "<p>\(MarkupEscaping.escape(text.keptPhoto(kept.name, size)))</p>\n"
            body +=
                "<input type=\"hidden\" name=\"keptImage\" id=\"kept-image\" data-type=\"\(MarkupEscaping.escape(kept.mediaType))\" value=\"\(kept.data.base64EncodedString())\">\n"
            body += "<input type=\"hidden\" name=\"keptImageName\" id=\"kept-image-name\" value=\"\(MarkupEscaping.escape(kept.name))\">\n"
            body += "</div>\n"
        } else if let size = state.notKept {
            body += "<p class=\"kept\">\(MarkupEscaping.escape(text.photoNotKept(size)))</p>\n"
        }
        let photoLabel = state.kept == nil ? text.photoLabel : text.otherPhotoLabel
        body += """
            <label class="photo">
            <svg class="icon" viewBox="0 0 24 24" width="44" height="44" aria-hidden="true" focusable="false"><path fill="currentColor" fill-rule="evenodd" d="M9 3 7.2 5H4a2 2 0 0 0-2 2v11a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-3.2L15 3H9zm3 5a5 5 0 1 1 0 10 5 5 0 0 1 0-10zm0 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6z"/></svg>
            <span>\(MarkupEscaping.escape(photoLabel))</span>
            <input type="file" name="image" accept="\(Self.acceptedFiles)"\(state.kept == nil ? " required" : "")>
            </label>
            <img id="preview" alt="\(MarkupEscaping.escape(text.previewAlt))" hidden>
            <div class="names">
            <label class="field">\(MarkupEscaping.escape(text.findLabel))
            <input type="text" name="find" value="\(MarkupEscaping.escape(state.find))"\(invalid(state, "find")) placeholder="Lenore" autocomplete="off" autocapitalize="words" spellcheck="false" maxlength="200" aria-describedby="names-hint">
            </label>
            <label class="field">\(MarkupEscaping.escape(text.replaceWithLabel))
            <input type="text" name="replaceWith" value="\(MarkupEscaping.escape(state.replaceWith))"\(invalid(state, "replaceWith")) placeholder="Alex" autocomplete="off" autocapitalize="words" spellcheck="false" maxlength="200" aria-describedby="names-hint">
            </label>
            </div>
            <p class="hint" id="names-hint">\(MarkupEscaping.escape(text.namesHint))</p>
            <label class="check"><input type="checkbox" name="showReading" value="true"\(state.showsReading ? " checked" : "")> \(MarkupEscaping.escape(text.showReading))</label>
            <button type="submit">\(MarkupEscaping.escape(text.submit))</button>
            <p class="status" id="status" role="status" aria-live="polite"></p>
            </form>

            """
        return document(title: text.title, body: body + footer)
    }

    /// `aria-invalid` and `autofocus` for the field a failed post is about.
    private func invalid(_ state: FormState, _ field: String) -> String {
        state.invalidField == field ? " aria-invalid=\"true\" autofocus" : ""
    }

    // MARK: - The note

    /// The note: the poem laid out as a love note with its doubtful words marked, the notices
    /// (names not found, no text, time limit), the editor, and the ways out. With a reading,
    /// the note's lines carry their numbers and its replaced words link to their boxes on the
    /// annotated photo, shown under the note.
    ///
    /// A `fragment` is the page's parts alone, without its head, style sheet or script: what
    /// the note's script takes its new note, words to check and downloads from.
    func note(_ note: Note, fragment: Bool = false) -> String {
        let stanzas = PoemStanzas(note.text)
        var body = header
        for notice in note.notices {
            body += "<p class=\"notice\" role=\"status\">\(MarkupEscaping.escape(notice))</p>\n"
        }
        body += article(note, stanzas: stanzas)
        if let reading = note.reading {
            body +=
                "<section class=\"card reading-card\" aria-label=\"\(MarkupEscaping.escape(text.readingLabel))\">\n<h2>\(MarkupEscaping.escape(text.readingHeading))</h2>\n"
            body += reading.figure + "</section>\n"
        }
        body += editor(note)
        body += "<nav class=\"actions\" aria-label=\"\(MarkupEscaping.escape(text.actionsLabel))\">\n"
        body += "<button type=\"button\" id=\"share\" hidden>\(MarkupEscaping.escape(text.share))</button>\n"
        body += "<button type=\"button\" id=\"copy\" class=\"secondary\" hidden>\(MarkupEscaping.escape(text.copy))</button>\n"
        body +=
            "<a class=\"button secondary\" id=\"mailto\" href=\"\(MarkupEscaping.escape(note.mailto))\">\(MarkupEscaping.escape(text.email))</a>\n"
        for download in note.downloads {
            let url = "data:\(download.mediaType);base64,\(download.data.base64EncodedString())"
            body +=
                "<a class=\"button secondary\" download=\"\(MarkupEscaping.escape(download.fileName))\" href=\"\(url)\">\(MarkupEscaping.escape(download.label))</a>\n"
        }
        body += "<a class=\"button secondary\" href=\"/\">\(MarkupEscaping.escape(text.another))</a>\n"
        body += "</nav>\n<p class=\"status\" id=\"action-status\" role=\"status\" aria-live=\"polite\"></p>\n"
        let title = stanzas.title ?? text.untitled
        if fragment {
            return
                "<!DOCTYPE html>\n<html lang=\"\(language.tag)\">\n<head>\n<title>\(MarkupEscaping.escape(title))</title>\n</head>\n<body>\n"
                + body + "</body>\n</html>\n"
        }
        return document(title: title, body: body + footer, extraStyle: note.reading?.styleSheet)
    }

    /// The love note itself (`#note`).
    private func article(_ note: Note, stanzas: PoemStanzas) -> String {
        var body: String
        if let reading = note.reading {
            body = "<article class=\"card note numbered\" id=\"note\">\n"
            if let title = reading.title {
                body += "<h2 class=\"reading-numbered\">\(AnnotatedPhotoHTML.number(title.number))\(title.html)</h2>\n"
            }
        } else {
            body = "<article class=\"card note\" id=\"note\">\n"
            if let title = stanzas.titleLine { body += "<h2>\(marked(title, doubts: note.doubts))</h2>\n" }
        }
        body += "<p class=\"ornament\" aria-hidden=\"true\">\u{2766}</p>\n"
        if stanzas.stanzas.isEmpty { body += "<p class=\"empty\">\(MarkupEscaping.escape(text.noTextInNote))</p>\n" }
        if let reading = note.reading {
            for stanza in reading.stanzas {
                let lines = stanza.map { "<span class=\"line reading-numbered\">\(AnnotatedPhotoHTML.number($0.number))\($0.html)</span>" }
                body += "<p class=\"stanza\">\n" + lines.joined(separator: "\n") + "\n</p>\n"
            }
        } else {
            for stanza in stanzas.stanzaLines {
                let lines = stanza.map { "<span class=\"line\">\(marked($0, doubts: note.doubts))</span>" }
                body += "<p class=\"stanza\">\n" + lines.joined(separator: "\n") + "\n</p>\n"
            }
        }
        return body + "<p class=\"closing\" aria-hidden=\"true\">\u{2665}</p>\n</article>\n"
    }

    /// A line escaped, with its doubtful words in `<mark>`: each doubt on the line marks the
    /// occurrence of its word nearest to where it was read.
    func marked(_ line: PoemStanzas.Line, doubts: [Doubt]) -> String {
        let characters = Array(line.text)
        // A bound on the search, whatever a client sent: poems' lines are short.
        guard characters.count <= Self.longestMarkedLine else { return MarkupEscaping.escape(line.text) }
        var spans: [Range<Int>] = []
        var titles: [Range<Int>: String] = [:]
        for doubt in doubts where doubt.line == line.number {
            let word = Array(doubt.word)
            guard !word.isEmpty, word.count <= characters.count else { continue }
            var best: Int?
            for start in 0...(characters.count - word.count) where Array(characters[start..<(start + word.count)]) == word {
                let span = start..<(start + word.count)
                guard !spans.contains(where: { $0.overlaps(span) }) else { continue }
                if best.map({ abs($0 - (doubt.column - 1)) > abs(start - (doubt.column - 1)) }) ?? true { best = start }
            }
            if let best {
                let span = best..<(best + word.count)
                spans.append(span)
                titles[span] = text.doubtTitle(doubt.confidence)
            }
        }
        var output = ""
        var position = 0
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            output += MarkupEscaping.escape(String(characters[position..<span.lowerBound]))
            output +=
                "<mark class=\"doubt\" title=\"\(MarkupEscaping.escape(titles[span] ?? ""))\">\(MarkupEscaping.escape(String(characters[span])))</mark>"
            position = span.upperBound
        }
        return output + MarkupEscaping.escape(String(characters[position...]))
    }

    /// The longest line whose doubtful words are marked, in characters.
    static let longestMarkedLine = 500

    /// The file input's `accept`: every image, and HEIC and AVIF by name and media type, so
    /// that Safari on an iPhone may send its photo as it is (HEIC, which the service reads)
    /// rather than convert it to JPEG first.
    static let acceptedFiles = "image/*,image/heic,image/heif,image/avif,.heic,.heif,.avif"

    /// The editor: the poem in a text area, the words to check, and (for a browser without
    /// JavaScript) the button that renders the note and its downloads from what was typed.
    private func editor(_ note: Note) -> String {
        var body = "<section class=\"card editor\" id=\"editor\" aria-labelledby=\"editor-title\">\n"
        body += "<h2 id=\"editor-title\">\(MarkupEscaping.escape(text.editorHeading))</h2>\n"
        let hint = note.doubts.isEmpty ? text.editorHint : text.editorHintDoubts
        body += "<p class=\"hint\" id=\"editor-hint\">\(MarkupEscaping.escape(hint))</p>\n"
        body += doubtList(note.doubts, in: note.text)
        body += "<form id=\"edit-form\" method=\"post\" action=\"/note\">\n"
        body += "<label class=\"field\" for=\"poem-editor\">\(MarkupEscaping.escape(text.editorLabel))</label>\n"
        let rows = min(40, max(6, note.text.split(separator: "\n", omittingEmptySubsequences: false).count + 1))
        body +=
            "<textarea id=\"poem-editor\" name=\"text\" rows=\"\(rows)\" lang=\"\(MarkupEscaping.escape(note.languageTag))\" spellcheck=\"true\" autocapitalize=\"sentences\" aria-describedby=\"editor-hint\">\(MarkupEscaping.escape(note.text))</textarea>\n"
        for doubt in note.doubts {
            body += "<input type=\"hidden\" name=\"doubt\" value=\"\(MarkupEscaping.escape(doubt.field))\">\n"
        }
        body += "<input type=\"hidden\" name=\"poemLang\" value=\"\(MarkupEscaping.escape(note.languageTag))\">\n"
        body += "<button type=\"submit\" class=\"secondary\" id=\"update\">\(MarkupEscaping.escape(text.update))</button>\n"
        body += "<p class=\"status\" id=\"edit-status\" role=\"status\" aria-live=\"polite\"></p>\n"
        return body + "</form>\n</section>\n"
    }

    /// The words to check, each a link to the editor (the script selects the word there).
    private func doubtList(_ doubts: [Doubt], in poem: String) -> String {
        guard !doubts.isEmpty else { return "<ul class=\"doubts\" id=\"doubts\" hidden></ul>\n" }
        let lines = poem.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        var list = "<ul class=\"doubts\" id=\"doubts\" aria-label=\"\(MarkupEscaping.escape(text.doubtsLabel))\">\n"
        for doubt in doubts {
            // A word no longer on its line was corrected.
            let fixed = doubt.line > lines.count || !lines[doubt.line - 1].contains(doubt.word)
            list +=
                "<li><a class=\"doubt-link\(fixed ? " fixed" : "")\" href=\"#poem-editor\" data-line=\"\(doubt.line)\" data-column=\"\(doubt.column)\" data-word=\"\(MarkupEscaping.escape(doubt.word))\">\(MarkupEscaping.escape(doubt.word)) <span class=\"doubt-line\">\(MarkupEscaping.escape(text.line(doubt.line)))</span></a></li>\n"
        }
        return list + "</ul>\n"
    }

    // MARK: - The document

    private var header: String {
        """
        <header>
        <h1>\(MarkupEscaping.escape(text.title))</h1>
        <p class="lede">\(MarkupEscaping.escape(text.lede))</p>
        </header>

        """
    }

    private var footer: String {
        "<footer>\(MarkupEscaping.escape(text.footer))</footer>\n"
    }

    /// The script's strings, as JSON in the `data-strings` attribute of `<main>` (escaped
    /// as every attribute is).
    private var scriptStrings: String {
        let pairs = text.scriptStrings.map { JSONValue.quoted($0.0) + ":" + JSONValue.quoted($0.1) }
        return "{" + pairs.joined(separator: ",") + "}"
    }

    private func document(title: String, body: String, extraStyle: String? = nil) -> String {
        return """
            <!DOCTYPE html>
            <html lang="\(language.tag)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(MarkupEscaping.escape(title))</title>
            <style nonce="\(nonce)">
            \(PageAssets.styleSheet)\(extraStyle.map { "\n" + $0 } ?? "")
            </style>
            </head>
            <body>
            <main data-strings="\(MarkupEscaping.escape(scriptStrings))">
            \(body)</main>
            <script nonce="\(nonce)">
            \(PageAssets.script)
            </script>
            </body>
            </html>

            """
    }
}
