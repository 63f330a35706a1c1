import Foundation
import Testing

@testable import SnapPoem

@Suite("Temporary files of atomic writes: any output name the file system accepts can be written")
struct TemporaryNameTests {
    @Test("`.NAME.snap-poem-XXXXXX` while it fits in 255 bytes, else a 34-byte name; both known as NAME's, no other's")
    func forms() {
        let fits = String(repeating: "a", count: 237)
        let long = String(repeating: "b", count: 238)
        #expect(TemporaryName.fitsReadable(fits))
        #expect(!TemporaryName.fitsReadable(long))
        #expect(TemporaryName.readable(for: fits).utf8.count == 255)
        let readable = TemporaryName.readable(for: "a.txt")
        #expect(readable.hasPrefix(".a.txt.snap-poem-") && readable.utf8.count == 23)
        #expect(TemporaryName.owner(of: readable) == "a.txt")
        let short = TemporaryName.short(for: long)
        #expect(short.utf8.count == 34)
        #expect(short.hasPrefix(".snap-poem-"))
        #expect(TemporaryName.owner(of: short) == nil)
        #expect(TemporaryName.isTemporary(short, of: [long]))
        #expect(TemporaryName.isTemporary(readable, of: ["a.txt"]))
        #expect(!TemporaryName.isTemporary(short, of: ["a.txt", fits]))
        #expect(!TemporaryName.isTemporary(readable, of: [long]))
        #expect(!TemporaryName.isTemporary(".snap-poem-notahash-Ab12Cd", of: [long]))
        #expect(TemporaryName.key(for: "") == "cbf29ce484222325", "FNV-1a's offset basis: the same in every process")
    }

    @Test("Names of 238 and 255 bytes are written atomically inside an output folder, nothing left beside them")
    func longNames() throws {
        let url = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: url) }
        let folder = try OutputFolder(creatingAt: url.path)
        for length in [238, 255] {
            let name = String(repeating: "p", count: length - 4) + ".txt"
            try folder.write(Data("poem\n".utf8), to: "sub/" + name, overwrite: false)
            try folder.write(Data("poem again\n".utf8), to: "sub/" + name, overwrite: true)
            #expect(try String(contentsOfFile: url.path + "/sub/" + name, encoding: .utf8) == "poem again\n")
        }
        let single = url.appendingPathComponent(String(repeating: "o", count: 251) + ".txt").path
        try OutputFile.write(Data("poem\n".utf8), to: single)
        #expect(try String(contentsOfFile: single, encoding: .utf8) == "poem\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.path + "/sub").count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasPrefix(".") } == [])
    }

    @Test("A killed run's temporary files of long names are removed for this run's outputs only")
    func staleShortForms() throws {
        let url = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: url) }
        let folder = try OutputFolder(creatingAt: url.path)
        let mine = String(repeating: "m", count: 250) + ".txt"
        let theirs = String(repeating: "t", count: 250) + ".txt"
        for name in [TemporaryName.short(for: mine), TemporaryName.short(for: theirs), TemporaryName.readable(for: "a.txt")] {
            _ = FileManager.default.createFile(atPath: url.appendingPathComponent(name).path, contents: Data("x".utf8))
        }
        #expect(folder.removeStaleTemporaryFiles(for: [mine, "a.txt"]) == 2)
        let left = try FileManager.default.contentsOfDirectory(atPath: url.path)
        #expect(left.count == 1 && TemporaryName.isTemporary(left[0], of: [theirs]), "\(left)")
    }
}
