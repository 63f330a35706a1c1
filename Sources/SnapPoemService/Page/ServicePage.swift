import Foundation
import SnapPoem

/// The HTML of the service's page: the form at `GET /` and, after a post, the love note with
/// its copy, download, e-mail and share actions. One self-contained document each time: the
/// style sheet and the script are inline and carry the response's nonce, which the
/// `Content-Security-Policy` header names; nothing else may run or load.
///
/// Everything that came from the user or the photo is escaped (`MarkupEscaping`, shared with the exporters); the script
/// only sets text and attributes.
struct ServicePage {
    /// The nonce of this response's style sheet and script.
    let nonce: String

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
    }

    /// A fresh nonce: 16 random bytes in base64.
    static func newNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
    }

    /// The page's policy: only its own nonce'd style and script, images from the chosen photo
    /// (`blob:`) and the annotated photo embedded in the note (`data:`), forms posted back
    /// here, no framing, no plugins, no base URL.
    var contentSecurityPolicy: String {
        "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; img-src blob: data:; "
            + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    }

    /// The upload form; `state` carries what was typed and the error of a failed post.
    func form(_ state: FormState = FormState()) -> String {
        var body = header
        if let error = state.error {
            body += "<p class=\"alert\" role=\"alert\">\(MarkupEscaping.escape(error))</p>\n"
        }
        body += """
            <form class="card" id="poem-form" method="post" action="/" enctype="multipart/form-data">
            <label class="photo">
            <svg class="icon" viewBox="0 0 24 24" width="44" height="44" aria-hidden="true" focusable="false"><path fill="currentColor" fill-rule="evenodd" d="M9 3 7.2 5H4a2 2 0 0 0-2 2v11a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-3.2L15 3H9zm3 5a5 5 0 1 1 0 10 5 5 0 0 1 0-10zm0 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6z"/></svg>
            <span>Take a photo of the poem, or choose one</span>
            <input type="file" name="image" accept="image/*" capture="environment" required>
            </label>
            <img id="preview" alt="The photo you chose" hidden>
            <div class="names">
            <label class="field">The name in the poem
            <input type="text" name="find" value="\(MarkupEscaping.escape(state.find))" placeholder="Lenore" autocomplete="off" autocapitalize="words" spellcheck="false" maxlength="200">
            </label>
            <label class="field">Your love\u{2019}s name
            <input type="text" name="replaceWith" value="\(MarkupEscaping.escape(state.replaceWith))" placeholder="Alex" autocomplete="off" autocapitalize="words" spellcheck="false" maxlength="200">
            </label>
            </div>
            <p class="hint">The name is found even where the photo made it hard to read. Leave both empty to just read the poem.</p>
            <label class="check"><input type="checkbox" name="showReading" value="true"\(state.showsReading ? " checked" : "")> Show the photo with what was read marked on it</label>
            <button type="submit">Make it theirs \u{2665}</button>
            <p class="status" id="status" role="status" aria-live="polite"></p>
            </form>

            """
        return document(title: "A poem for your love", body: body + footer)
    }

    /// The note: the poem laid out as a love note, the notices (names not found, no text,
    /// time limit), and the actions. With `reading`, the note's lines carry their numbers and
    /// its replaced words link to their boxes on the annotated photo, shown under the note.
    func note(text: String, notices: [String], downloads: [Download], mailto: String, reading: AnnotatedPhotoHTML? = nil) -> String {
        let stanzas = PoemStanzas(text)
        var body = header
        for notice in notices {
            body += "<p class=\"notice\" role=\"status\">\(MarkupEscaping.escape(notice))</p>\n"
        }
        if let reading {
            body += "<article class=\"card note numbered\" id=\"note\">\n"
            if let title = reading.title {
                body += "<h2 class=\"reading-numbered\">\(AnnotatedPhotoHTML.number(title.number))\(title.html)</h2>\n"
            }
        } else {
            body += "<article class=\"card note\" id=\"note\">\n"
            if let title = stanzas.title { body += "<h2>\(MarkupEscaping.escape(title))</h2>\n" }
        }
        body += "<p class=\"ornament\" aria-hidden=\"true\">\u{2766}</p>\n"
        if stanzas.stanzas.isEmpty { body += "<p class=\"empty\">(no text was found in the photo)</p>\n" }
        if let reading {
            for stanza in reading.stanzas {
                let lines = stanza.map { "<span class=\"line reading-numbered\">\(AnnotatedPhotoHTML.number($0.number))\($0.html)</span>" }
                body += "<p class=\"stanza\">\n" + lines.joined(separator: "\n") + "\n</p>\n"
            }
        } else {
            for stanza in stanzas.stanzas {
                let lines = stanza.map { "<span class=\"line\">\(MarkupEscaping.escape($0))</span>" }
                body += "<p class=\"stanza\">\n" + lines.joined(separator: "\n") + "\n</p>\n"
            }
        }
        body += "<p class=\"closing\" aria-hidden=\"true\">\u{2665}</p>\n</article>\n"
        if let reading {
            body += "<section class=\"card reading-card\" aria-label=\"What was read in the photo\">\n<h2>What was read</h2>\n"
            body += reading.figure + "</section>\n"
        }
        body += "<pre id=\"poem-text\" hidden>\(MarkupEscaping.escape(text))</pre>\n"
        body += "<nav class=\"actions\" aria-label=\"Send or keep the poem\">\n"
        body += "<button type=\"button\" id=\"copy\" hidden>Copy the text</button>\n"
        body += "<button type=\"button\" id=\"share\" class=\"secondary\" hidden>Share\u{2026}</button>\n"
        body += "<a class=\"button secondary\" id=\"mailto\" href=\"\(MarkupEscaping.escape(mailto))\">E-mail it</a>\n"
        for download in downloads {
            let url = "data:\(download.mediaType);base64,\(download.data.base64EncodedString())"
            body +=
                "<a class=\"button secondary\" download=\"\(MarkupEscaping.escape(download.fileName))\" href=\"\(url)\">\(MarkupEscaping.escape(download.label))</a>\n"
        }
        body += "<a class=\"button secondary\" href=\"/\">Another poem</a>\n"
        body += "</nav>\n<p class=\"status\" id=\"action-status\" role=\"status\" aria-live=\"polite\"></p>\n"
        return document(title: stanzas.title ?? "A poem for you", body: body + footer, extraStyle: reading?.styleSheet)
    }

    private var header: String {
        """
        <header>
        <h1>A poem for your love</h1>
        <p class="lede">Photograph a poem, put your love\u{2019}s name in it, and send it.</p>
        </header>

        """
    }

    private var footer: String {
        "<footer>Photos and names are read in memory and never stored.</footer>\n"
    }

    private func document(title: String, body: String, extraStyle: String? = nil) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
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
        <main>
        \(body)</main>
        <script nonce="\(nonce)">
        \(PageAssets.script)
        </script>
        </body>
        </html>

        """
    }

}
