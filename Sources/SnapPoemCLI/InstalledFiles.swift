/// The files installed beside the `snap-poem` executable that are generated from its option
/// table: the manual page and the shell completions. `snap-poem-generate` writes them for
/// `make install` and `make deb`; they are made from the same tables as the parser and
/// `--help`, so they cannot drift from them.
public enum InstalledFiles {
    /// The manual page `snap-poem(1)`, in roff.
    ///
    /// - Parameters:
    ///   - date: the date in the page's footer, `YYYY-MM-DD` (the source's date, so the
    ///     same source gives the same page).
    ///   - tessdataFolder: where the models are installed, e.g. `/usr/share/snap-poem/tessdata`;
    ///     nil writes it as `PREFIX/share/snap-poem/tessdata`.
    ///   - serviceUnit: where the systemd unit of `snap-poem serve` is installed, if it is.
    public static func manualPage(date: String, tessdataFolder: String? = nil, serviceUnit: String? = nil) -> String {
        ManualPage(date: date, tessdataFolder: tessdataFolder, serviceUnit: serviceUnit).render()
    }

    /// The completion script for `shell` (`bash`, `zsh` or `fish`), or nil for another name.
    public static func completion(forShell shell: String) -> String? {
        ShellCompletion.Shell(rawValue: shell).map(ShellCompletion.script(for:))
    }

    /// The names of the shells `completion(forShell:)` knows.
    public static var shells: [String] { ShellCompletion.Shell.allCases.map(\.rawValue) }
}
