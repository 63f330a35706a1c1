import Foundation

// The one protocol between a batch supervisor and its workers: JSON Lines over a socket
// pair that the worker has as file descriptor 3. Each message is one line of compact JSON.
//
//   supervisor → worker   {"scan":{…},"export":{…},"memoryLimit":4294967296}   first, once
//   worker → supervisor   {"type":"ready","pid":1234}                         engine started, send work
//   supervisor → worker   {"id":7,"path":"<base64 bytes>","name":"poems/a.png","relativeName":"a.png"}
//   worker → supervisor   {"type":"page","id":7,"page":2}                     a multi-page file's next page began
//   worker → supervisor   {"type":"result","id":7,"outcome":{…}}              one per request, in turn
//   worker → supervisor   {"type":"fatal","failure":{…}}                      the engine cannot start
//
// The worker is configured by its first message (`WorkerConfiguration`: the scan and the
// export request, typed), never by re-reading the command line. It takes one request at a
// time and answers it with an `ImageOutcome` before it reads the next; anything else is a
// protocol violation, and the supervisor stops a worker that commits one and fails its
// image. Lines are framed in one pass (`LineFramer`) and bounded (`WorkerLine`). Closing the
// supervisor's end asks the worker to exit. Whatever a worker prints on its standard output
// or error (the image codecs' own messages) reaches the supervisor through a separate pipe
// and is tied to the request in flight. See Docs/batches.md.

/// The first message a supervisor sends each worker: everything it needs to read images and
/// make them into what was asked, as typed values.
public struct WorkerConfiguration: Sendable, Equatable, Codable {
    /// What each scan does (the worker's engine is started from `scan.engine`).
    public var scan: ScanConfiguration
    /// What is made of each poem.
    public var export: ExportRequest
    /// The worker's address-space limit in bytes, or nil for none.
    public var memoryLimit: Int?

    /// Creates a configuration.
    public init(scan: ScanConfiguration, export: ExportRequest, memoryLimit: Int? = nil) {
        self.scan = scan
        self.export = export
        self.memoryLimit = memoryLimit
    }
}

/// One image for a worker to read.
public struct WorkerRequest: Sendable, Equatable, Codable {
    /// The request's number; the outcome carries it back.
    public var id: Int
    /// The exact bytes of the path to open (base64 in JSON, since names need not be UTF-8).
    public var path: Data
    /// The path as shown in messages.
    public var name: String
    /// The path below its folder argument.
    public var relativeName: String
    /// The folder argument's resolved path, which the file opened must lie inside
    /// (`BatchInput.enclosingFolder`).
    public var enclosingFolder: Data?
    /// The bytes themselves, for standard input (which only the supervisor can read).
    public var contents: Data?

    /// Creates a request for `job`.
    public init(id: Int, job: ImageJob) {
        self.id = id
        self.path = Data(job.input.fileSystemPath)
        self.name = job.input.path
        self.relativeName = job.input.relativePath
        self.enclosingFolder = job.input.enclosingFolder.map { Data($0) }
        self.contents = job.contents
    }

    /// The job this request names.
    public var job: ImageJob {
        ImageJob(
            index: id,
            input: BatchInput(
                path: name, relativePath: relativeName, fileSystemPath: Array(path), enclosingFolder: enclosingFolder.map { Array($0) }),
            contents: contents)
    }
}

/// A worker's message to its supervisor.
struct WorkerMessage: Sendable, Equatable, Codable {
    enum Kind: String, Sendable, Codable {
        case ready, page, result, fatal
    }

    var type: Kind
    /// `ready`: the worker's process id.
    var pid: Int32?
    /// `result`: the request answered.
    var id: Int?
    /// `result`: what became of the image.
    var outcome: ImageOutcome?
    /// `page`: the page of a multi-page file the request has come to (from 2).
    var page: Int?
    /// `fatal`: why the worker cannot work (category `.engine` or `.usage`).
    var failure: Diagnostic?

    static func ready() -> WorkerMessage { WorkerMessage(type: .ready, pid: getpid()) }
    static func result(_ id: Int, _ outcome: ImageOutcome) -> WorkerMessage { WorkerMessage(type: .result, id: id, outcome: outcome) }
    static func fatal(_ failure: Diagnostic) -> WorkerMessage { WorkerMessage(type: .fatal, failure: failure) }
    static func page(_ id: Int, _ page: Int) -> WorkerMessage { WorkerMessage(type: .page, id: id, page: page) }
}

/// JSON Lines encoding shared by both ends.
enum WorkerLine {
    /// The longest line either end takes: a request carrying standard input at the most a
    /// batch reads (`ImageLimits.maxFileBytes`, as base64), or an outcome carrying a document
    /// of that size, with room for the rest of the message. A longer line is a protocol
    /// violation, refused without being buffered.
    static let maximumBytes = (ImageLimits.standard.maxFileBytes / 3 + 1) * 4 + (1 << 20)

    static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Strings, numbers, booleans and base64 data: encoding cannot fail.
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
