import CTesseract

/// Process-wide settings of the C libraries under SnapPoem that a program may choose for
/// itself. The library makes none of them on its own (see the "Importing SnapPoem" article):
/// they change what every user of Leptonica and Tesseract in the process sees.
public enum ProcessSettings {
    /// Makes Leptonica and Tesseract quiet for the whole process, as the `snap-poem` command
    /// does when it starts: Leptonica's messages are switched off (`setMsgSeverity`), and when
    /// the first engine starts (or now, if one has), Tesseract's diagnostics go to
    /// `/dev/null` (its process-wide `debug_file`) and layout analysis takes every line for
    /// proportional type (`textord_all_prop`, which only the legacy engine's fixed-pitch
    /// cutting reads; it saves a test per line). SnapPoem reports every failure it meets
    /// from return values, naming the file; without these settings the libraries also print
    /// their own lines to standard error.
    public static func applyQuietDefaults() {
        setMsgSeverity(Int32(L_SEVERITY_NONE))
        LibrarySetup.requestQuietTesseract()
    }
}
