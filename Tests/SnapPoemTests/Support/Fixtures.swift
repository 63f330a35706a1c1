import Foundation

/// Paths to the repository's sample images and ground truth, found from this file's location
/// (never from the working directory).
enum Fixtures {
    /// The repository's root folder.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `SampleImages/<name>`.
    static func sample(_ name: String) -> String {
        root.appendingPathComponent("SampleImages").appendingPathComponent(name).path
    }

    /// The ground-truth text of a sample image: the same path with a `.txt` extension.
    static func groundTruth(for image: String) throws -> String {
        let url = URL(fileURLWithPath: sample(image)).deletingPathExtension().appendingPathExtension("txt")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// A fresh, uniquely named temporary folder, removed by the caller with `cleanUp`.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("snap-poem-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Character error rate: edit distance between `recognized` and `truth` divided by the
/// truth's length, after folding runs of whitespace to one space (OCR versions differ in
/// spacing, not in what matters here).
func characterErrorRate(_ recognized: String, truth: String) -> Double {
    func normalized(_ text: String) -> [Character] {
        Array(text.split(whereSeparator: \.isWhitespace).joined(separator: " "))
    }
    let a = normalized(recognized), b = normalized(truth)
    guard !b.isEmpty else { return a.isEmpty ? 0 : 1 }
    var previous = Array(0...b.count)
    var current = Array(repeating: 0, count: b.count + 1)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return Double(a.isEmpty ? b.count : previous[b.count]) / Double(b.count)
}
