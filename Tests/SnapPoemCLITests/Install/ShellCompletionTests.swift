import Foundation
import SnapPoem
import SnapPoemTestSupport
import Testing

@testable import SnapPoemCLI

/// The completion scripts, installed as `make install` lays them out under a prefix of the
/// test's own and loaded the way each shell loads them (bash-completion's loader from
/// `XDG_DATA_DIRS`, zsh's `compinit` from `$fpath`, fish's vendor folder from
/// `XDG_DATA_DIRS`), then asked to complete command lines: bash through `COMP_WORDS` and the
/// function `complete -p` names, zsh by typing into an interactive zsh on a pseudo-terminal
/// (zpty) and pressing a completion key, fish with `complete -C`. bash-completion, zsh and
/// fish are installed by `make test-system` (`make deps-shells`); each shell's test is skipped
/// without its shell.
@Suite("Shell completions complete options, values and file names in bash, zsh and fish")
struct ShellCompletionTests {
    /// A folder to complete in, with a prefix holding the three scripts.
    struct Playground {
        let folder: URL
        var tessdata: String { folder.appendingPathComponent("tessdata").path }
        var share: URL { folder.appendingPathComponent("share") }
        var environment: [String: String] {
            [
                "PATH": folder.appendingPathComponent("bin").path + ":/usr/bin:/bin",
                "HOME": folder.appendingPathComponent("home").path,
                "XDG_CONFIG_HOME": folder.appendingPathComponent("home/.config").path,
                "XDG_DATA_HOME": folder.appendingPathComponent("home/.local/share").path,
                "XDG_DATA_DIRS": share.path + ":/usr/share",
                "LANG": "C.UTF-8", "TERM": "xterm",
            ]
        }

        /// a.png, b.JPG, notes.txt, sub/, a tessdata/ with abc and def, bin/snap-poem (the
        /// built executable), and the scripts under share/ where `make install` puts them.
        static func make() throws -> Playground {
            let folder = try Fixtures.temporaryFolder()
            let files = FileManager.default
            for name in ["sub", "tessdata", "bin", "home", "work"] {
                try files.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
            }
            for name in ["a.png", "b.JPG", "notes.txt", "tessdata/abc.traineddata", "tessdata/def.traineddata"] {
                _ = files.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
            }
            try files.createSymbolicLink(
                at: folder.appendingPathComponent("bin/snap-poem"), withDestinationURL: BinaryRun.executable)
            for (shell, path) in [
                ("bash", "share/bash-completion/completions/snap-poem"), ("zsh", "share/zsh/site-functions/_snap-poem"),
                ("fish", "share/fish/vendor_completions.d/snap-poem.fish"),
            ] {
                let url = folder.appendingPathComponent(path)
                try files.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(try #require(InstalledFiles.completion(forShell: shell)).utf8).write(to: url)
            }
            return Playground(folder: folder)
        }
    }

    /// A command line and what its completion must offer.
    struct Case: CustomStringConvertible {
        let line: String
        var exactly: Set<String>?
        var containing: Set<String> = []
        var notContaining: Set<String> = []
        var description: String { line }
    }

    /// The languages `snap-poem --list-langs` names (the package's tessdata/).
    static func installedLanguages() async throws -> Set<String> {
        let run = try await BinaryRun.run(["--list-langs"])
        #expect(run.status == 0)
        return Set(run.output.split(separator: "\n").map(String.init))
    }

    /// The lines every shell is asked to complete: every option, and every option's value by
    /// what it is.
    static func cases(_ playground: Playground) async throws -> [Case] {
        let languages = try await installedLanguages()
        var cases = [
            Case(line: "snap-poem --", exactly: Set(OptionSpec.all.map { "--" + $0.long })),
            Case(line: "snap-poem serve --", exactly: Set(ServeCommand.options.map { "--" + $0.long })),
            Case(line: "snap-poem --for", exactly: ["--force", "--format"]),
            Case(line: "snap-poem ", containing: ["serve", "a.png", "b.JPG", "sub"], notContaining: ["notes.txt"]),
            Case(line: "snap-poem a.png ", containing: ["b.JPG", "sub"], notContaining: ["serve", "notes.txt"]),
            Case(line: "snap-poem --lang eng+", containing: ["fra"]),
            Case(line: "snap-poem --tessdata \(playground.tessdata) --lang ", exactly: ["abc", "def"]),
            Case(line: "snap-poem serve --tessdata \(playground.tessdata) --lang ", exactly: ["abc", "def"]),
            Case(line: "snap-poem --format=m", exactly: ["markdown"]),
            Case(line: "snap-poem --psm single-b", exactly: ["single-block", "single-block-vertical"]),
        ]
        for (specs, values, command) in [
            (OptionSpec.all, OptionValue.scan, "snap-poem "), (ServeCommand.options, OptionValue.serve, "snap-poem serve "),
        ] {
            for spec in specs where spec.takesValue {
                let line = command + "--\(spec.long) "
                switch values[spec.long] ?? .text {
                case .text: cases.append(Case(line: line, exactly: []))
                case .choices(let choices): cases.append(Case(line: line, exactly: Set(choices.map(\.word))))
                case .file(let extensions) where extensions.isEmpty:
                    cases.append(Case(line: line, containing: ["a.png", "b.JPG", "notes.txt", "sub"]))
                case .file:
                    cases.append(Case(line: line, containing: ["a.png", "sub"], notContaining: ["b.JPG", "notes.txt"]))
                case .folder: cases.append(Case(line: line, containing: ["sub", "tessdata"], notContaining: ["a.png", "notes.txt"]))
                case .languages: cases.append(Case(line: line, exactly: languages))
                }
            }
        }
        return cases
    }

