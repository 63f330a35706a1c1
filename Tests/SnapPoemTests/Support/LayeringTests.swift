import Foundation
import Testing

/// The library's stages depend on each other one way only, as the folders say: a lower stage
/// names no type of a higher one. Checked on the sources, so that a stage can be used or
/// changed alone (the Image stage without OCR, OCR without personalisation, …).
@Suite("Layering: each stage of the library names only types of the stages below it")
struct LayeringTests {
    /// The stages from the lowest up. A folder may use its own types and those of the
    /// folders before it.
    static let stages = ["Support", "Image", "OCR", "Text", "Pipeline", "Annotate", "Export", "Output", "Batch"]

    static let library = Fixtures.root.appendingPathComponent("Sources/SnapPoem")

    /// The top-level types declared in each stage's folder, by name.
    static func declaredTypes() throws -> [String: String] {
        let declaration = try Regex(
            #"^(?:@\w+\s+)*(?:(?:public|internal|private|fileprivate|package|final|indirect)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)"#
        ).anchorsMatchLineEndings()
        var homes: [String: String] = [:]
        for stage in stages {
            for file in try swiftFiles(in: stage) {
                for match in try String(contentsOf: file, encoding: .utf8).matches(of: declaration) {
                    if let name = match.output[1].substring { homes[String(name)] = stage }
                }
            }
        }
        return homes
    }

    static func swiftFiles(in stage: String) throws -> [URL] {
        let folder = library.appendingPathComponent(stage)
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// A file's code without its comments, so that documentation may mention any type.
    static func code(of file: URL) throws -> String {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.firstRange(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
    }

    @Test("Every folder of the library is a known stage")
    func foldersAreStages() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.library.path)
            .filter { !$0.hasSuffix(".docc") && !$0.hasPrefix(".") }
        #expect(Set(folders) == Set(Self.stages))
    }

    @Test("No stage names a type of a stage above it", arguments: stages)
    func namesOnlyLowerStages(_ stage: String) throws {
        let homes = try Self.declaredTypes()
        let rank = Dictionary(uniqueKeysWithValues: Self.stages.enumerated().map { ($1, $0) })
        let higher = homes.filter { rank[$0.value]! > rank[stage]! }
        #expect(!higher.isEmpty || stage == Self.stages.last, "the check would find nothing")
        var violations: [String] = []
        for file in try Self.swiftFiles(in: stage) {
            let identifiers = Set(try Self.code(of: file).split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
            for (name, home) in higher where identifiers.contains(name) {
                violations.append("\(stage)/\(file.lastPathComponent) uses \(name) (\(home))")
            }
        }
        #expect(violations.isEmpty, "\(violations.joined(separator: "; "))")
    }
}
