import Foundation
import SnapPoem
import Testing

@testable import SnapPoemService

/// The service's request handling called directly, without a socket: routes, options,
/// statuses, headers and bodies, with the real Tesseract.
@Suite("PoemService without a socket")
struct PoemServiceTests {
    /// A raw-body upload of `image` with `query`.
    static func upload(_ image: String, query: String = "", type: String = "image/png") throws -> HTTPRequest {
        HTTPRequest(
            method: "POST", target: "/v1/poems" + (query.isEmpty ? "" : "?" + query),
            headers: [HTTPField(name: "Content-Type", value: type)], body: try Fixtures.sampleData(image))
    }

    @Test(
        "An iPhone's HEIC and an AVIF are read as they are, declared by their own type or as octet-stream",
        arguments: [
            ("formats/Lenore.heic", "image/heic"), ("formats/Lenore.heic", "image/heif"), ("formats/Lenore.avif", "image/avif"),
            ("formats/Lenore.avif", "application/octet-stream"),
        ])
    func heifUpload(image: String, type: String) async throws {
        let service = try await SharedService.get()
        let response = await service.respond(to: try Self.upload(image, query: "replace=Lenore%3DAlex", type: type))
        #expect(response.status == 200, "\(response.text)")
        #expect(occurrences(of: "Alex", in: response.text) == 3)
        #expect(!response.text.contains("Lenore"))
        // A HEIC declared as a JPEG is refused, naming both.
        let wrong = await service.respond(to: try Self.upload(image, type: "image/jpeg"))
        #expect(wrong.status == 415, "\(wrong.text)")
    }

