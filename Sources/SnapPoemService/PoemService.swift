import Foundation
import SnapPoem
import Synchronization

/// The snap-poem HTTP service's request handling: routes, options, statuses, headers and
/// bodies, without a socket. The server (`snap-poem serve`) frames requests and hands them
/// here; tests and other hosts call `respond(to:)` directly.
///
/// Routes:
/// - `GET /`: the page (upload form); `POST /`: the page's form post, answered with the note;
///   `POST /note`: the note's editor, answered with the note rendered from the edited text.
/// - `POST /v1/poems`: the API; the image as the body or as the form field `image`.
/// - `GET /healthz`, `GET /readyz`, `GET /metrics`; `GET /openapi.json`, the API's OpenAPI 3
///   description (`OpenAPIDocument`).
///
/// Engines are loaded once, at `init`: `workers` scanners, and a bounded queue in front of
/// them (`ScanWorkerPool`). Uploaded images are decoded from memory and never written
/// anywhere; nothing here logs.
public final class PoemService: Sendable {
    /// What the service was started with.
    public let configuration: ServiceConfiguration
    private let pool: ScanWorkerPool
    /// Every worker, idle or not (the pool hands them out).
    private let workers: [ScanWorker]
    private let metrics = ServiceMetrics()
    private let draining = Atomic<Bool>(false)
    private let additional = Mutex<(@Sendable () -> String)?>(nil)
    /// `GET /openapi.json`, generated once (`OpenAPIDocument`).
    private let openAPIText: String

    /// Loads `configuration.workers` workers, each with the engines of
    /// `configuration.workerScan`.
    ///
    /// - Throws: `SnapPoemError` when an engine cannot start (no tessdata, a language
    ///   without data): the service cannot work at all.
    public init(configuration: ServiceConfiguration = ServiceConfiguration()) async throws(SnapPoemError) {
        self.configuration = configuration
        openAPIText = OpenAPIDocument.text(configuration: configuration)
        var workers: [ScanWorker] = []
        for _ in 0..<configuration.workers {
            let scanner = try await PoemScanner(configuration: configuration.workerScan)
            workers.append(ScanWorker(initial: scanner, capacity: configuration.engineSetsPerWorker))
        }
        pool = ScanWorkerPool(workers: workers, queueLimit: configuration.queueLimit)
        self.workers = workers
    }

    /// Returns once no engine of the service is still loading its models (a worker's second
    /// engine loads in the background from the start, French ones when first asked for): what
    /// the host waits for after it stopped serving and before it lets go of the service, so
    /// that every engine is freed whole. Never waits for a recognition.
    public func finishLoading() async {
        for worker in workers { await worker.finishLoading() }
    }

    /// Stops taking new images: `POST` requests get 503 and `/readyz` says so, while the
    /// requests already taken run to their end. Called when the server is asked to stop.
    public func beginDraining() {
        draining.store(true, ordering: .relaxed)
    }

    /// Whether new images are taken now: not stopping, and a worker or a place in the queue
    /// is free.
    public var isReady: Bool { !draining.load(ordering: .relaxed) && !pool.isFull && !pool.allStopping }

