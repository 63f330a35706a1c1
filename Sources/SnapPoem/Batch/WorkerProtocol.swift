import Foundation

// The one protocol between a batch supervisor and its workers: JSON Lines over a socket
// pair that the worker has as file descriptor 3. Each message is one line of compact JSON.
//
//   worker → supervisor   {"type":"ready","pid":1234}             engine started, send work
//   supervisor → worker   {"id":7,"path":"<base64 bytes>","name":"poems/a.png","relativeName":"a.png"}
//   worker → supervisor   {"type":"result","id":7,"reply":{…}}    one per request, in turn
//   worker → supervisor   {"type":"fatal","error":"…","code":69}  the engine cannot start
//
// A worker takes one request at a time and answers it before it reads the next. Closing the
// supervisor's end asks it to exit. Whatever a worker prints on its standard output or
// error (the image codecs' own messages) reaches the supervisor through a separate pipe and
// is tied to the request in flight. See Docs/batches.md.

/// One image for a worker to read.
public struct WorkerRequest: Sendable, Equatable, Codable {
    /// The request's number; the reply carries it back.
    public var id: Int
    /// The exact bytes of the path to open (base64 in JSON, since names need not be UTF-8).
    public var path: Data
    /// The path as shown in messages.
    public var name: String
    /// The path below its folder argument (what `SNAP_POEM_TEST_ONLY_WORKER_FAULTS` matches).
    public var relativeName: String
    /// The bytes themselves, for standard input (which only the supervisor can read).
    public var contents: Data?

    /// Creates a request for `input`.
    public init(id: Int, input: BatchInput, contents: Data? = nil) {
        self.id = id
        self.path = Data(input.fileSystemPath)
        self.name = input.path
        self.relativeName = input.relativePath
        self.contents = contents
    }

    /// The input this request names.
    public var input: BatchInput {
        BatchInput(path: name, relativePath: relativeName, fileSystemPath: Array(path))
    }
}

/// A worker's answer for one image: what happened, the bytes to deliver, and what to say.
public struct WorkerReply: Sendable, Equatable, Codable {
    /// `ok`, `failed` or `timed-out`.
    public var status: ManifestEntry.Status
    /// The one-line reason of a failure (`SnapPoemError.description`).
    public var error: String?
    /// Which side failed.
    public var failure: ManifestEntry.Failure?
    /// The exit code this image calls for (0, 1, 73, 124, …), as the worker's handler decided.
    public var exitCode: Int32
    /// The rendered output (the poem as text, JSON, HTML, …); nil when nothing is delivered.
    public var output: Data?
    /// Complete lines for standard error, in order (warnings, the replacement report).
    public var diagnostics: [String]
    /// The warnings alone, without prefix, for the manifest.
    public var warnings: [String]
    /// `ContentHash` of the bytes the worker read.
    public var contentHash: String?
    /// Tesseract's mean word confidence.
    public var meanConfidence: Int?
    /// Whether any word was found.
    public var hasText: Bool?
    /// What the text coverage check found; nil when it did not run.
    public var coverage: ManifestEntry.Coverage?
    /// Where the worker's time went.
    public var timings: ManifestEntry.Timings?

    /// Creates a reply.
    public init(
        status: ManifestEntry.Status, error: String? = nil, failure: ManifestEntry.Failure? = nil, exitCode: Int32,
        output: Data? = nil, diagnostics: [String] = [], warnings: [String] = [], contentHash: String? = nil,
        meanConfidence: Int? = nil, hasText: Bool? = nil, coverage: ManifestEntry.Coverage? = nil,
        timings: ManifestEntry.Timings? = nil
    ) {
        self.status = status
        self.error = error
        self.failure = failure
        self.exitCode = exitCode
        self.output = output
        self.diagnostics = diagnostics
        self.warnings = warnings
        self.contentHash = contentHash
        self.meanConfidence = meanConfidence
        self.hasText = hasText
        self.coverage = coverage
        self.timings = timings
    }
}

/// A worker's message to its supervisor.
struct WorkerMessage: Sendable, Equatable, Codable {
    enum Kind: String, Sendable, Codable {
        case ready, result, fatal
    }

    var type: Kind
    /// `ready`: the worker's process id.
    var pid: Int32?
    /// `result`: the request answered.
    var id: Int?
    /// `result`: the answer.
    var reply: WorkerReply?
    /// `fatal`: why the worker cannot work.
    var error: String?
    /// `fatal`: the exit code the whole batch should end with.
    var code: Int32?

    static func ready() -> WorkerMessage { WorkerMessage(type: .ready, pid: getpid()) }
    static func result(_ id: Int, _ reply: WorkerReply) -> WorkerMessage { WorkerMessage(type: .result, id: id, reply: reply) }
    static func fatal(_ error: String, code: Int32) -> WorkerMessage { WorkerMessage(type: .fatal, error: error, code: code) }
}

/// JSON Lines encoding shared by both ends.
enum WorkerLine {
    static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Plain strings, numbers, booleans and base64 data: encoding cannot fail.
        do {
            var data = try encoder.encode(value)
            data.append(0x0A)
            return data
        } catch {
            preconditionFailure("encoding a worker message failed: \(error)")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from line: Data) -> T? {
        try? JSONDecoder().decode(type, from: line)
    }

    /// Writes all of `data` to a socket without raising SIGPIPE; false when the peer is gone.
    static func send(_ data: Data, to socket: Int32) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let sent = Foundation.send(socket, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += sent
            }
            return true
        }
    }
}
