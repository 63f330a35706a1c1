import Foundation

/// Finds the folder of `.traineddata` files and says which languages it has.
///
/// Lookup order: an explicit folder (`--tessdata DIR`), then `TESSDATA_PREFIX`, then the
/// package's own `tessdata/` (installed as `PREFIX/share/snap-poem/tessdata` beside the
/// executable's `PREFIX/bin`, or beside the built executable's package, or in the source tree
/// this library was compiled from), then the system's folders (Debian's first).
public struct TessdataLocation: Sendable, Equatable {
    /// The folder holding `<lang>.traineddata` files; passed to Tesseract as its data path.
    public let directory: URL

    /// Uses `directory` as it is, without checking it.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The language codes of every `.traineddata` file in the folder, sorted.
    public var availableLanguages: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".traineddata") }
            .map { String($0.dropLast(".traineddata".count)) }
            .sorted()
    }

    /// Checks that every language in `languages` has its data here.
    ///
    /// - Throws: `SnapPoemError.languageNotAvailable` for the first that is missing, listing
    ///   what is available.
    public func validate(_ languages: LanguageSet) throws(SnapPoemError) {
        let available = availableLanguages
        for code in languages.codes where !available.contains(code) {
            throw .languageNotAvailable(language: code, tessdata: directory.path, available: available)
        }
    }

    /// Resolves the tessdata folder in the documented order.
    ///
    /// - Parameters:
    ///   - explicit: a folder the user named; used if given, and an error if it holds no data.
    ///   - environment: the process environment (`TESSDATA_PREFIX` is read from it).
    /// - Throws: `SnapPoemError.tessdataNotFound` listing every place searched.
    public static func resolve(
        explicit: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(SnapPoemError) -> TessdataLocation {
        if let explicit {
            guard let found = dataFolder(at: URL(fileURLWithPath: explicit)) else {
                throw .tessdataNotFound(searched: [explicit])
            }
            return TessdataLocation(directory: found)
        }
        let candidates = candidateFolders(environment: environment)
        for candidate in candidates {
            if let found = dataFolder(at: candidate) { return TessdataLocation(directory: found) }
        }
        throw .tessdataNotFound(searched: candidates.map(\.path))
    }

    /// Every place searched after an explicit folder, in order.
    static func candidateFolders(environment: [String: String]) -> [URL] {
        var folders: [URL] = []
        if let prefix = environment["TESSDATA_PREFIX"], !prefix.isEmpty {
            folders.append(URL(fileURLWithPath: prefix))
        }
        folders.append(contentsOf: packageFolders())
        folders.append(
            contentsOf: [
                "/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
                "/usr/share/tessdata", "/usr/local/share/tessdata",
            ].map { URL(fileURLWithPath: $0) })
        return folders
    }

    /// The package's own `tessdata/`: where `make install` and the Debian package put it
    /// (`PREFIX/share/snap-poem/tessdata` for an executable in `PREFIX/bin`, so an installed
    /// or staged copy finds its own models from any working folder), then found by walking
    /// up from the executable (e.g. `.build/debug/snap-poem`), then from this source file's
    /// compile-time location.
    static func packageFolders() -> [URL] {
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            folders.append(installedFolder(forExecutableAt: executable))
            var folder = executable.deletingLastPathComponent()
            for _ in 0..<5 {
                folders.append(folder.appendingPathComponent("tessdata"))
                folder.deleteLastPathComponent()
            }
        }
        let sourceRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        folders.append(sourceRoot.appendingPathComponent("tessdata"))
        var seen = Set<String>()
        return folders.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// Where an installed executable's models are: `PREFIX/share/snap-poem/tessdata` for
    /// `PREFIX/bin/snap-poem` (e.g. `/usr/share/snap-poem/tessdata` for `/usr/bin/snap-poem`).
    static func installedFolder(forExecutableAt executable: URL) -> URL {
        executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/snap-poem/tessdata")
    }

    /// Returns the folder holding traineddata: `url` itself, or `url/tessdata` (the older
    /// meaning of `TESSDATA_PREFIX`), or nil if neither holds any.
    static func dataFolder(at url: URL) -> URL? {
        for folder in [url, url.appendingPathComponent("tessdata")] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            if names.contains(where: { $0.hasSuffix(".traineddata") }) { return folder.standardizedFileURL }
        }
        return nil
    }
}
