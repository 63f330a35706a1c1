import Foundation

/// Everything that can go wrong while reading a poem from a photo, with enough context to
/// say which file, which stage and what to do about it.
///
/// Programming mistakes trap; only the environment (missing language data) and the user's
/// input (a missing or corrupt file, a bad option) produce these errors. `description` is a
/// single line meant for a person: `"Lenore.png: not an image (the data is plain text)"`;
/// file names in it are escaped (`OneLine.escaping`) so that a name holding a line break
/// cannot split it. It is also the error's `localizedDescription` (`LocalizedError`).
public enum SnapPoemError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The input file does not exist.
    case fileNotFound(path: String)
    /// The input exists but could not be read (permissions, a directory, an I/O error).
    case unreadableFile(path: String, reason: String)
    /// The input holds no bytes at all.
    case emptyFile(path: String)
    /// The bytes are not in any image format this build can decode.
    case unsupportedImageFormat(path: String, detail: String)
    /// The image format was recognised but the data could not be decoded.
    case corruptImage(path: String, format: String)
    /// The image is larger than the pixel budget; nothing was decoded.
    case imageTooLarge(path: String, width: Int, height: Int, limit: String)
    /// A multi-page file holds more pages than `ImageLimits.maxPages`; nothing was decoded.
    /// `pages` is the count as shown ("10000", or "100000 or more" where counting stopped).
    case tooManyPages(path: String, pages: String, limit: Int)
    /// The pages of a multi-page file hold more pixels together than
    /// `ImageLimits.maxDocumentPixels`, from the sizes they declare; nothing was decoded.
    /// `pixels` and `limit` as shown ("1200 megapixels").
    case pagesTooLarge(path: String, pages: Int, pixels: String, limit: String)
    /// A language specification such as `"eng+"` is malformed.
    case invalidLanguage(specification: String, reason: String)
    /// A requested language has no `.traineddata` in the tessdata folder.
    case languageNotAvailable(language: String, tessdata: String, available: [String])
    /// No tessdata folder was found anywhere snap-poem looks.
    case tessdataNotFound(searched: [String])
    /// Tesseract refused to start for a reason not covered above.
    case engineInitializationFailed(reason: String)
    /// A Tesseract variable name or value was refused.
    case invalidEngineVariable(name: String, reason: String)
    /// An option value is out of range or inconsistent; `option` names the property or
    /// parameter (`dotsPerInch`, `to`), or the `Setting` by its raw value (`shard`), never a
    /// front end's spelling of it: `setting` gives the latter as a value.
    case invalidOption(option: String, reason: String)
    /// Recognition itself failed.
    case recognitionFailed(path: String, reason: String)
    /// The caller's task was cancelled before the work finished.
    case cancelled(path: String)
    /// A `--replacements` file could not be parsed; `line` is 1-based.
    case invalidReplacementsFile(path: String, line: Int, reason: String)
    /// The output could not be written; nothing partial was left behind.
    case outputNotWritten(path: String, reason: String)
    /// The poem from `path` cannot be exported as `format` (e.g. the scan did not record the
    /// Tesseract rendering the format wraps).
    case exportFailed(path: String, format: String, reason: String)
    /// A folder named as an input holds no image (by extension) at all.
    case noImagesInFolder(path: String)
    /// A folder named as an input cannot be read: it cannot be listed (`reason` says why),
    /// or listing it passes the entries a run's folders may hold
    /// (`InputCollection.maximumEntries`). None of its images is read.
    case unreadableFolder(path: String, reason: String)
    /// The batch worker reading `path` died or was stopped: `reason` says how (`worker
    /// crashed: signal 4 (SIGILL)`, `over the per-image limit of 120 s`). Only that image is
    /// lost; the batch goes on with a fresh worker.
    case workerFailed(path: String, reason: String)
    /// The input is not a regular file (a FIFO, a device, a socket), so it is not read:
    /// reading one could block forever or never end. `kind` says what it is.
    case notARegularFile(path: String, kind: String)
    /// The input holds more bytes than snap-poem reads (`ImageLimits.maxFileBytes`); nothing
    /// was decoded. `bytes` is the size when known (standard input stops at the limit).
    case fileTooLarge(path: String, bytes: Int?, limit: Int)
    /// Memory ran out while working on `path` (Leptonica returned nothing, or Tesseract threw
    /// `std::bad_alloc`); `stage` says during what. Nothing was half-done.
    case outOfMemory(path: String, stage: String)
    /// The prepared page holds more separate marks than `RecognitionOptions.markLimit`
    /// allows, so it was not handed to Tesseract: its layout analysis cannot be interrupted,
    /// and on a page of scattered specks it grows far faster than their number (see
    /// `RecognitionOptions.defaultMarkLimit`). Nothing was recognised.
    case tooManyMarks(path: String, marks: Int, limit: Int)
    /// `RecognitionOptions.regionOfInterest`, as given (`x`, `y`, `width`, `height`), lies
    /// wholly outside the decoded `imageWidth`×`imageHeight` image at `path`: nothing of it
    /// can be read. One image's failure (the same region may fit a batch's other images),
    /// found before the image is prepared.
    case regionOutsideImage(path: String, x: Int, y: Int, width: Int, height: Int, imageWidth: Int, imageHeight: Int)

    /// A one-line, human-readable explanation naming the file (or option) and the problem.
    /// Control characters from file names or option values (a line break in a name) are
    /// escaped, so the message is always exactly one line.
    public var description: String {
        OneLine.escaping(message)
    }

    /// The message before escaping.
    private var message: String {
        switch self {
        case .fileNotFound(let path):
            return "\(path): no such file"
        case .unreadableFile(let path, let reason):
            return "\(path): cannot read the file (\(reason))"
        case .emptyFile(let path):
            return "\(path): the file is empty (0 bytes), not an image"
        case .unsupportedImageFormat(let path, let detail):
            return "\(path): not an image snap-poem can read (\(detail))"
        case .corruptImage(let path, let format):
            return "\(path): the \(format) data is damaged or truncated and could not be decoded"
        case .imageTooLarge(let path, let width, let height, let limit):
            return "\(path): image is \(width)×\(height) pixels, over the limit of \(limit); scale it down first"
        case .tooManyPages(let path, let pages, let limit):
            return
                "\(path): the file holds \(pages) pages, over the limit of \(limit) pages a file; nothing was read: split it (tiffsplit) and read the parts as a batch"
        case .pagesTooLarge(let path, let pages, let pixels, let limit):
            return
                "\(path): the file's \(pages) pages hold \(pixels) together, over the limit of \(limit) a file; nothing was read: split it (tiffsplit) and read the parts as a batch"
        case .invalidLanguage(let specification, let reason):
            return "language '\(specification)': \(reason)"
        case .languageNotAvailable(let language, let tessdata, let available):
            let list = available.isEmpty ? "none" : available.joined(separator: ", ")
            return "language '\(language)' not found in tessdata at \(tessdata); available: \(list)"
        case .tessdataNotFound(let searched):
            return "no tessdata folder found; looked in: \(searched.joined(separator: ", ")); name one, or set TESSDATA_PREFIX"
        case .engineInitializationFailed(let reason):
            return "Tesseract could not start: \(reason)"
        case .invalidEngineVariable(let name, let reason):
            return "Tesseract variable '\(name)': \(reason)"
        case .invalidOption(let option, let reason):
            return "\(option): \(reason)"
        case .recognitionFailed(let path, let reason):
            return "\(path): recognition failed (\(reason))"
        case .cancelled(let path):
            return "\(path): cancelled"
        case .invalidReplacementsFile(let path, let line, let reason):
            return "\(path):\(line): \(reason)"
        case .outputNotWritten(let path, let reason):
            return "\(path): output not written (\(reason)); nothing was left behind"
        case .exportFailed(let path, let format, let reason):
            return "\(path): cannot export as \(format) (\(reason))"
        case .unreadableFolder(let path, let reason):
            return "\(path): cannot read the folder (\(reason))"
        case .noImagesInFolder(let path):
            return "\(path): no images in this folder (looked for .png, .jpg, .tif, .webp, .bmp, .gif, .pnm, .jp2, .heic, .avif files)"
        case .workerFailed(let path, let reason):
            return "\(path): \(reason)"
        case .notARegularFile(let path, let kind):
            return "\(path): not a regular file (\(kind)); snap-poem reads images from regular files, or from standard input as '-'"
        case .fileTooLarge(let path, let bytes, let limit):
            let size = bytes.map { "is \(ByteCount.describe($0))" } ?? "holds more"
            return "\(path): the input \(size), over the limit of \(ByteCount.describe(limit)); nothing was decoded"
        case .outOfMemory(let path, let stage):
            return "\(path): out of memory while \(stage); free memory, raise the process's memory limit, or scale the image down"
        case .regionOutsideImage(let path, let x, let y, let width, let height, let imageWidth, let imageHeight):
            return
                "\(path): the region \(x),\(y),\(width),\(height) lies outside the \(imageWidth)×\(imageHeight) image; nothing was read"
        case .tooManyMarks(let path, let marks, let limit):
            return
                "\(path): the page has \(marks) separate marks, over the limit of \(limit); Tesseract's layout analysis of so many cannot be stopped, so nothing was read: crop the photo to the text, or raise the limit"
        }
    }

    /// The same as `description`, for `LocalizedError` (and so `localizedDescription`).
    public var errorDescription: String? { description }
}

