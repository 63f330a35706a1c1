/// Where the server listens and how much it lets clients hold.
public struct ServerConfiguration: Sendable, Equatable {
    /// The address to listen on: an IPv4 or IPv6 address; `127.0.0.1` by default, so that
    /// nothing outside the machine reaches the service until it is asked to.
    public var host: String
    /// The TCP port; 0 lets the system choose one (`HTTPServer.port` tells which).
    public var port: UInt16
    /// The most connections open at once. The last `connectionReserve` places are kept free:
    /// a connection that takes one of them closes the most expendable connection without a
    /// request under way (`HTTPServer`), so that a new connection (a health probe, an honest
    /// client) is always taken in. Past the limit itself, connections wait in the system's
    /// backlog. `HTTPServer` lowers it to what the operating system's limit of open files
    /// allows and to what `connectionBudgetBytes` holds of light connections
    /// (`lightConnectionBytes`); the start-up line says how many it takes.
    public var connectionLimit: Int
    /// The most connections one client address may hold open at once; past it, the
    /// address's own most expendable connection is closed to make room.
    public var connectionLimitPerAddress: Int
    /// The most memory all connections may hold at once, as `ConnectionState.cost` counts it
    /// (libmicrohttpd's memory per connection that the client's bytes have filled, and
    /// `connectionBaseBytes`); past it, the most expendable connections without a request
    /// under way are closed, and while nothing is left to close, new requests other than the
    /// health routes get 503 `busy`. `MemoryPlan.connectionBytes` sets it from the memory
    /// budget.
    public var connectionBudgetBytes: Int
    /// Seconds a connection may stay silent (keep-alive, or a stalled upload) before it is
    /// closed.
    public var idleTimeoutSeconds: Int
    /// Seconds a request's headers may take to arrive, from the connection's start (on a
    /// kept-alive connection, from the previous answer plus `idleTimeoutSeconds`); a client
    /// that trickles them slower is cut off.
    public var headerTimeoutSeconds: Int
    /// Seconds a request may take to arrive whole (headers and body); a client that trickles
    /// its upload slower is cut off.
    public var requestTimeoutSeconds: Int
    /// The largest request body accepted, in bytes: bigger declared bodies are refused with
    /// 413 before any of it is read, bigger streamed ones as soon as they pass it.
    public var maxUploadBytes: Int
    /// The most request body bytes held at once over all connections (arriving, waiting for
    /// an engine, or being read); an upload that would pass it is refused with 503 before any
    /// of it is read. `MemoryPlan.bufferedBodyBytes` sets it from the memory budget.
    public var maxBufferedBodyBytes: Int
    /// The share, in percent, of the body budget and of the service's places (engines and
    /// queue) that one client address may hold at once; past it, 429. 100 switches the
    /// shares off (behind a proxy every client has the proxy's address).
    public var addressSharePercent: Int
    /// How long a stop waits for requests in flight to finish before cancelling them.
    public var drainTimeout: Duration

    /// libmicrohttpd's memory per connection (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`): the
    /// request line and headers (larger ones get 431), the read buffer, the answer's
    /// headers. 128 KiB, reserved (`mmap`) when the connection opens and resident only as the
    /// client's bytes fill it; libmicrohttpd clears all of it (`memset`) when a request on a
    /// kept-alive connection ends, so from then on the connection holds all 128 KiB.
    public static let connectionMemoryBytes = 128 << 10

    /// What a connection costs before the client's bytes fill any of libmicrohttpd's memory
    /// for it: libmicrohttpd's record of it and the server's `ConnectionState`. 4 KiB, over
    /// what was measured (resident memory of `snap-poem serve` with 1,000 connections open,
    /// debug build): 3.0 KiB each for connections that sent nothing; 7.4 KiB for ones that
    /// sent a few bytes of a header (4 KiB + one page); 63 KiB for 60,000 bytes of a header
    /// (4 KiB + 15 pages); about 128 KiB once kept alive after a request (4 KiB + all of it).
    public static let connectionBaseBytes = 4 << 10

    /// What a connection costs at most while its client has filled no more than one page of
    /// libmicrohttpd's memory for it (a connection that sent nothing, or a few bytes of its
    /// headers): `connectionBaseBytes` and one page, 8 KiB. `HTTPServer` takes no more
    /// connections than the connection budget holds of these, and closes for memory only
    /// connections that cost more.
    public static let lightConnectionBytes = connectionBaseBytes + 4096

    /// The places kept free below `connectionLimit`: a sixteenth of it, at least 16.
    public var connectionReserve: Int { min(connectionLimit - 1, max(16, connectionLimit / 16)) }

    /// The longest request target (path and query, as sent) taken: 32 KiB; longer ones get
    /// 414 `uri_too_long` in the service's shape. Past about `connectionMemoryBytes`,
    /// libmicrohttpd answers 414 itself, with its own HTML, before the server sees the request.
    public static let maximumTargetBytes = 32 << 10

    /// The most bytes of request line and headers taken: 64 KiB; more get 431
    /// `headers_too_large` in the service's shape, while the connection's memory still holds
    /// the answer. Past about `connectionMemoryBytes` (or about 2 000 header lines, each a
    /// record in that memory), libmicrohttpd answers 431 itself, with its own HTML.
    public static let maximumHeadBytes = 64 << 10

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1",
        port: UInt16 = 8080,
        connectionLimit: Int = 4096,
        connectionLimitPerAddress: Int = 16,
        connectionBudgetBytes: Int = 32 << 20,
        idleTimeoutSeconds: Int = 15,
        headerTimeoutSeconds: Int = 10,
        requestTimeoutSeconds: Int = 60,
        maxUploadBytes: Int = 20 << 20,
        maxBufferedBodyBytes: Int = 128 << 20,
        addressSharePercent: Int = 25,
        drainTimeout: Duration = .seconds(40)
    ) {
        self.host = host
        self.port = port
        self.connectionLimit = max(1, connectionLimit)
        self.connectionLimitPerAddress = max(1, connectionLimitPerAddress)
        self.connectionBudgetBytes = max(Self.connectionBaseBytes + Self.connectionMemoryBytes, connectionBudgetBytes)
        self.idleTimeoutSeconds = max(1, idleTimeoutSeconds)
        self.headerTimeoutSeconds = max(1, headerTimeoutSeconds)
        self.requestTimeoutSeconds = max(1, requestTimeoutSeconds)
        self.maxUploadBytes = max(1, maxUploadBytes)
        self.maxBufferedBodyBytes = max(self.maxUploadBytes, maxBufferedBodyBytes)
        self.addressSharePercent = min(100, max(1, addressSharePercent))
        self.drainTimeout = drainTimeout
    }
}

/// Why the server could not start.
public struct ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line: what failed, on which address, and why.
    public var description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}
