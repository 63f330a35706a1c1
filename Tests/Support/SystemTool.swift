import Foundation
import Testing

/// A program from a Debian package that `make test` does not install, because installing it
/// changes the machine beyond the build's own packages (a browser, shells, an init system's
/// tools): `make test-system` installs it and runs the tests that need it. Without it, a test
/// that needs it skips itself and says so (`.enabled(if: tool.isInstalled, tool.missing)`),
/// rather than failing, or passing unseen.
public struct SystemTool: Sendable {
    /// What the tests call it.
    public let name: String
    /// The Debian packages that bring it.
    public let packages: [String]
    /// Where it is installed, or nil.
    public let path: String?

    /// The tool at the first of `paths` that exists as an executable file (or, for a script
    /// that is sourced rather than run, `sourced`, a readable one), provided every one of
    /// `alsoNeeded` is an executable file too.
    public init(_ name: String, packages: [String], paths: [String], sourced: Bool = false, alsoNeeded: [String] = []) {
        self.name = name
        self.packages = packages
        let files = FileManager.default
        let usable = { (path: String) in sourced ? files.isReadableFile(atPath: path) : files.isExecutableFile(atPath: path) }
        let others = alsoNeeded.allSatisfy { files.isExecutableFile(atPath: $0) }
        self.path = others ? paths.first(where: usable) : nil
    }

    /// Whether it is installed.
    public var isInstalled: Bool { path != nil }

    /// Why a test that needs it skips itself: what is missing and which target runs the test.
    public var missing: String {
        "\(name) is not installed (Debian's \(packages.joined(separator: ", "))); make test does not install it: make test-system does, and runs this test"
    }

    /// Debian's Chromium with its WebDriver: the page and the HTML exports in a real browser.
    public static let chromium = SystemTool(
        "Chromium", packages: ["chromium", "chromium-driver"], paths: ["/usr/bin/chromium"], alsoNeeded: ["/usr/bin/chromedriver"])

    /// bash-completion's loader, through which bash loads the completion.
    public static let bashCompletion = SystemTool(
        "bash-completion", packages: ["bash-completion"], paths: ["/usr/share/bash-completion/bash_completion"], sourced: true)

    /// The Z shell.
    public static let zsh = SystemTool("zsh", packages: ["zsh"], paths: ["/usr/bin/zsh", "/bin/zsh"])

    /// The friendly interactive shell.
    public static let fish = SystemTool("fish", packages: ["fish"], paths: ["/usr/bin/fish"])

    /// `systemd-analyze`, which checks the systemd unit: part of Debian's systemd, the init
    /// system itself, which containers lack.
    public static let systemdAnalyze = SystemTool("systemd-analyze", packages: ["systemd"], paths: ["/usr/bin/systemd-analyze"])
}

extension SystemTool {
    /// Whether this run leaves the tests that need such tools to `make test-system`, whatever
    /// is installed: `make test` and `make check` say so (`SNAP_POEM_TESTS_SYSTEM_TOOLS=no`), so
    /// that they run the same tests on every machine.
    public static var leftToSystemTier: Bool { ProcessInfo.processInfo.environment["SNAP_POEM_TESTS_SYSTEM_TOOLS"] == "no" }

    /// The trait of a test or suite that needs this tool: skipped without it, `missing` said,
    /// and skipped where it is left to make test-system.
    public var required: ConditionTrait {
        if Self.leftToSystemTier {
            return .enabled(if: false, Comment(rawValue: "it needs \(name): make test leaves it to make test-system, which runs it"))
        }
        return .enabled(if: isInstalled, Comment(rawValue: missing))
    }
}