extension SnapPoemError {
    /// The setting this error is about, for a front end to name its own way (the command
    /// line's flag): `.tessdata` when no tessdata folder was found, `.overwrite` for an
    /// output not written because a file was in the way, the `Setting` an `invalidOption`
    /// names; nil for the others.
    public var setting: Setting? {
        switch self {
        case .tessdataNotFound: .tessdata
        case .outputNotWritten(_, let reason) where reason == Self.fileInTheWayReason: .overwrite
        case .invalidOption(let option, _): Setting(rawValue: option)
        default: nil
        }
    }

    /// The reason of an `outputNotWritten` whose file was in the way, and replacing it not
    /// asked for (`Setting.overwrite`).
    static let fileInTheWayReason = "the file exists, and replacing it was not asked for"

    /// The name an image step uses in `outOfMemory` when it does not know the file; the
    /// pipeline replaces it with the file's name (`naming(_:)`).
    public static let unnamedImage = "image"

    /// This error with `path` in place of `unnamedImage`, for errors raised by image steps
    /// that were not told the file's name. Other errors are returned unchanged.
    public func naming(_ path: String) -> SnapPoemError {
        if case .outOfMemory(Self.unnamedImage, let stage) = self { return .outOfMemory(path: path, stage: stage) }
        return self
    }
}
