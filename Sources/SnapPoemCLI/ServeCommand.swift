import Foundation
import SnapPoem
import SnapPoemServer
import SnapPoemService

/// `snap-poem serve`: the HTTP service (`SnapPoemService`) on libmicrohttpd
/// (`SnapPoemServer`). Only wires options to them; runs until its task is cancelled (SIGTERM
/// or SIGINT, through `SnapPoemMain`), then stops gracefully and returns 0.
enum ServeCommand {
    /// The subcommand's name, the first argument.
    static let name = "serve"

    static let usage =
        "Usage: snap-poem serve [--host 127.0.0.1] [--port 8080] [--jobs N] [--queue N] [--max-upload-mb N] [--timeout S] [options]"

    /// Every option of `serve`, in the order `snap-poem serve --help` lists them.
    static let options: [OptionSpec] = [
        OptionSpec(
            "host", value: "ADDRESS",
            help: "Address to listen on, IPv4 or IPv6 (default: 127.0.0.1, this machine only; 0.0.0.0 or :: for every interface)."),
        OptionSpec("port", value: "N", help: "TCP port (default: 8080; 0 lets the system choose)."),
        OptionSpec(
            "jobs", short: "j", value: "N",
            help: "Images read at once, one Tesseract engine each, loaded at start (default: the number of cores)."),
        OptionSpec(
            "queue", value: "N",
            help: "Requests that may wait for an engine; more are refused at once with 503 and Retry-After (default: 16)."),
        OptionSpec("max-upload-mb", value: "N", help: "Largest upload in megabytes; larger ones are refused with 413 (default: 20)."),
        OptionSpec(
            "memory-mb", value: "N",
            help:
                "Memory the service may use, in megabytes; the pixel limit per image and the upload budget follow from it (default: the control group's limit, else 1024)."
        ),
        OptionSpec(
            "timeout", value: "SECONDS",
            help:
                "Longest recognition of one image, the default of a request's own 'timeout', and the longest wait for an engine; past it the answer is 504 (503 for the wait) (default: 30)."
        ),
        OptionSpec(
            "max-marks", value: "N|none",
            help:
                "Refuse with 422 a page of more than N separate marks (default: 10000; none: no limit): Tesseract's layout analysis of a page of specks cannot be stopped and can hold an engine for minutes."
        ),
        OptionSpec(
            "lang", short: "l", value: "LANGS",
            help: "Default Tesseract languages, '+'-separated (default: eng+fra); requests may ask for others."),
        OptionSpec(
            "tessdata", value: "DIR",
            help: "Folder holding the .traineddata files (default: $TESSDATA_PREFIX, the package's tessdata/, then the system's)."),
        OptionSpec(
            "max-connections", value: "N",
            help:
                "Connections open at once, and 16 per client address at most (default: 4096, or what the limit of open files allows); past a 16th of it, or past the memory connections may hold, the most expendable connection without a request under way is closed for each new one."
        ),
        OptionSpec("idle-timeout", value: "SECONDS", help: "Close a connection silent for this long (default: 15)."),
        OptionSpec(
            "header-timeout", value: "SECONDS",
            help: "Cut off a client whose request headers take longer than this to arrive (default: 10)."),
        OptionSpec(
            "request-timeout", value: "SECONDS", help: "Cut off a client whose request takes longer than this to arrive (default: 60)."),
        OptionSpec(
            "address-share", value: "PERCENT",
            help:
                "Share of the upload budget and of the engines and queue one client address may hold; past it, 429 (default: 25; 100 behind a proxy)."
        ),
        OptionSpec(
            "stop-timeout", value: "SECONDS",
            help: "On SIGTERM or SIGINT, wait this long for requests in flight before cancelling them (default: 40)."),
        OptionSpec("help", short: "h", help: "Show this help and exit."),
    ]