    @Test("A raw upload with replace=Lenore=Alex answers the personalised poem as UTF-8 text")
    func rawUpload() async throws {
        let service = try await SharedService.get()
        let response = await service.respond(to: try Self.upload("Lenore.png", query: "replace=Lenore%3DAlex"))
        #expect(response.status == 200, "\(response.text)")
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(response.text.hasPrefix("Alex\n"))
        #expect(occurrences(of: "Alex", in: response.text) == 3)
        #expect(!response.text.contains("Lenore"))
        #expect(response.header("Snap-Poem-Replacements") == "3")
        #expect(response.header("Snap-Poem-Text-Found") == "true")
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.header("X-Request-Id")?.isEmpty == false)
    }

    @Test("A multipart form: the file field 'image' and options as fields; unmatched names are reported")
    func multipartForm() async throws {
        let service = try await SharedService.get()
        let form = [
            FormPart(
                name: "image", data: Array(try Fixtures.sampleData(Fixtures.stanza)), filename: "stanza.png", contentType: "image/png"),
            FormPart(name: "replace", text: "lenore=Alex"),
            FormPart(name: "replace", text: "Hope=Faith"),
            FormPart(name: "ignoreCase", text: "true"),
            FormPart(name: "format", text: "markdown"),
        ]
        let response = await service.respond(to: HTTPRequest(method: "POST", target: "/v1/poems", form: form))
        #expect(response.status == 200, "\(response.text)")
        #expect(response.header("Content-Type") == "text/markdown; charset=utf-8")
        #expect(response.text.contains("thy love, Alex!"))
        #expect(response.header("Snap-Poem-Unmatched") == "Hope")
    }

    @Test(
        "Every format has its media type, and JSON is the command line's document",
        arguments: ExportFormat.allCases)
    func formats(format: ExportFormat) async throws {
        let service = try await SharedService.get()
        let response = await service.respond(to: try Self.upload(Fixtures.stanza, query: "format=\(format.rawValue)&replace=Lenore%3DAlex"))
        #expect(response.status == 200, "\(response.text)")
        #expect(response.header("Content-Type") == format.mediaType)
        #expect(response.header("Content-Disposition") == "inline; filename=\"poem.\(format.fileExtension)\"")
        #expect(!response.body.isEmpty)
        if format == .json {
            let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(object["schemaVersion"] as? Int == 1)
            #expect((object["text"] as? String)?.contains("thy love, Alex!") == true)
            #expect((object["recognition"] as? [String: Any])?["timedOut"] as? Bool == false)
            #expect(object["source"] as? String == "upload")
        }
        if format == .eml { #expect(response.text.contains("X-Unsent: 1")) }
        if format == .tsv { #expect(response.text.contains("Alex")) }
    }

    @Test(
        "Bad options are 400 with a JSON error naming the field",
        arguments: [
            ("dpi=9", "invalid value '9' for 'dpi': expected a whole number from 70 to 2400"),
            ("fromat=json", "unknown option 'fromat'; did you mean 'format'?"),
            ("format=pdf", "invalid value 'pdf' for 'format': expected one of text, markdown, html, json, eml, hocr, tsv, alto"),
            ("replace=Lenore", "replace: 'Lenore' has no '='; write FIND=REPLACE, e.g. Lenore=Alex"),
            (
                "replace=Lenore%3DAlex&replace=Lenore%3DSam",
                "'Lenore' is replaced twice, by 'Alex' (replace=Lenore=Alex) and by 'Sam' (replace=Lenore=Sam)"
            ),
            ("strictness=loose&exact=true", "'strictness=loose' cannot be combined with 'exact'"),
            ("noRotate=maybe", "invalid value 'maybe' for 'noRotate': expected true or false"),
            // Past the shared service's limit (600 s, three times that under a sanitizer).
            (
                "timeout=\(SharedService.maxSeconds + 300)",
                "invalid value '\(SharedService.maxSeconds + 300)' for 'timeout': this server allows at most \(SharedService.maxSeconds) s"
            ),
            ("to=alex%40example.org", "'to' applies only to format=eml"),
            // A name that made a 5 015-character To: line (RFC 5322 allows 998).
            (
                "format=eml&to=" + String(repeating: "x", count: 5000) + "%20%3Ca%40b.org%3E",
                "to: the name of 'a@b.org' has 5000 characters; at most 200 are taken"
            ),
            ("lang=deu", "language 'deu' not found in tessdata at"),
            // Refused before any model is looked for: each would hold memory the plan does not count.
            (
                "lang=deu%2Beng%2Bfra",
                "lang: 'deu+eng+fra' names 3 languages; a request may name at most 2 (each loads a model, and this server plans memory for an engine of two)"
            ),
            // An engine only the request asked for, that the server's data cannot start (found by schemathesis).
            ("oem=legacy", "Tesseract could not start: the legacy engine needs traineddata that includes it"),
            (
                "timeout=5e-324",
                "invalid value '5e-324' for 'timeout': expected a number of seconds from 0.001 to \(SharedService.maxSeconds)"
            ),
            // This server's limit, not the library's (86400).
            ("timeout=100000", "invalid value '100000' for 'timeout': this server allows at most \(SharedService.maxSeconds) s"),
            ("timeout=soon", "invalid value 'soon' for 'timeout': expected a number of seconds from 0.001 to \(SharedService.maxSeconds)"),
            // osd reads no text.
            ("lang=osd", "lang: language 'osd': 'osd' is Tesseract's orientation and script detection, which reads no text"),
            ("lang=eng%2Bosd", "lang: language 'eng+osd': 'osd' is Tesseract's orientation and script detection"),
            // The numbers sent, against the image sent (1004×428), not clipped and scaled ones.
            ("region=5000,20,100,50", "the region 5000,20,100,50 lies outside the 1004×428 image; nothing was read"),
            ("config=debug_file%3D%2Ftmp%2Fx", "unknown option 'config'"),
            ("tessdata=%2Ftmp", "unknown option 'tessdata'"),
        ])
    func badOptions(query: String, message: String) async throws {
        let service = try await SharedService.get()
        let response = await service.respond(to: try Self.upload(Fixtures.stanza, query: query))
        #expect(response.status == 400, "\(query): \(response.text)")
        #expect(response.header("Content-Type") == "application/json")
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(object["code"] as? String == "bad_option")
        #expect((object["error"] as? String)?.contains(message) == true, "\(object)")
        #expect(object["requestId"] as? String == response.header("X-Request-Id"))
    }

    @Test(
        "Uploads that are no image, or damaged, or missing: 400, 415 and 422",
        arguments: [
            ("formats/not-an-image.png", "image/png", 415, "unsupported_media_type"),
            ("formats/truncated.png", "image/png", 422, "damaged_image"),
            ("formats/truncated.jpg", "image/jpeg", 422, "damaged_image"),
            ("formats/empty.png", "image/png", 400, "missing_image"),
            ("formats/not-an-image.png", "application/octet-stream", 415, "unsupported_media_type"),
            ("formats/not-an-image.png", "application/x-www-form-urlencoded", 415, "unsupported_media_type"),
        ])
    func badUploads(image: String, type: String, status: Int, code: String) async throws {
        let service = try await SharedService.get()
        let response = await service.respond(to: try Self.upload(image, type: type))
        #expect(response.status == status, "\(image): \(response.text)")
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(object["code"] as? String == code)
    }

    @Test(
        "The magic bytes decide when the type says nothing: no Content-Type, octet-stream, curl's default urlencoded",
        arguments: [nil, "application/octet-stream", "application/x-www-form-urlencoded", "image/png", "Image/X-PNG; foo=bar"])
    func bytesDecide(type: String?) async throws {
        let service = try await SharedService.get()
        let request = HTTPRequest(
            method: "POST", target: "/v1/poems?replace=Lenore%3DAlex",
            headers: type.map { [HTTPField(name: "Content-Type", value: $0)] } ?? [], body: try Fixtures.sampleData(Fixtures.stanza))
        let response = await service.respond(to: request)
        #expect(response.status == 200, "\(type ?? "no type"): \(response.text)")
        #expect(response.text.contains("thy love, Alex!"))
    }

    @Test(
        "A declared type that contradicts the bytes is a 415 that says what the bytes are",
        arguments: [
            (
                Fixtures.stanza, "image/jpeg",
                "the body is declared image/jpeg, but its bytes are a PNG image; send it with Content-Type: image/png"
            ),
            (
                "photo-blurred.jpg", "image/png",
                "the body is declared image/png, but its bytes are a JPEG image; send it with Content-Type: image/jpeg"
            ),
            (Fixtures.stanza, "image/heic", "the body is declared image/heic, but its bytes are a PNG image"),
            (Fixtures.stanza, "text/plain", "the body is declared text/plain, but its bytes are a PNG image"),
            (
                "formats/not-an-image.png", "text/plain",
                "upload: not an image snap-poem can read (the data is plain text) (sent as text/plain;"
            ),
        ])
    func contradictingType(image: String, type: String, message: String) async throws {
        let service = try await SharedService.get()
        let response = await service.respond(to: try Self.upload(image, type: type))
        #expect(response.status == 415, "\(response.text)")
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(object["code"] as? String == "unsupported_media_type")
        #expect((object["error"] as? String)?.hasPrefix(message) == true, "\(object)")
    }

    @Test("A form without an image, or with two, is 400")
    func formWithoutImage() async throws {
        let service = try await SharedService.get()
        let none = await service.respond(
            to: HTTPRequest(method: "POST", target: "/v1/poems", form: [FormPart(name: "replace", text: "A=B")]))
        #expect(none.status == 400)
        #expect(none.text.contains("missing_image"))
        let image = FormPart(name: "image", data: [1, 2, 3], filename: "a.png")
        let two = await service.respond(to: HTTPRequest(method: "POST", target: "/v1/poems", form: [image, image]))
        #expect(two.status == 400)
    }

    @Test("Unknown paths are 404; known paths with another method are 405 with Allow")
    func routing() async throws {
        let service = try await SharedService.get()
        let missing = await service.respond(to: HTTPRequest(method: "GET", target: "/v2/poems"))
        #expect(missing.status == 404)
        #expect(missing.text.contains("\"code\":\"not_found\""))
        let wrong = await service.respond(to: HTTPRequest(method: "GET", target: "/v1/poems"))
        #expect(wrong.status == 405)
        #expect(wrong.header("Allow") == "POST")
        let put = await service.respond(to: HTTPRequest(method: "PUT", target: "/"))
        #expect(put.status == 405)
        #expect(put.header("Allow") == "GET, HEAD, POST")
    }

    @Test(
        "A query parameter holding %00 or bytes that are not UTF-8 is 400, never cut short or replaced",
        arguments: [
            ("replace=Lenore%3DA%00lex", "the query parameter 'replace' holds a NUL byte (%00)"),
            ("replace=Lenore%3D%FF%FE", "the query parameter 'replace' is not UTF-8 text"),
            ("lang=eng%00", "the query parameter 'lang' holds a NUL byte (%00)"),
        ])
    func queryBytes(query: String, message: String) async throws {
        let service = try await SharedService.get()
        let response = await service.respond(to: try Self.upload(Fixtures.stanza, query: query))
        #expect(response.status == 400, "\(response.text)")
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(object["code"] as? String == "bad_option")
        #expect(object["error"] as? String == message)
    }

    @Test("The time limit stopping recognition is 504 with what was read, and counted in /metrics")
    func timedOut() async throws {
        let service = try await SharedService.get()
        let response = await service.respond(to: try Self.upload("Lenore.png", query: "timeout=0.05&maxDimension=none"))
        #expect(response.status == 504, "\(response.text)")
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(object["code"] as? String == "timed_out")
        #expect(object["timedOut"] as? Bool == true)
        #expect(object["partialText"] is String)
        let metrics = await service.respond(to: HTTPRequest(method: "GET", target: "/metrics"))
        let line = metrics.text.split(separator: "\n").first { $0.hasPrefix("snap_poem_recognitions_timed_out_total ") }
        #expect((line?.split(separator: " ").last).flatMap { Int($0) }.map { $0 >= 1 } == true, "\(metrics.text)")
    }

    @Test("/healthz, /readyz and /metrics")
    func probesAndMetrics() async throws {
        let service = try await SharedService.get()
        let health = await service.respond(to: HTTPRequest(method: "GET", target: "/healthz"))
        #expect(health.status == 200)
        #expect(health.text == "{\"status\":\"ok\"}\n")
        let ready = await service.respond(to: HTTPRequest(method: "GET", target: "/readyz"))
        #expect(ready.status == 200)
        #expect(ready.text.contains("\"status\":\"ready\""))
        _ = await service.respond(to: try Self.upload(Fixtures.stanza))
        let metrics = await service.respond(to: HTTPRequest(method: "GET", target: "/metrics"))
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        let lines = metrics.text.split(separator: "\n").map(String.init)
        for name in [
            "snap_poem_http_requests_total", "snap_poem_queue_depth", "snap_poem_images_in_flight", "snap_poem_recognition_seconds",
        ] {
            #expect(
                lines.contains("# TYPE \(name) \(name.hasSuffix("_total") ? "counter" : name.hasSuffix("seconds") ? "histogram" : "gauge")")
            )
        }
        #expect(lines.contains { $0.hasPrefix("snap_poem_http_requests_total{route=\"/v1/poems\",code=\"200\"} ") })
        let count = lines.first { $0.hasPrefix("snap_poem_recognition_seconds_count ") }?.split(separator: " ").last.flatMap { Int($0) }
        let infinite = lines.first { $0.hasPrefix("snap_poem_recognition_seconds_bucket{le=\"+Inf\"} ") }?.split(separator: " ").last
            .flatMap { Int($0) }
        #expect((count ?? 0) >= 1)
        #expect(count == infinite)
        // Every sample line is `name{labels} value` with a number.
        for line in lines where !line.hasPrefix("#") {
            #expect(Double(line.split(separator: " ").last ?? "") != nil, "\(line)")
        }
    }

    @Test("A full queue is refused at once with 503 and Retry-After; /readyz says busy")
    func queueFull() async throws {
        let service = try await PoemService(configuration: ServiceConfiguration(workers: 1, queueLimit: 0, maxTimeLimit: .seconds(600)))
        let first = Task { await service.respond(to: try Self.upload("Lenore.png")) }
        // Waits for the event, the first request holding the worker, not for a time: under a
        // sanitizer on a busy machine, its engine loaded after more than 30 s (2026-12-07). The
        // bound is the service's own time limit.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(600))
        while service.isReady, clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        try #require(!service.isReady, "the first request never held the worker")
        let ready = await service.respond(to: HTTPRequest(method: "GET", target: "/readyz"))
        #expect(ready.status == 503)
        #expect(ready.text.contains("busy"))
        let refused = await service.respond(to: try Self.upload(Fixtures.stanza))
        #expect(refused.status == 503)
        #expect(refused.text.contains("\"code\":\"busy\""))
        #expect(Int(refused.header("Retry-After") ?? "").map { $0 >= 1 } == true)
        #expect(try await first.value.status == 200)
        #expect(await service.respond(to: HTTPRequest(method: "GET", target: "/readyz")).status == 200)
    }

    @Test("A stopping service refuses new images with 503 and says so at /readyz; /healthz stays 200")
    func draining() async throws {
        let service = try await PoemService(configuration: ServiceConfiguration(workers: 1, queueLimit: 1))
        service.beginDraining()
        let refused = await service.respond(to: try Self.upload(Fixtures.stanza))
        #expect(refused.status == 503)
        #expect(refused.text.contains("shutting_down"))
        #expect(refused.header("Retry-After") != nil)
        #expect(await service.respond(to: HTTPRequest(method: "GET", target: "/readyz")).status == 503)
        #expect(await service.respond(to: HTTPRequest(method: "GET", target: "/healthz")).status == 200)
    }

    @Test("lang=fra+eng written with a literal '+' (a space once decoded) is read as fra+eng")
    func languagesWithSpace() async throws {
        let service = try await SharedService.get()
        // It was 400: "'eng fra' is not a language code".
        for query in ["lang=eng+fra", "lang=eng%2Bfra", "lang=%20eng%20%20fra", "lang=fra+eng"] {
            let response = await service.respond(to: try Self.upload(Fixtures.stanza, query: query))
            #expect(response.status == 200, "\(query): \(response.text)")
            #expect(response.text.contains("thy love, Lenore!"), "\(query): \(response.text)")
        }
    }

    @Test(
        "Retry-After: the first engine expected to come free, then the queue; work that outlived the mean is expected to run as long again",
        arguments: [
            ([Double](), 0, 1, 2.0, 1),  // an engine is free
            ([0.5], 0, 1, 2.0, 2),  // 1.5 s left of an ordinary page
            ([0.5], 3, 1, 2.0, 8),  // then three pages ahead
            ([100.0], 0, 1, 2.0, 100),  // a page stuck in layout analysis for 100 s
            ([1.0, 300.0], 2, 2, 2.0, 3),  // the ordinary one frees first, then two ahead on two engines
            ([500.0], 0, 1, 2.0, 120),  // at most 2 minutes
        ])
    func retryAfter(busyFor: [Double], depth: Int, workers: Int, mean: Double, expected: Int) {
        #expect(PoemService.retryAfterSeconds(busyFor: busyFor, queueDepth: depth, workers: workers, meanSeconds: mean) == expected)
    }

    @Test("A request for other languages gets an engine of its own, loaded once per worker")
    func otherLanguages() async throws {
        let service = try await SharedService.get()
        let english = await service.respond(to: try Self.upload(Fixtures.stanza, query: "lang=eng&format=json"))
        #expect(english.status == 200, "\(english.text)")
        let object = try #require(try JSONSerialization.jsonObject(with: english.body) as? [String: Any])
        #expect((object["text"] as? String)?.contains("Lenore") == true)
    }
}

