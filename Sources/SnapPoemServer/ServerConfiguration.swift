/// Where the server listens and how much it lets clients hold.
public struct ServerConfiguration: Sendable, Equatable {
    /// The address to listen on: an IPv4 or IPv6 address; `127.0.0.1` by default, so that
    /// nothing outside the machine reaches the service until it is asked to.
    public var host: String
    /// The TCP port; 0 lets the system choose one (`HTTPServer.port` tells which).
    public var port: UInt16
    /// The most connections open at once; more wait in the system's backlog.
    public var connectionLimit: Int
    /// The most connections one client address may hold open at once.
    public var connectionLimitPerAddress: Int
    /// Seconds a connection may stay silent (keep-alive, or a stalled upload) before it is
    /// closed.
    public var idleTimeoutSeconds: Int
    /// Seconds a request may take to arrive whole (headers and body); a client that trickles
    /// its upload slower is cut off.
    public var requestTimeoutSeconds: Int
    /// The largest request body accepted, in bytes: bigger declared bodies are refused with
    /// 413 before any of it is read, bigger streamed ones as soon as they pass it.
    public var maxUploadBytes: Int
    /// How long a stop waits for requests in flight to finish before cancelling them.
    public var drainTimeout: Duration

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1",
        port: UInt16 = 8080,
        connectionLimit: Int = 64,
        connectionLimitPerAddress: Int = 16,
        idleTimeoutSeconds: Int = 15,
        requestTimeoutSeconds: Int = 60,
        maxUploadBytes: Int = 20 << 20,
        drainTimeout: Duration = .seconds(40)
    ) {
        self.host = host
        self.port = port
        self.connectionLimit = max(1, connectionLimit)
        self.connectionLimitPerAddress = max(1, connectionLimitPerAddress)
        self.idleTimeoutSeconds = max(1, idleTimeoutSeconds)
        self.requestTimeoutSeconds = max(1, requestTimeoutSeconds)
        self.maxUploadBytes = max(1, maxUploadBytes)
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
