import CProcessOverrides
import SnapPoem

/// The executable's own replacements of functions that Tesseract and Leptonica call in other
/// libraries (`Sources/CProcessOverrides/include/ProcessOverrides.h`), and the process-wide
/// settings the command makes for itself. The SnapPoem library has neither: a program that
/// imports it keeps the libraries' own functions and settings.
enum ProcessOverrides {
    /// The environment variable that switches overrides off: "all", or names separated by
    /// commas ("line-images,brick-morphology").
    static let switchVariable = "SNAP_POEM_NO_OVERRIDES"

    /// One override and what became of it.
    struct Entry: Equatable {
        /// Its name ("line-images").
        var name: String
        /// The functions it defines ("pixWriteMemPng"); empty for one that defines none.
        var functions: String
        /// What became of it.
        var state: State
    }

    /// What became of an override.
    enum State: String {
        /// Not installed yet (the command installs them first thing).
        case notInstalled = "not installed"
        /// In effect.
        case inEffect = "in effect"
        /// Switched off by `SNAP_POEM_NO_OVERRIDES`.
        case switchedOff = "switched off"
        /// The libraries' calls do not reach it, so it is off.
        case notBound = "not bound"
    }

    /// Installs the overrides (all but those `SNAP_POEM_NO_OVERRIDES` names, and any whose
    /// functions the dynamic linker does not bind to this program), and makes Leptonica and
    /// Tesseract quiet (`ProcessSettings.applyQuietDefaults()`): snap-poem reports every
    /// failure itself, naming the file. Cheap (a few `dlsym` calls); later calls do nothing.
    static func install() {
        snap_poem_overrides_install()
        ProcessSettings.applyQuietDefaults()
    }

    /// Every override, in the header's order.
    static var entries: [Entry] {
        (0..<Int32(SNAP_POEM_OVERRIDE_COUNT.rawValue)).compactMap { index in
            guard let name = snap_poem_override_name(index) else { return nil }
            let state: State =
                switch snap_poem_override_state(rawValue: UInt32(snap_poem_override_state_of(index))) {
                case SNAP_POEM_OVERRIDE_IN_EFFECT: .inEffect
                case SNAP_POEM_OVERRIDE_SWITCHED_OFF: .switchedOff
                case SNAP_POEM_OVERRIDE_NOT_BOUND: .notBound
                default: .notInstalled
                }
            return Entry(
                name: String(cString: name), functions: snap_poem_override_functions(index).map { String(cString: $0) } ?? "", state: state)
        }
    }

    /// The lines `snap-poem --version --verbose` adds: one per override.
    static var report: String {
        let rows = entries
        let width = rows.map(\.name.count).max() ?? 0
        var text = "overrides of library functions (\(switchVariable)=all switches them off):\n"
        for row in rows {
            let name = row.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let state = row.state.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)
            text += "  \(name)  \(state)  \(row.functions.isEmpty ? "(Leptonica's image allocator)" : row.functions)\n"
        }
        return text
    }
}