    /// Answers one request. Never throws: every problem is an HTTP status.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        if let immediate = immediateResponse(to: request) { return immediate }
        var response: HTTPResponse
        switch (request.path, request.method) {
        case ("/", "POST"):
            response = await pagePost(request)
        case ("/note", "POST"):
            // The note rendered again from the edited text: off the cooperative pool too.
            response = await offload { self.notePost(request) }
        default:
            response = await apiPost(request)
        }
        finish(&response, for: request)
        metrics.recordResponse(path: request.path, status: response.status, uploadedBytes: request.uploadedBytes)
        return response
    }

    /// The answer to every request that needs no engine (`/healthz`, `/readyz`, `/metrics`,
    /// the page, and every routing error), made at once and without suspending, so that a
    /// server can answer it on its own thread whatever the engines and the cooperative pool
    /// are doing; nil for the requests with a body to work on (`POST /`, `POST /note`,
    /// `POST /v1/poems`), which `respond(to:)` takes.
    public func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        var response: HTTPResponse
        if let problem = request.queryProblem {
            response = errorResponse(.badOption(problem), for: request)
            finish(&response, for: request)
            metrics.recordResponse(path: request.path, status: response.status, uploadedBytes: request.uploadedBytes)
            return response
        }
        switch (request.path, request.method) {
        case ("/", "POST"), ("/note", "POST"), ("/v1/poems", "POST"):
            return nil
        case ("/", "GET"), ("/", "HEAD"):
            let page = page(for: request)
            response = Self.html(page.form(), status: 200, page: page)
        case ("/healthz", "GET"), ("/healthz", "HEAD"):
            response = Self.json(["status": "ok"], status: 200)
        case ("/readyz", "GET"), ("/readyz", "HEAD"):
            response = readiness()
        case ("/openapi.json", "GET"), ("/openapi.json", "HEAD"):
            response = HTTPResponse(
                status: 200, headers: [HTTPField(name: "Content-Type", value: "application/json")], body: Data(openAPIText.utf8))
        case ("/metrics", "GET"), ("/metrics", "HEAD"):
            let extra = additional.withLock { $0 }?() ?? ""
            response = HTTPResponse(
                status: 200, headers: [HTTPField(name: "Content-Type", value: "text/plain; version=0.0.4; charset=utf-8")],
                body: Data(
                    (metrics.render(
                        queueDepth: pool.depth.load(ordering: .relaxed), queueLimit: pool.queueLimit, workers: pool.size,
                        busyWorkers: pool.busy.load(ordering: .relaxed), stoppingWorkers: pool.stopping.load(ordering: .relaxed),
                        ready: isReady, imagePixelLimit: configuration.scan.imageLimits.maxPixels) + extra).utf8))
        default:
            response = errorResponse(Self.routingError(request), for: request)
        }
        finish(&response, for: request)
        metrics.recordResponse(path: request.path, status: response.status, uploadedBytes: request.uploadedBytes)
        return response
    }

    /// Adds lines to every `/metrics` answer (a server's own counters). Called once, by the
    /// host, before it serves. The service keeps `lines` for as long as it lives, so `lines`
    /// must not hold the service, or anything that holds it, strongly: that would be a cycle.
    public func setAdditionalMetrics(_ lines: @escaping @Sendable () -> String) {
        additional.withLock { $0 = lines }
    }

    /// When a refused request may try again, in seconds: the queue's wait at the recent mean
    /// recognition time, at least 1 s and at most 2 minutes.
    public var retryAfterSeconds: Int { retryAfterSecondsNow() }

    /// The answer to a request the server refuses before handing it over (over the upload
    /// limit, too slow to arrive, arriving while the service stops), in the same shape as
    /// every other error: the page for the page's path, JSON otherwise.
    public func refusal(_ error: ServiceError, method: String, path: String, requestID: String, uploadedBytes: Int) -> HTTPResponse {
        let request = HTTPRequest(method: method, path: path, id: requestID)
        var response = errorResponse(error, for: request)
        finish(&response, for: request)
        metrics.recordResponse(path: path, status: response.status, uploadedBytes: uploadedBytes)
        return response
    }

    // MARK: - Routes

    /// `POST /v1/poems`.
    private func apiPost(_ request: HTTPRequest) async -> HTTPResponse {
        do throws(ServiceError) {
            guard !draining.load(ordering: .relaxed) else { throw .shuttingDown }
            let upload = try Upload(request)
            let options = try PoemRequestOptions(
                fields: request.query + upload.fields, defaults: configuration.workerScan, maxTimeLimit: configuration.maxTimeLimit)
            let poem = try await scan(upload, configuration: options.scan)
            if poem.page.timedOut {
                throw ServiceError(
                    .timedOut,
                    message:
                        "\(upload.name): the time limit of \((options.scan.recognition.timeLimit ?? .zero).secondsText) s stopped recognition; partialText holds what was read by then",
                    partialText: poem.text)
            }
            let format = options.export.format
            let exportOptions = options.export.exportOptions(stamp: .now())
            let body: Data
            do throws(SnapPoemError) {
                body = try await offload { () throws(SnapPoemError) in try poem.exported(as: format, options: exportOptions) }
            } catch {
                throw ServiceError(error)
            }
            var response = HTTPResponse(status: 200, body: body)
            response.setHeader("Content-Type", format.mediaType)
            if options.export.sideBySide {
                // The side-by-side page embeds its photo as a data: URL; nothing may run.
                response.setHeader("Content-Security-Policy", Self.exportPolicy + "; img-src data:")
            }
            response.setHeader("Content-Disposition", "inline; filename=\"poem.\(format.fileExtension)\"")
            Self.addPersonalizationHeaders(&response, poem: poem)
            return response
        } catch {
            return errorResponse(error, for: request)
        }
    }

    /// `POST /`: the page's form, answered with the note page (or the form again, with the
    /// problem, and with the photo when the photo was not the problem, so that it need not be
    /// chosen again).
    private func pagePost(_ request: HTTPRequest) async -> HTTPResponse {
        let page = page(for: request)
        var state = ServicePage.FormState()
        for part in request.form ?? [] {
            if part.name == "find" { state.find = part.text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "" }
            if part.name == "replaceWith" { state.replaceWith = part.text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "" }
            if part.name == "showReading" { state.showsReading = ["true", "on", "1", "yes"].contains(part.text?.lowercased() ?? "") }
        }
        var photo: (name: String, data: Data)?
        do throws(ServiceError) {
            guard !draining.load(ordering: .relaxed) else { throw .shuttingDown }
            guard var form = request.form else {
                throw ServiceError(.unsupportedMediaType, message: "the page's form must be sent as multipart/form-data")
            }
            try KeptPhoto.restore(into: &form, maxUploadBytes: configuration.maxUploadBytes)
            var posted = request
            posted.form = form
            let upload = try Upload(posted)
            photo = (upload.name, upload.image)
            var leading: [(replacement: Replacement, source: String)] = []
            switch (state.find.isEmpty, state.replaceWith.isEmpty) {
            case (true, true): break
            case (false, false): leading.append((Replacement(find: state.find, replaceWith: state.replaceWith), "the form"))
            case (false, true):
                state.invalidField = "replaceWith"
                throw .badOption(page.text.replaceWithMissing)
            case (true, false):
                state.invalidField = "find"
                throw .badOption(page.text.findMissing)
            }
            var fields = upload.fields
            if !fields.contains(where: { $0.name == "ignoreCase" }) { fields.append(HTTPField(name: "ignoreCase", value: "true")) }
            var options = try PoemRequestOptions(
                fields: request.query + fields, defaults: configuration.workerScan, maxTimeLimit: configuration.maxTimeLimit,
                leadingReplacements: leading, ignoring: ["find", "replaceWith", "showReading"])
            if state.showsReading { options.scan.keepsUprightImage = true }
            let poem = try await scan(upload, configuration: options.scan)
            var notices = poem.personalized.unmatched.map { unmatched in
                guard let closest = unmatched.closest else { return page.text.unmatched(unmatched.find) }
                return page.text.closest(unmatched.find, closest.word, closest.line)
            }
            if !poem.page.hasText, !poem.page.timedOut { notices.append(page.text.noText) }
            if poem.page.timedOut { notices.append(page.text.timedOut) }
            let languageTag = LanguageTag.forTesseract(options.scan.engine.languages)
            // The annotated photo, the downloads and the note page are made off Swift's
            // cooperative threads: they take CPU in proportion to the poem and the photo.
            let showsReading = state.showsReading
            let shownNotices = notices
            let html = await offload { () -> String in
                var notices = shownNotices
                // "Show what was read": the annotated photo under the note, its replaced words
                // linked to their boxes; drawn in memory and embedded, never written anywhere.
                var reading: AnnotatedPhotoHTML?
                if showsReading {
                    do throws(SnapPoemError) {
                        reading = try AnnotatedPhotoHTML(poem: poem, imageMaximumSide: 1200)
                    } catch {
                        notices.append(page.text.readingFailed(error.description))
                    }
                }
                let note = ServicePage.Note(
                    text: poem.text, notices: notices, doubts: ServicePage.Doubt.of(poem.uncertainWords(), in: poem.text),
                    languageTag: languageTag, downloads: Self.downloads(of: poem.text, languageTag: languageTag, page: page.text),
                    mailto: MailtoLink.url(forText: poem.text), reading: reading)
                return page.note(note)
            }
            var response = Self.html(html, status: poem.page.timedOut ? 504 : 200, page: page)
            Self.addPersonalizationHeaders(&response, poem: poem)
            return response
        } catch {
            state.error = Self.pageMessage(for: error, text: page.text)
            if let photo, KeptPhoto.survives(error) {
                if let kept = KeptPhoto(name: photo.name, data: photo.data, maxUploadBytes: configuration.maxUploadBytes) {
                    state.kept = kept
                } else {
                    state.notKept = ByteCount(photo.data.count).description
                }
            }
            var response = Self.html(page.form(state), status: error.status, page: page)
            if let seconds = error.retryAfterSeconds { response.setHeader("Retry-After", "\(seconds)") }
            return response
        }
    }

    /// `GET /readyz`: 200 while new images are taken, 503 when stopping, when the queue is
    /// full, or when every engine is still finishing work whose answer was already given (a
    /// time limit or a cancellation stopped waiting for it): a load balancer then sends the
    /// next request elsewhere. An engine counts as busy until Tesseract has stopped
    /// (`stopping`).
    private func readiness() -> HTTPResponse {
        let depth = pool.depth.load(ordering: .relaxed)
        let busy = pool.busy.load(ordering: .relaxed)
        let stopping = pool.stopping.load(ordering: .relaxed)
        if draining.load(ordering: .relaxed) {
            var response = Self.json(["status": "stopping"], status: 503)
            response.setHeader("Retry-After", "5")
            return response
        }
        let counts = ["workers": "\(pool.size)", "busy": "\(busy)", "stopping": "\(stopping)", "queueDepth": "\(depth)"]
        if pool.isFull || pool.allStopping {
            var response = Self.json(counts.merging(["status": "busy"]) { $1 }, status: 503)
            response.setHeader("Retry-After", "\(retryAfterSecondsNow())")
            return response
        }
        return Self.json(counts.merging(["status": "ready"]) { $1 }, status: 200)
    }

    // MARK: - Scanning

    /// Reads `upload` with a worker's engine, waiting in the queue if need be (once its
    /// header is within the limits). The worker
    /// goes back to the pool once its engine has stopped (`ScanWorkerPool.release`), not
    /// when the answer is ready: after a time limit or a cancellation, Tesseract may still be
    /// finishing its layout analysis.
    private func scan(_ upload: Upload, configuration: ScanConfiguration) async throws(ServiceError) -> ScannedPoem {
        // What the image's header declares is checked before it waits for an engine: an
        // upload over the pixel limit, or no image at all, is refused at once.
        do throws(SnapPoemError) {
            _ = try ImageDecoder.checkHeader(data: upload.image, name: upload.name, limits: configuration.imageLimits)
        } catch {
            throw ServiceError(error)
        }
        let lease: ScanWorkerPool.Lease
        // A request waits for an engine at most the longest recognition the service allows:
        // every engine may be finishing layout analysis abandoned by earlier requests' time
        // limits, which Tesseract cannot stop and which a hostile page keeps going for minutes.
        let wait = self.configuration.maxTimeLimit
        do throws(ScanWorkerPool.Refusal) {
            lease = try await pool.checkOut(waitingAtMost: wait)
        } catch {
            switch error {
            case .queueFull:
                throw ServiceError(
                    .busy,
                    message:
                        "all \(pool.size) engines are busy and \(pool.queueLimit) requests are waiting; try again in \(retryAfterSecondsNow()) s",
                    retryAfterSeconds: retryAfterSecondsNow())
            case .waitedTooLong:
                throw ServiceError(
                    .busy,
                    message:
                        "no engine came free within \(wait.secondsText) s (they are finishing earlier work); try again in \(retryAfterSecondsNow()) s",
                    retryAfterSeconds: retryAfterSecondsNow())
            case .cancelled:
                throw .shuttingDown
            }
        }
        metrics.imageStarted()
        let clock = ContinuousClock()
        let start = clock.now
        let result: Result<ScannedPoem, SnapPoemError>
        do throws(SnapPoemError) {
            let scanner = try await lease.worker.scanner(for: configuration)
            result = .success(try await scanner.scan(imageData: upload.image, name: upload.name, borrowing: lease.loan))
        } catch {
            result = .failure(error)
        }
        await pool.release(lease)
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        metrics.imageFinished(seconds: seconds, timedOut: (try? result.get())?.page.timedOut ?? false)
        switch result {
        case .success(let poem): return poem
        case .failure(let error):
            // An engine the request's own settings asked for (`oem=legacy` on data without the
            // legacy model) that cannot start is the request's mistake, not the server's.
            if case .engineInitializationFailed = error, configuration.engine != self.configuration.scan.engine {
                throw .badOption(error.description)
            }
            throw ServiceError(error)
        }
    }

    /// When a refused request may try again: when the first engine is expected to come free,
    /// then the queue's wait at the recent mean recognition time; at least 1 s and at most
    /// 2 minutes (`retryAfterSeconds(busyFor:queueDepth:workers:meanSeconds:)`).
    private func retryAfterSecondsNow() -> Int {
        let now = ContinuousClock.now
        let busyFor = pool.busySince.withLock { $0.values.map { (now - $0).inSeconds } }
        return Self.retryAfterSeconds(
            busyFor: busyFor, queueDepth: pool.depth.load(ordering: .relaxed), workers: pool.size,
            meanSeconds: metrics.meanRecognitionSeconds)
    }

    /// When a request refused now may try again, from how long each busy engine has been at
    /// its work (`busyFor`, seconds), the requests waiting and the recent mean recognition
    /// time. An engine is expected to come free at the mean, or, once its work has outlived
    /// the mean, after about as long again as it has run (work that has run long is work
    /// that runs long: a page whose layout analysis outlived its time limit goes on for as
    /// long as it takes, which the mean of ordinary pages says nothing about). With every
    /// engine busy, the wait is the first to come free, then the queue ahead at the mean per
    /// engine. At least 1 s, at most 2 minutes.
    static func retryAfterSeconds(busyFor: [Double], queueDepth: Int, workers: Int, meanSeconds: Double) -> Int {
        let workers = max(1, workers)
        let firstFree: Double
        if busyFor.count < workers {
            firstFree = 0
        } else {
            firstFree = busyFor.map { $0 < meanSeconds ? meanSeconds - $0 : $0 }.min() ?? 0
        }
        let queued = Double(queueDepth) / Double(workers) * meanSeconds
        let seconds = (firstFree + queued).rounded(.up)
        return Int(min(120, max(1, seconds)))
    }

    // MARK: - Responses

    /// 404 for an unknown path, 405 (with `Allow`) for a known path and another method.
    static func routingError(_ request: HTTPRequest) -> ServiceError {
        let allowed: [String: [String]] = [
            "/": ["GET", "HEAD", "POST"], "/note": ["POST"], "/v1/poems": ["POST"], "/healthz": ["GET", "HEAD"],
            "/readyz": ["GET", "HEAD"],
            "/metrics": ["GET", "HEAD"], "/openapi.json": ["GET", "HEAD"],
        ]
        if let methods = allowed[request.path] {
            return ServiceError(
                .methodNotAllowed, message: "\(request.path) takes \(methods.joined(separator: ", ")), not \(request.method)",
                allowedMethods: methods)
        }
        return ServiceError(
            .notFound, message: "no such path; the API is POST /v1/poems and the page is GET /")
    }

    /// An error in the shape its path calls for: the page for the page's paths (`/` and
    /// `/note`), JSON otherwise.
    func errorResponse(_ error: ServiceError, for request: HTTPRequest) -> HTTPResponse {
        if Self.pagePaths.contains(request.path) {
            let page = page(for: request)
            let message =
                request.path == "/note" && error.code == .payloadTooLarge
                ? page.text.textTooLong(ByteCount(NoteEdit.maxBodyBytes).description) : Self.pageMessage(for: error, text: page.text)
            var response = Self.html(page.form(ServicePage.FormState(error: message)), status: error.status, page: page)
            if let seconds = error.retryAfterSeconds { response.setHeader("Retry-After", "\(seconds)") }
            if let methods = error.allowedMethods { response.setHeader("Allow", methods.joined(separator: ", ")) }
            return response
        }
        var response = HTTPResponse(
            status: error.status, headers: [HTTPField(name: "Content-Type", value: "application/json")],
            body: error.jsonBody(requestID: request.id))
        if let seconds = error.retryAfterSeconds { response.setHeader("Retry-After", "\(seconds)") }
        if let methods = error.allowedMethods { response.setHeader("Allow", methods.joined(separator: ", ")) }
        return response
    }

    /// A problem as the page shows it to a person, in the page's language (the messages of
    /// other problems are the library's, in English).
    static func pageMessage(for error: ServiceError, text: PageText) -> String {
        switch error.code {
        case .missingImage: return text.missingImage
        case .unsupportedMediaType: return text.unsupportedImage(error.message)
        case .damagedImage: return text.damagedImage
        case .payloadTooLarge: return text.imageTooLarge(error.message)
        case .tooManyMarks: return text.tooManyMarks
        case .busy, .shuttingDown: return text.busy
        default:
            let message = error.message
            return message.prefix(1).uppercased() + message.dropFirst() + (message.hasSuffix(".") ? "" : ".")
        }
    }

    /// The headers every answer carries: the request's id, no caching (answers hold the
    /// user's poem and names), no MIME sniffing, no referrer, no framing; a strict policy on
    /// everything that is not the page (which sets its own).
    private func finish(_ response: inout HTTPResponse, for request: HTTPRequest) {
        response.setHeader("X-Request-Id", request.id)
        response.setHeader("Cache-Control", "no-store")
        response.setHeader("X-Content-Type-Options", "nosniff")
        response.setHeader("Referrer-Policy", "no-referrer")
        response.setHeader("X-Frame-Options", "DENY")
        if response.header("Content-Security-Policy") == nil {
            response.setHeader("Content-Security-Policy", Self.exportPolicy)
        }
    }

    /// The policy of every answer that is not the page: the love note's HTML export carries
    /// its style inline; nothing may run.
    static let exportPolicy = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

    /// A page, with its nonce'd policy; its language follows `Accept-Language`.
    static func html(_ text: String, status: Int, page: ServicePage) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [
                HTTPField(name: "Content-Type", value: "text/html; charset=utf-8"),
                HTTPField(name: "Content-Security-Policy", value: page.contentSecurityPolicy),
                HTTPField(name: "Content-Language", value: page.language.tag),
                HTTPField(name: "Vary", value: "Accept-Language"),
            ], body: Data(text.utf8))
    }

    /// A small JSON object of strings.
    static func json(_ object: [String: String], status: Int) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var body = (try? encoder.encode(object)) ?? Data("{}".utf8)
        body.append(0x0A)
        return HTTPResponse(status: status, headers: [HTTPField(name: "Content-Type", value: "application/json")], body: body)
    }

    /// What personalisation did, for clients of formats that cannot say it themselves:
    /// `Snap-Poem-Replacements: 3`, `Snap-Poem-Text-Found: true`, and when FINDs matched
    /// nothing, how many (`Snap-Poem-Unmatched-Count: 2`) and which
    /// (`Snap-Poem-Unmatched: Lenore,Gr%C3%A9ta`): each FIND percent-encoded as UTF-8 (every
    /// byte but ASCII letters, digits, `-`, `.`, `_` and `~`), so the header is ASCII, joined
    /// with commas, as many whole FINDs as fit in `unmatchedHeaderBytes`; the count says
    /// whether some were left out.
    static func addPersonalizationHeaders(_ response: inout HTTPResponse, poem: ScannedPoem) {
        response.setHeader("Snap-Poem-Replacements", "\(poem.personalized.changes.count)")
        let unmatched = poem.personalized.unmatched
        if !unmatched.isEmpty {
            response.setHeader("Snap-Poem-Unmatched-Count", "\(unmatched.count)")
            var listed = ""
            for find in unmatched {
                let encoded = percentEncoded(find.find)
                let needed = (listed.isEmpty ? 0 : 1) + encoded.utf8.count
                guard listed.utf8.count + needed <= unmatchedHeaderBytes else { break }
                listed += (listed.isEmpty ? "" : ",") + encoded
            }
            if !listed.isEmpty { response.setHeader("Snap-Poem-Unmatched", listed) }
        }
        response.setHeader("Snap-Poem-Text-Found", poem.page.hasText ? "true" : "false")
    }

    /// The most bytes of `Snap-Poem-Unmatched`.
    static let unmatchedHeaderBytes = 2048

    /// `text` as UTF-8 with every byte but ASCII letters, digits, `-`, `.`, `_` and `~`
    /// written `%XX`.
    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }
}

extension HTTPRequest {
    /// The bytes of the body as received: the raw body, or the form's parts.
    var uploadedBytes: Int { body.count + (form?.reduce(0) { $0 + $1.data.count } ?? 0) }
}
