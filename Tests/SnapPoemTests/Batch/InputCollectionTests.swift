import Foundation
import SnapPoem
import Testing

@Suite("Collecting a batch's inputs from folders: links, loops, bytes, special files")
struct InputCollectionTests {
    @Test("Links to files and folders are followed, a loop is noted once, a folder reached twice is read once")
    func links() throws {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        try manager.createDirectory(at: root.appendingPathComponent("poems/sub"), withIntermediateDirectories: true)
        _ = manager.createFile(atPath: root.appendingPathComponent("poems/sub/a.png").path, contents: Data([1]))
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("poems/b.png").path, withDestinationPath: "sub/a.png")
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("poems/again").path, withDestinationPath: "sub")
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("poems/sub/up").path, withDestinationPath: "..")
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("poems/self").path, withDestinationPath: "self")
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("poems/gone.jpg").path, withDestinationPath: "nowhere.jpg")
        // A dangling link without an image's name (a folder on a drive not mounted): noted.
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("poems/scans").path, withDestinationPath: "unmounted/scans")
        // A loop of links named like images: inputs that fail, counted, never just a note.
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("poems/loop-a.png").path, withDestinationPath: "loop-b.png")
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("poems/loop-b.png").path, withDestinationPath: "loop-a.png")
        let folder = root.appendingPathComponent("poems").path
        let collection = InputCollection.collect([folder])
        #expect(collection.hasFolderArgument)
        #expect(collection.problems.isEmpty)
        #expect(collection.inputs.map(\.relativePath) == ["again/a.png", "b.png", "gone.jpg", "loop-a.png", "loop-b.png"])
        #expect(throws: SnapPoemError.unreadableFile(path: "\(folder)/loop-a.png", reason: "a loop of symbolic links")) {
            try collection.inputs[3].readContents()
        }
        #expect(
            collection.notes.map(\.message) == [
                "\(folder)/again/up: symbolic link to a folder above it (a loop), not followed",
                "\(folder)/scans: skipped, it leads to nothing that can be examined (no such file or directory)",
                "\(folder)/self: symbolic link loop, not followed",
                "\(folder)/sub: the same folder as \(folder)/again, read once",
            ])
        #expect(throws: SnapPoemError.unreadableFile(path: "\(folder)/gone.jpg", reason: "a symbolic link to a file that does not exist")) {
            try collection.inputs[2].readContents()
        }
        #expect(try collection.inputs[1].readContents() == Data([1]))
    }

    @Test(
        "Links that lead out of the folder are skipped with a warning, unless asked for; a link swapped in after listing is refused at reading"
    )
    func linksOutsideTheFolder() throws {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        for folder in ["shared/sub", "private/album"] {
            try manager.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in ["shared/sub/a.png", "private/secret.png", "private/album/b.png"] {
            _ = manager.createFile(atPath: root.appendingPathComponent(file).path, contents: Data(file.utf8))
        }
        // Someone's folder, with links to the reader's own photos beside it, to /, and links
        // that stay inside (relative and absolute) or climb out and back in.
        let shared = root.appendingPathComponent("shared").path
        let links: [(String, String)] = [
            ("mine.png", "../private/secret.png"), ("album", root.appendingPathComponent("private/album").path), ("everything", "/"),
            ("inside.png", "sub/a.png"), ("absolute", shared + "/sub"), ("round.png", "../shared/sub/a.png"),
        ]
        for (name, target) in links {
            try manager.createSymbolicLink(atPath: shared + "/" + name, withDestinationPath: target)
        }
        let canonicalRoot = try #require(manager.destinationOfSymbolicLinkIfAny(root.path))
        let collection = InputCollection.collect([shared])
        #expect(collection.problems.isEmpty)
        #expect(collection.inputs.map(\.relativePath) == ["absolute/a.png", "inside.png", "round.png"])
        #expect(
            collection.notes.map(\.message) == [
                "\(shared)/album: symbolic link not followed: it leads out of \(shared), to \(canonicalRoot)/private/album",
                "\(shared)/everything: symbolic link not followed: it leads out of \(shared), to /",
                "\(shared)/mine.png: symbolic link not followed: it leads out of \(shared), to \(canonicalRoot)/private/secret.png",
                "\(shared)/sub: the same folder as \(shared)/absolute, read once",
            ])
        #expect(collection.notes.map(\.setting) == [.followLinks, .followLinks, .followLinks, nil])
        #expect(collection.inputs.allSatisfy { $0.enclosingFolder == Array((canonicalRoot + "/shared").utf8) })
        #expect(try collection.inputs[1].readContents() == Data("shared/sub/a.png".utf8))

        // Followed when asked (without the link to /, which would then be walked up to the
        // entry budget).
        try manager.removeItem(atPath: shared + "/everything")
        let followed = InputCollection.collect([shared], followsLinksOutside: true)
        #expect(followed.inputs.map(\.relativePath).contains("mine.png"))
        #expect(followed.inputs.map(\.relativePath).contains("album/b.png"))
        #expect(followed.inputs.allSatisfy { $0.enclosingFolder == nil })

        // A link that pointed inside when the folder was listed and outside when it is read.
        let swapped = try #require(collection.inputs.first { $0.relativePath == "inside.png" })
        try manager.removeItem(atPath: shared + "/inside.png")
        try manager.createSymbolicLink(atPath: shared + "/inside.png", withDestinationPath: "../private/secret.png")
        #expect(
            throws: SnapPoemError.unreadableFile(
                path: shared + "/inside.png",
                reason:
                    "it leads out of the folder it was found in, \(canonicalRoot)/shared, to \(canonicalRoot)/private/secret.png: a link changed after the folder was listed, and links out of a folder are followed only when that is asked for"
            )
        ) { try swapped.readContents() }
        // A file named directly is read wherever it is.
        #expect(try InputCollection.collect([shared + "/inside.png"]).inputs[0].readContents() == Data("private/secret.png".utf8))
    }

    @Test("A folder renamed after it was listed: its images are refused with a message that says so, not as links leading out")
    func folderRenamedAfterListing() throws {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        let canonicalRoot = try #require(manager.destinationOfSymbolicLinkIfAny(root.path))
        try manager.createDirectory(atPath: root.path + "/poems", withIntermediateDirectories: false)
        try Data("a.png".utf8).write(to: root.appendingPathComponent("poems/a.png"))
        let listed = try #require(InputCollection.collect([root.path + "/poems"]).inputs.first)
        try manager.moveItem(atPath: root.path + "/poems", toPath: root.path + "/renamed")
        // What a worker whose working folder is inside the folder meets: the file opens, under
        // the folder's new name.
        var reopened = listed
        reopened.fileSystemPath = Array((root.path + "/renamed/a.png").utf8)
        #expect(
            throws: SnapPoemError.unreadableFile(
                path: listed.path,
                reason:
                    "the folder it was found in, \(canonicalRoot)/poems, was moved or renamed after it was listed; run the batch again where the folder is now"
            )
        ) { try reopened.readContents() }
        // With a folder of that name back in its place, the file lies outside it: that is a
        // link leading out, and says so.
        try manager.createDirectory(atPath: root.path + "/poems", withIntermediateDirectories: false)
        let error = #expect(throws: SnapPoemError.self) { try reopened.readContents() }
        #expect(
            error?.description.contains(
                "it leads out of the folder it was found in, \(canonicalRoot)/poems, to \(canonicalRoot)/renamed/a.png") == true)
    }

    @Test("A name that is not UTF-8 is collected and read by its bytes, shown with \\x escapes")
    func bytes() throws {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let name = Array("caf".utf8) + [0xE9] + Array(".png".utf8)
        let path = Array(root.path.utf8) + [UInt8(ascii: "/")] + name
        let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        try #require(descriptor >= 0)
        _ = write(descriptor, "xyz", 3)
        close(descriptor)
        let collection = InputCollection.collect([root.path])
        #expect(collection.inputs.count == 1)
        let input = try #require(collection.inputs.first)
        #expect(input.relativePath == "caf\\xE9.png")
        #expect(input.path == root.path + "/caf\\xE9.png")
        #expect(input.fileSystemPath == path)
        #expect(try input.readContents() == Data("xyz".utf8))
        #expect(BatchInput.displayName(of: Array("é".utf8) + [0xC3]) == "é\\xC3")

        // The same file given as an argument, by its shown name and its bytes.
        let shown = root.path + "/caf\\xE9.png"
        let argument = try #require(InputCollection.collect([shown], fileSystemPaths: [shown: path]).inputs.first)
        #expect(argument.path == shown && argument.relativePath == shown && argument.fileSystemPath == path)
        #expect(try argument.readContents() == Data("xyz".utf8))

        // A name that spells the escape out, beside it, reads differently: outputs and
        // manifest entries are named after these names, and must not be shared.
        try Data("typed".utf8).write(to: root.appendingPathComponent("caf\\xE9.png"))
        let both = InputCollection.collect([root.path]).inputs
        #expect(both.map(\.relativePath).sorted() == ["caf\\x5CxE9.png", "caf\\xE9.png"])
        #expect(try both.first { $0.relativePath == "caf\\x5CxE9.png" }?.readContents() == Data("typed".utf8))
        #expect(OutputLayout(fileExtension: "txt").firstClash(in: both) == nil)
        #expect(BatchInput.displayName(of: Array("a\\b\\".utf8)) == "a\\b\\", "a backslash no x follows is itself")
    }

    @Test("One file named twice, or once through a link of the same name, is a repeat with its output; two files are not")
    func repeatedFile() throws {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let photo = root.appendingPathComponent("a.png").path, other = root.appendingPathComponent("b.png").path
        let link = root.appendingPathComponent("link.png").path
        #expect(FileManager.default.createFile(atPath: photo, contents: Data("a".utf8)))
        #expect(FileManager.default.createFile(atPath: other, contents: Data("b".utf8)))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: photo)
        let layout = OutputLayout(fileExtension: "txt")
        #expect(layout.firstRepeat(in: [BatchInput(path: photo), BatchInput(path: other)]) == nil)
        let twice = try #require(layout.firstRepeat(in: [BatchInput(path: photo), BatchInput(path: other), BatchInput(path: photo)]))
        #expect(twice.first.path == photo && twice.second.path == photo && twice.output == "a.txt")
        // A link and its target land on the same output only when their names do.
        let linked = [BatchInput(path: photo, relativePath: "a.png"), BatchInput(path: link, relativePath: "a.png")]
        #expect(layout.firstRepeat(in: linked)?.second.path == link)
        #expect(layout.firstRepeat(in: [BatchInput(path: photo), BatchInput(path: link)]) == nil, "outputs a.txt and link.txt")
    }

    @Test("A folder without images is a problem naming it; a FIFO named like an image is refused without blocking")
    func emptyFolderAndFIFO() throws {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let empty = root.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: empty.appendingPathComponent("notes.txt").path, contents: Data())
        let fifo = root.appendingPathComponent("pipe.png").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let collection = InputCollection.collect([empty.path, fifo])
        #expect(collection.problems == [.noImagesInFolder(path: empty.path)])
        #expect(collection.inputs.map(\.path) == [fifo])
        #expect(throws: SnapPoemError.notARegularFile(path: fifo, kind: "a FIFO (named pipe)")) {
            try collection.inputs[0].readContents()
        }
    }

    @Test("Entries too deep to examine are never dropped in silence: an image becomes an input that fails, a folder a note")
    func pathsTooLongToExamine() throws {
        let root = try Fixtures.temporaryFolder()
        defer { Self.removeDeep(root) }
        // Folders of 250 bytes, then one that brings the path to 4,000 bytes: listable, but
        // a name of 150 bytes in it makes a path over PATH_MAX (4,096), which lstat refuses.
        var descriptor = open(root.path, O_RDONLY | O_DIRECTORY)
        var length = root.path.utf8.count
        var parts: [String] = []
        while length < 4000 {
            let part = String(repeating: "d", count: min(250, 4000 - length - 1))
            #expect(mkdirat(descriptor, part, 0o755) == 0)
            let next = openat(descriptor, part, O_RDONLY | O_DIRECTORY)
            close(descriptor)
            descriptor = next
            parts.append(part)
            length += 1 + part.utf8.count
        }
        let image = String(repeating: "i", count: 146) + ".png"
        let folder = String(repeating: "f", count: 150)
        let created = openat(descriptor, image, O_CREAT | O_WRONLY, 0o644)
        #expect(created >= 0)
        close(created)
        #expect(mkdirat(descriptor, folder, 0o755) == 0)
        close(descriptor)

        let collection = InputCollection.collect([root.path])
        let deep = parts.joined(separator: "/")
        #expect(collection.problems.isEmpty)
        #expect(collection.inputs.map(\.relativePath) == ["\(deep)/\(image)"])
        #expect(collection.notes.map(\.message) == ["\(root.path)/\(deep)/\(folder): skipped, it cannot be examined (file name too long)"])
        #expect(throws: SnapPoemError.self) { try collection.inputs[0].readContents() }
    }

    @Test("A run's folders hold a bounded number of entries: past it, the folder is a problem and none of its images is read")
    func entriesBounded() throws {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let small = root.appendingPathComponent("small"), large = root.appendingPathComponent("large")
        for (folder, count) in [(small, 3), (large, 6)] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
            for index in 1...count {
                _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("sub/p\(index).png").path, contents: Data([1]))
            }
        }
        // A link to another tree, followed when asked, counts what lies behind it (as a link
        // to / would).
        try FileManager.default.createSymbolicLink(atPath: small.appendingPathComponent("elsewhere").path, withDestinationPath: large.path)
        let within = InputCollection.collect([large.path], fileSystemPaths: [:], maximumEntries: 7)
        #expect(within.problems.isEmpty && within.inputs.count == 6)
        let past = InputCollection.collect([large.path], fileSystemPaths: [:], maximumEntries: 6)
        #expect(past.inputs.isEmpty)
        #expect(
            past.problems == [
                .unreadableFolder(
                    path: large.path,
                    reason:
                        "listing it passed the 6 entries that a run's folders may hold (files and folders, links followed); none of its images is read: name smaller folders"
                )
            ])
        // The budget is the run's: the first folder takes 3, the second then has too few left.
        let shared = InputCollection.collect(
            [large.path + "/sub/p1.png", small.path + "/sub", large.path], fileSystemPaths: [:], maximumEntries: 8)
        #expect(shared.inputs.map(\.relativePath) == [large.path + "/sub/p1.png", "p1.png", "p2.png", "p3.png"])
        #expect(shared.problems.map(Self.folder) == [large.path])
        // A folder after the budget is spent is not listed at all, and says so.
        let spent = InputCollection.collect([small.path + "/sub", large.path], fileSystemPaths: [:], maximumEntries: 3)
        #expect(spent.inputs.count == 3)
        #expect(
            spent.problems.map(\.description) == [
                "\(large.path): cannot read the folder (not listed: the folders before it already hold the 3 entries that a run's folders may hold (files and folders, links followed); name it in a run of its own)"
            ])
        #expect(InputCollection.grouped(InputCollection.maximumEntries) == "1,000,000")
        #expect([0, 999, 1000, 12_345, -4_321].map(InputCollection.grouped) == ["0", "999", "1,000", "12,345", "-4,321"])
        // small holds sub (1 + 3) and the link (1), and behind the link large's 1 + 6.
        #expect(
            InputCollection.collect([small.path], fileSystemPaths: [:], maximumEntries: 12, followsLinksOutside: true).inputs.count == 9)
        let linked = InputCollection.collect([small.path], fileSystemPaths: [:], maximumEntries: 11, followsLinksOutside: true)
        #expect(linked.inputs.isEmpty && linked.problems.map(Self.folder) == [small.path])
        // Not followed (the default), the link costs its own entry only.
        let confined = InputCollection.collect([small.path], fileSystemPaths: [:], maximumEntries: 5)
        #expect(confined.problems.isEmpty && confined.inputs.count == 3)
    }

    /// The path an `unreadableFile` problem names.
    static func folder(_ problem: SnapPoemError) -> String? {
        if case .unreadableFolder(let path, _) = problem { return path }
        return nil
    }

    /// Removes a tree deeper than PATH_MAX, which `FileManager` cannot (`rm` works relative
    /// to each folder).
    static func removeDeep(_ folder: URL) {
        let remove = Process()
        remove.executableURL = URL(fileURLWithPath: "/bin/rm")
        remove.arguments = ["-rf", folder.path]
        try? remove.run()
        remove.waitUntilExit()
    }
}

extension FileManager {
    /// `path` with every symbolic link resolved (the temporary folder may lie behind one).
    fileprivate func destinationOfSymbolicLinkIfAny(_ path: String) -> String? {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }
}
