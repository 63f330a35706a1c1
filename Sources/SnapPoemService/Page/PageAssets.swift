/// The style sheet and the script of the service's page, inline in every page (no fonts,
/// scripts or images are fetched) and allowed by the page's per-response nonce.
///
/// Their text lives in `Page/Assets/page.css` and `Page/Assets/page.js`, real files that
/// editors, `node --check` and the tests' lint (`PageAssetLintTests`) read as what they are.
/// SwiftPM compiles them into the module (`resources: [.embedInCode(…)]` in Package.swift,
/// which generates `PackageResources.page_css` and `.page_js` as byte arrays): nothing is
/// looked up at run time, so the executable installed alone (`/usr/bin/snap-poem`, no
/// resource bundle beside it) serves the same page.
enum PageAssets {
    /// The page's styling: a love note on warm paper, readable at 320 px and on a desktop.
    static let styleSheet = text(of: PackageResources.page_css)

    /// Progressive enhancement; the page works without it. On the form: a preview of the
    /// chosen photo, the kept photo put back into the file input, the names and the file
    /// checked before anything is sent, and a "reading" state while the form posts. On the
    /// note: what is typed in the editor is what Share (`navigator.share`, with the love note
    /// as a file where `navigator.canShare` allows), Copy, E-mail and the downloads send; the
    /// note and the downloads are rendered again by the server (`POST /note`, the same post
    /// as without JavaScript) a moment after typing stops, and a download or the e-mail link
    /// taken before that waits for it. Never writes markup: only text content, attributes,
    /// and nodes moved in from the server's own answer.
    static let script = text(of: PackageResources.page_js)

    /// A file's bytes as the text put in the page: UTF-8, without the file's final line
    /// break (the page puts its own after it). The tests' lint checks that the files are
    /// UTF-8 and end in one line break, so nothing is lost here.
    static func text(of bytes: [UInt8]) -> String {
        let body = bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...]
        return String(decoding: body, as: UTF8.self)
    }
}