/// The HTTP service reads its options with the command line's rules (`ScanOption`).
@Suite("Options over HTTP and on the command line")
struct RequestOptionTests {
    @Test("The same options give the same configuration, whichever front end reads them")
    func sameRules() throws {
        let fields = [
            ("replace", "Lenore=Alex"), ("ignoreCase", "true"), ("strictness", "loose"), ("maxDimension", "2000"), ("filter", "adaptive"),
            ("noRotate", "1"), ("noDeskew", "yes"), ("psm", "single-block"), ("dpi", "200"), ("region", "0,0,100,50"), ("timeout", "2.5"),
            ("lang", "eng"), ("preserveSpaces", ""), ("noCleanup", "on"), ("allow", "abc"),
        ]
        let options = try PoemRequestOptions(
            fields: fields.map { HTTPField(name: $0.0, value: $0.1) }, defaults: ScanConfiguration(), maxTimeLimit: .seconds(30))
        var expected = ScanConfiguration()
        try expected.apply([
            .replace: ["Lenore=Alex"], .ignoreCase: [""], .strictness: ["loose"], .maxDimension: ["2000"], .filter: ["adaptive"],
            .noRotate: [""], .noDeskew: [""], .psm: ["single-block"], .dpi: ["200"], .region: ["0,0,100,50"], .timeout: ["2.5"],
            .lang: ["eng"], .preserveSpaces: [""], .noCleanup: [""], .allow: ["abc"],
        ])
        #expect(options.scan == expected)
        #expect(options.scan.preprocessing.scaling == .maxDimension(2000))
        #expect(options.scan.recognition.timeLimit == .milliseconds(2500))
        #expect(!options.scan.replacements.options.caseSensitive)
    }

    @Test("Switches given as false are off; no timeout means the server's limit")
    func defaults() throws {
        let options = try PoemRequestOptions(
            fields: [HTTPField(name: "noRotate", value: "false"), HTTPField(name: "format", value: "HOCR")], defaults: ScanConfiguration(),
            maxTimeLimit: .seconds(30))
        #expect(options.scan.preprocessing.detectsOrientation)
        #expect(options.scan.recognition.timeLimit == .seconds(30))
        #expect(options.export.format == .hocr)
        #expect(options.scan.recognition.renderings.contains(.hocr))
    }

    @Test("Every scan option has an HTTP field in camelCase")
    func spelling() {
        #expect(PoemRequestOptions.camelCase("max-dimension") == "maxDimension")
        #expect(PoemRequestOptions.camelCase("preserve-spaces") == "preserveSpaces")
        #expect(PoemRequestOptions.scanFields.count == ScanOption.allCases.count)
    }
}
