import Foundation

/// Paths of the repository, found from this file's location (never the working directory).
enum Fixtures {
    /// The repository's root folder.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `SampleImages/<name>`.
    static func sample(_ name: String) -> String {
        root.appendingPathComponent("SampleImages").appendingPathComponent(name).path
    }

    /// The bytes of `SampleImages/<name>`.
    static func sampleData(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: sample(name)))
    }

    /// The small sample: one stanza of "Lenore", whose last line ends "thy love, Lenore!".
    static let stanza = "formats/stanza-rgb8.png"

    /// The Python of the virtual environment `make deps-service` creates (selenium,
    /// kubernetes-validate).
    static let python = root.appendingPathComponent(".build/service-venv/bin/python").path

    /// A fresh, uniquely named temporary folder; the caller removes it.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("snap-poem-service-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A `multipart/form-data` body, as a browser builds it.
struct MultipartBody {
    let boundary: String
    private(set) var data = Data()

    /// An empty body whose parts are separated by `boundary`.
    init(boundary: String = "snap-poem-test-\(UUID().uuidString)") {
        self.boundary = boundary
    }

    /// The request's `Content-Type`.
    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    mutating func addField(_ name: String, _ value: String) {
        data.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
    }

    mutating func addFile(_ name: String, filename: String, type: String, contents: Data) {
        data.append(
            Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: \(type)\r\n\r\n"
                    .utf8))
        data.append(contents)
        data.append(Data("\r\n".utf8))
    }

    /// The body with its closing boundary.
    var finished: Data { data + Data("--\(boundary)--\r\n".utf8) }
}

/// Occurrences of `word` in `text`.
func occurrences(of word: String, in text: String) -> Int {
    text.components(separatedBy: word).count - 1
}