    /// A shell's answers, one block per line: `== LINE`, then a match a line.
    static func parse(_ output: String) -> [String: [String]] {
        var found: [String: [String]] = [:]
        var current: String?
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("== ") {
                current = String(line.dropFirst(3))
                found[current!] = []
            } else if let current, !line.isEmpty {
                // The word alone: no description, no folder's slash, no "--option=" or "eng+".
                var word = String(line.split(separator: "\t", omittingEmptySubsequences: false).first ?? "")
                if word.hasSuffix("/") { word.removeLast() }
                if let equals = word.firstRange(of: /^--[a-z-]+=/) { word.removeSubrange(equals) }
                if current.hasSuffix("+"), let plus = word.lastIndex(of: "+") { word = String(word[word.index(after: plus)...]) }
                found[current, default: []].append(word)
            }
        }
        return found
    }

    static func check(_ cases: [Case], answers: [String: [String]], shell: String) {
        for item in cases {
            guard let offered = answers[item.line].map(Set.init) else {
                Issue.record("\(shell): no answer for '\(item.line)'")
                continue
            }
            if let exactly = item.exactly {
                #expect(
                    offered == exactly,
                    "\(shell) '\(item.line)': missing \(exactly.subtracting(offered).sorted()), extra \(offered.subtracting(exactly).sorted())"
                )
            }
            #expect(
                item.containing.isSubset(of: offered), "\(shell) '\(item.line)': missing \(item.containing.subtracting(offered).sorted())")
            #expect(
                item.notContaining.isDisjoint(with: offered),
                "\(shell) '\(item.line)': offers \(item.notContaining.intersection(offered).sorted())")
        }
    }

    @Test(
        "bash: bash-completion loads the script from XDG_DATA_DIRS; COMP_WORDS lines complete as they should",
        SystemTool.bashCompletion.required)
    func bash() async throws {
        let bash = try #require(ToolRun.find("bash"))
        let playground = try Playground.make()
        defer { try? FileManager.default.removeItem(at: playground.folder) }
        let driver = playground.folder.appendingPathComponent("work/drive.bash")
        try Data(Self.bashDriver.utf8).write(to: driver)
        let cases = try await Self.cases(playground)
        let run = try await ToolRun.run(
            bash, ["--norc", "--noprofile", driver.path] + cases.map(\.line), in: playground.folder,
            environment: playground.environment)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.hasPrefix("complete -F _snap_poem snap-poem\n"), "\(run.output.prefix(200))")
        Self.check(cases, answers: Self.parse(run.output), shell: "bash")
    }

    /// Loads the script as bash-completion does for a command it has not seen
    /// (`__load_completion`), then completes each argument as a command line.
    static let bashDriver = #"""
        source /usr/share/bash-completion/bash_completion
        __load_completion snap-poem || { echo "bash-completion found no script for snap-poem" >&2; exit 1; }
        complete -p snap-poem
        function=$(complete -p snap-poem | sed -E 's/.* -F ([^ ]+) .*/\1/')
        for line in "$@"; do
            COMP_LINE=$line
            COMP_POINT=${#line}
            # Words as readline splits them: at blanks, and around '=' (COMP_WORDBREAKS).
            read -ra COMP_WORDS <<<"${line//=/ = }"
            [[ $line == *' ' ]] && COMP_WORDS+=('')
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMPREPLY=()
            "$function" snap-poem "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '== %s\n' "$line"
            ((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}"
        done
        exit 0
        """#

    @Test(
        "zsh: compinit finds _snap-poem in $fpath; lines typed into an interactive zsh complete as they should",
        SystemTool.zsh.required)
    func zsh() async throws {
        let zsh = try #require(SystemTool.zsh.path)
        let playground = try Playground.make()
        defer { try? FileManager.default.removeItem(at: playground.folder) }
        let work = playground.folder.appendingPathComponent("work")
        try Data(Self.zshSetup.utf8).write(to: work.appendingPathComponent("setup.zsh"))
        try Data(Self.zshDriver.utf8).write(to: work.appendingPathComponent("drive.zsh"))
        var environment = playground.environment
        environment["SNAP_WORK"] = work.path
        environment["SNAP_FPATH"] = playground.share.appendingPathComponent("zsh/site-functions").path
        let cases = try await Self.cases(playground)
        let run = try await ToolRun.run(
            zsh, ["-f", work.appendingPathComponent("drive.zsh").path] + cases.map(\.line), in: playground.folder,
            environment: environment, timeLimit: 300)
        #expect(run.status == 0, "\(run.error)\n\(run.output.suffix(500))")
        #expect(run.output.hasPrefix("comps: _snap-poem\n"), "\(run.output.prefix(200))")
        Self.check(cases, answers: Self.parse(run.output), shell: "zsh")
    }

    /// Sourced by the interactive zsh: compinit over `$fpath`, a `compadd` that also records
    /// what it adds, and a completion widget on Ctrl-T that writes the matches to a file
    /// instead of inserting or listing them.
    static let zshSetup = #"""
        PS1='> '
        PROMPT_EOL_MARK=''
        unsetopt zle_bracketed_paste
        bindkey -e
        fpath=($SNAP_FPATH $fpath)
        autoload -Uz compinit && compinit -u -d $SNAP_WORK/zcompdump
        print -r -- "comps: $_comps[snap-poem]" > $SNAP_WORK/comps
        typeset -ga snap_matches
        compadd() {
          # Calls that only ask (-O, -A, -D) add nothing: pass them through.
          if (( ${@[(I)-[OAD]]} )); then builtin compadd "$@"; return; fi
          local -a hits
          builtin compadd -O hits "$@"
          snap_matches+=("${hits[@]}")
          builtin compadd "$@"
        }
        snap_complete() {
          snap_matches=()
          _main_complete
          compstate[list]=''
          compstate[insert]=''
          print -rl -- "${snap_matches[@]}" > $SNAP_WORK/matches.part
          command mv $SNAP_WORK/matches.part $SNAP_WORK/matches
        }
        zle -C snap-complete complete-word snap_complete
        bindkey '^T' snap-complete
        print -r -- '<<READY>>'
        """#

    /// Types each argument into an interactive zsh on a pseudo-terminal, presses Ctrl-T, waits
    /// for the matches file, prints it, and clears the line (Ctrl-U).
    static let zshDriver = #"""
        zmodload zsh/zpty || exit 1
        zpty -b snap zsh -f -i
        zpty -w snap "source ${(q)SNAP_WORK}/setup.zsh"
        zpty -r -m snap junk '*<<READY>>*' || { print -u2 "zsh did not start"; exit 1; }
        print -r -- "$(<$SNAP_WORK/comps)"
        for line in "$@"; do
          rm -f $SNAP_WORK/matches
          zpty -w -n snap "$line"$'\x14'
          integer tries=0
          until [[ -f $SNAP_WORK/matches ]]; do
            zpty -r -t snap junk
            (( ++tries > 1200 )) && { print -u2 "no completion for '$line'"; zpty -d snap; exit 1; }
            sleep 0.05
          done
          print -r -- "== $line"
          print -r -- "$(<$SNAP_WORK/matches)"
          zpty -w -n snap $'\x15'
        done
        zpty -d snap
        exit 0
        """#

    @Test(
        "fish: the script loads from the vendor folder of XDG_DATA_DIRS; complete -C lines complete as they should",
        SystemTool.fish.required)
    func fish() async throws {
        let fish = try #require(SystemTool.fish.path)
        let playground = try Playground.make()
        defer { try? FileManager.default.removeItem(at: playground.folder) }
        let driver = playground.folder.appendingPathComponent("work/drive.fish")
        try Data(Self.fishDriver.utf8).write(to: driver)
        let cases = try await Self.cases(playground)
        let run = try await ToolRun.run(
            fish, [driver.path] + cases.map(\.line), in: playground.folder, environment: playground.environment)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.hasPrefix("loaded: yes\n"), "\(run.output.prefix(200))")
        Self.check(cases, answers: Self.parse(run.output), shell: "fish")
    }

    /// Completes each argument with `complete -C`; the script is never sourced by hand.
    static let fishDriver = #"""
        set -l loading (complete -C'snap-poem --')
        if functions -q __snap_poem_values; echo 'loaded: yes'; else; echo 'loaded: no'; end
        for line in $argv
            echo "== $line"
            complete -C"$line"
        end
        """#
}