    /// Runs `snap-poem serve` with `arguments` (after `serve`).
    static func run(_ arguments: [String], console: Console) async -> ExitCode {
        let diagnostics = DiagnosticsEngine(console: console)
        let parsed: ParsedArguments
        var service = ServiceConfiguration()
        var server = ServerConfiguration()
        do throws(UsageError) {
            parsed = try ParsedArguments.parse(arguments, specs: options)
            if parsed.has("help") {
                console.writeOutput(Data(help().utf8))
                return .success
            }
            if let extra = parsed.positionals.first {
                throw UsageError(message: "Unexpected argument '\(extra)'; 'serve' takes options only.")
            }
            try bind(parsed, service: &service, server: &server)
        } catch {
            diagnostics.usageError(error.message, usage: usage, help: "snap-poem serve --help")
            return .usage
        }
        // Every limit follows from the memory budget, worked out before anything is loaded.
        let budget = memoryMegabytes(parsed).map { MemoryBudget(bytes: $0 << 20, source: .given) } ?? MemoryBudget.detect()
        let plan: MemoryPlan
        do throws(MemoryPlanError) {
            plan = try MemoryPlan(
                budget: budget, workers: service.workers, engineBytesPerWorker: service.engineBytesPerWorker,
                maxUploadBytes: server.maxUploadBytes)
        } catch {
            diagnostics.usageError(error.message, usage: usage, help: "snap-poem serve --help")
            return .usage
        }
        service.scan.imageLimits.maxPixels = min(service.scan.imageLimits.maxPixels, plan.maxPixels)
        service.scan.imageLimits.maxFileBytes = min(service.scan.imageLimits.maxFileBytes, server.maxUploadBytes)
        server.maxBufferedBodyBytes = plan.bufferedBodyBytes
        server.connectionBudgetBytes = plan.connectionBytes
        raiseOpenFileLimit(toward: server.connectionLimit + HTTPServer.descriptorsBesideConnections)
        let started: PoemService
        do throws(SnapPoemError) {
            started = try await PoemService(configuration: service)
        } catch {
            diagnostics.emit(
                Diagnostic(.error, error.description, category: error.category == .usage ? .usage : .engine, setting: error.setting))
            return diagnostics.exitCode
        }
        // From here on, standard error belongs to the log's writer thread: a stalled reader
        // costs dropped (and counted) lines, never a blocked server.
        let log = ServerLog()
        log.captureStandardError()
        let http: HTTPServer
        do throws(ServerError) {
            http = try HTTPServer(service: started, configuration: server, log: log)
        } catch {
            log.finish()
            await started.finishLoading()
            diagnostics.emit(Diagnostic(.error, error.description, category: .engine))
            return diagnostics.exitCode
        }
        let shownHost = server.host.contains(":") ? "[\(server.host)]" : server.host
        log.write(
            "snap-poem serve: listening on http://\(shownHost):\(http.port)/ (\(service.workers) engine\(service.workers == 1 ? "" : "s"), "
                + "\(service.scan.engine.languages), queue \(service.queueLimit), uploads up to \(server.maxUploadBytes >> 20) MB)")
        log.write(
            "snap-poem serve: memory budget \(budget): images up to \(ImageLimits.describe(pixels: plan.maxPixels)), "
                + "\(plan.bufferedBodyBytes >> 20) MB of uploads held at once, \(http.configuration.connectionLimit) connections "
                + "(\(http.configuration.connectionLimitPerAddress) per address) in \(plan.connectionBytes >> 20) MB")
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3600))
        }
        log.write("snap-poem serve: stopping: no new connections; finishing \(http.requestsInProgress) request(s) in flight")
        await http.stop()
        // Everything the service owns is freed when this returns, before the process exits:
        // the server let go of it (HTTPServer.stop), and no engine is left half-loaded.
        await started.finishLoading()
        log.write("snap-poem serve: stopped")
        log.finish()
        return .success
    }

    /// Gives each option its type and range.
    static func bind(_ parsed: ParsedArguments, service: inout ServiceConfiguration, server: inout ServerConfiguration) throws(UsageError) {
        func number(_ long: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
            guard let text = parsed.value(long) else { return nil }
            guard let value = Int(text), range.contains(value) else {
                let placeholder = OptionSpec.named(long, in: options)?.valueName ?? "N"
                throw UsageError(
                    message:
                        "Invalid value '\(text)' for '--\(long) <\(placeholder)>': expected a whole number from \(range.lowerBound) to \(range.upperBound)."
                )
            }
            return value
        }
        if let host = parsed.value("host") { server.host = host }
        if let port = try number("port", in: 0...65535) { server.port = UInt16(port) }
        if let jobs = try number("jobs", in: 1...64) { service.workers = jobs }
        if let queue = try number("queue", in: 0...10_000) { service.queueLimit = queue }
        if let megabytes = try number("max-upload-mb", in: 1...1024) {
            server.maxUploadBytes = megabytes << 20
            service.maxUploadBytes = megabytes << 20
        }
        if let connections = try number("max-connections", in: 1...100_000) {
            server.connectionLimit = connections
            server.connectionLimitPerAddress = min(server.connectionLimitPerAddress, connections)
        }
        if let seconds = try number("idle-timeout", in: 1...3600) { server.idleTimeoutSeconds = seconds }
        if let seconds = try number("request-timeout", in: 1...3600) { server.requestTimeoutSeconds = seconds }
        if let seconds = try number("header-timeout", in: 1...3600) { server.headerTimeoutSeconds = seconds }
        if let percent = try number("address-share", in: 1...100) { server.addressSharePercent = percent }
        _ = try number("memory-mb", in: 64...1_048_576)
        if let seconds = try number("stop-timeout", in: 0...3600) { server.drainTimeout = .seconds(seconds) }
        if let text = parsed.value("timeout") {
            guard let limit = Duration(seconds: text, atMost: 3600) else {
                throw UsageError(
                    message: "Invalid value '\(text)' for '--timeout <SECONDS>': expected a number of seconds greater than 0, at most 3600."
                )
            }
            service.maxTimeLimit = limit
        }
        if let text = parsed.value("max-marks") { service.scan.recognition.markLimit = try CommandOptions.markLimit(text) }
        service.scan.engine.tessdataDirectory = parsed.value("tessdata")
        if let languages = parsed.value("lang") {
            do throws(SnapPoemError) {
                service.scan.engine.languages = try LanguageSet(parsing: languages)
            } catch {
                throw UsageError(message: "Invalid value: \(error.description).")
            }
        }
    }

    /// Raises the process's soft limit of open files (`RLIMIT_NOFILE`) toward `wanted`, as far
    /// as its hard limit allows: a system's default soft limit (1024 under systemd) would hold
    /// the server to about 768 connections. Only the executable does this, for its own process;
    /// the server then takes as many connections as the limit leaves room for
    /// (`HTTPServer.connectionsTheFileLimitAllows()`, which the start-up line shows).
    static func raiseOpenFileLimit(toward wanted: Int) {
        var limit = rlimit()
        let unlimited = rlim_t.max  // RLIM_INFINITY, which Swift does not import
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != unlimited,
            limit.rlim_cur < rlim_t(wanted)
        else { return }
        limit.rlim_cur = limit.rlim_max == unlimited ? rlim_t(wanted) : min(limit.rlim_max, rlim_t(wanted))
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// `--memory-mb`, already checked by `bind`.
    static func memoryMegabytes(_ parsed: ParsedArguments) -> Int? {
        parsed.value("memory-mb").flatMap { Int($0) }
    }

    /// The text of `snap-poem serve --help`, generated from `options`.
    static func help() -> String {
        var lines = [
            "OVERVIEW: Serve snap-poem over HTTP: a page for phones at / and an API at /v1/poems.",
            "",
            "Engines are loaded once at start. Uploads are read in memory and never stored; one line",
            "per request is logged on standard error. SIGTERM or SIGINT stops accepting connections,",
            "finishes the requests in flight and exits 0. API and page: see Docs/service.md.",
            "",
            usage.replacingOccurrences(of: "Usage: ", with: "USAGE: "),
            "",
            "OPTIONS:",
        ]
        lines += HelpText.optionLines(options)
        lines += [
            "",
            "ENDPOINTS:",
            "  GET  /            the page: take a photo of a poem, change the name, fix a word, send the note",
            "  POST /v1/poems    the image as the body (options in the query) or multipart/form-data",
            "  GET  /openapi.json  the API in OpenAPI 3",
            "  GET  /healthz     alive;  GET /readyz  taking new images;  GET /metrics  Prometheus",
            "",
            "EXAMPLES:",
            "  snap-poem serve",
            "  curl --data-binary @Lenore.png 'http://127.0.0.1:8080/v1/poems?replace=Lenore=Alex'",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}

extension OptionSpec {
    /// Finds an option of `specs` by its long name.
    static func named(_ long: String, in specs: [OptionSpec]) -> OptionSpec? {
        specs.first { $0.long == long }
    }
}
