import Foundation
import SnapPoem

/// The OpenAPI 3.0 description of the service's API, served at `GET /openapi.json`:
/// `POST /v1/poems` (the image as the body or in a `multipart/form-data` form, every
/// option, every answer and error body) and the health routes.
///
/// Generated from the code's own tables, so it cannot drift from what the service does: the
/// options from `ScanOption` (names, summaries, values) and the export fields of
/// `PoemRequestOptions`, the formats and their media types from `ExportFormat`, the image
/// media types from `ImageFormat`, and the error codes and statuses from
/// `ServiceError.Code`. The page's own routes (`/` and `/note`, HTML for browsers) are not
/// part of the API and are left out.
enum OpenAPIDocument {
    /// The document as JSON text, for a service configured as `configuration`.
    static func text(configuration: ServiceConfiguration) -> String {
        document(configuration: configuration).text
    }

    /// The codes `POST /v1/poems` can answer with: all but the routing ones.
    static let poemCodes = ServiceError.Code.allCases.filter { $0 != .notFound && $0 != .methodNotAllowed }

    /// The codes any route can get from the server before the service sees the request: a
    /// query it will not read (over 100 parameters, a NUL byte), a form body it cannot parse,
    /// a body that stopped arriving or is over the limit, a request target or headers over the
    /// limit, the upload budget
    /// spent, an address past its share, the server stopping.
    static let serverCodes: [ServiceError.Code] = [
        .badOption, .badForm, .requestTimeout, .payloadTooLarge, .uriTooLong, .headersTooLarge, .tooManyUploads, .tooManyRequests,
        .shuttingDown,
    ]

    /// The document.
    static func document(configuration: ServiceConfiguration) -> JSONValue {
        .object([
            "openapi": "3.0.3",
            "info": .object([
                "title": "snap-poem",
                "version": .string(Versions.snapPoem),
                "description": .string(description(configuration: configuration)),
                "license": .object(["name": "MIT"]),
            ]),
            "paths": paths(configuration: configuration),
            "components": components(),
        ])
    }

    private static func description(configuration: ServiceConfiguration) -> String {
        """
        Turns a photo of a poem into its text, personalised (replace=Lenore=Alex) and exported (text, Markdown, HTML, JSON, e-mail, hOCR, TSV, ALTO).

        Send the image as the body, with the options in the query, or as the field `image` of a multipart/form-data form, with the options as fields (query options are read too). The image's first bytes decide what it is: a body with no Content-Type, `application/octet-stream`, or `application/x-www-form-urlencoded` (curl's default for `--data-binary`) is read as the image it is; a declared type that contradicts the bytes is a 415. This server takes bodies up to \(ByteCount(configuration.maxUploadBytes)) and recognises for at most \(configuration.maxTimeLimit.secondsText) s.

        Every error is JSON: `{"code": …, "error": …, "requestId": …}`, with one line for a person in `error`; the codes are stable. Any other path answers 404 `not_found`, and a known path asked with another method 405 `method_not_allowed` with `Allow`. HEAD is answered on every GET route. Every answer carries `X-Request-Id`.
        """
    }

    // MARK: - Paths

    private static func paths(configuration: ServiceConfiguration) -> JSONValue {
        .object([
            "/v1/poems": .object(["post": poemOperation(configuration: configuration)]),
            "/healthz": .object([
                "get": simpleOperation(
                    id: "health", summary: "Liveness: 200 while the process serves at all.",
                    ok: .object([
                        "description": "Alive.",
                        "headers": commonHeaders(),
                        "content": .object([
                            "application/json": .object(["schema": statusSchema(["ok"], extra: [])])
                        ]),
                    ]))
            ]),
            "/readyz": .object([
                "get": simpleOperation(
                    id: "readiness",
                    summary:
                        "Readiness: 200 while new images are taken, 503 when the queue is full, every engine is stopping, or the server stops.",
                    ok: .object([
                        "description": "New images are taken.",
                        "headers": commonHeaders(),
                        "content": .object([
                            "application/json": .object([
                                "schema": statusSchema(
                                    ["ready"],
                                    extra: [("workers", "How many engines read images."), busyField, stoppingField, queueDepthField])
                            ])
                        ]),
                    ]),
                    unavailable: statusSchema(
                        ["busy", "stopping"],
                        extra: [("workers", "How many engines read images."), busyField, stoppingField, queueDepthField],
                        required: false))
            ]),
            "/metrics": .object([
                "get": simpleOperation(
                    id: "metrics", summary: "Metrics in the Prometheus text format 0.0.4.",
                    ok: .object([
                        "description": "The metrics.",
                        "headers": commonHeaders(),
                        "content": .object([
                            "text/plain; version=0.0.4; charset=utf-8": .object(["schema": .object(["type": "string"])])
                        ]),
                    ]))
            ]),
            "/openapi.json": .object([
                "get": simpleOperation(
                    id: "openapi", summary: "This document.",
                    ok: .object([
                        "description": "The OpenAPI 3.0 document.",
                        "headers": commonHeaders(),
                        "content": .object(["application/json": .object(["schema": .object(["type": "object"])])]),
                    ]))
            ]),
        ])
    }

    private static let queueDepthField = ("queueDepth", "How many requests wait for an engine.")
    private static let busyField = ("busy", "How many engines are not free: reading an image, or stopping.")
    private static let stoppingField = (
        "stopping", "How many engines finish work whose answer was already given (a time limit, a cancellation); free once Tesseract stops."
    )

    /// A GET operation with its 200 and what the server may answer first (stopping, body
    /// too large); `unavailable` is the route's own 503 body, besides the error.
    private static func simpleOperation(id: String, summary: String, ok: JSONValue, unavailable: JSONValue? = nil) -> JSONValue {
        var responses: [(String, JSONValue)] = [("200", ok)]
        for (status, codes) in grouped(serverCodes) {
            if status == 503, let unavailable {
                responses.append(
                    (
                        "503",
                        .object([
                            "description": "Not ready: the queue is full or the server is stopping.",
                            "headers": commonHeaders(retryAfter: true),
                            "content": .object([
                                "application/json": .object([
                                    "schema": .object(["oneOf": [unavailable, errorSchemaReference(status)]])
                                ])
                            ]),
                        ])
                    ))
            } else {
                responses.append((String(status), errorResponse(status: status, codes: codes)))
            }
        }
        return .object([
            "operationId": .string(id),
            "summary": .string(summary),
            "responses": .object(responses),
        ])
    }

    /// `{"status": …}` with string fields.
    private static func statusSchema(_ statuses: [String], extra: [(String, String)], required: Bool = true) -> JSONValue {
        var properties: [(String, JSONValue)] = [("status", .object(["type": "string", "enum": .strings(statuses)]))]
        for (name, description) in extra {
            properties.append((name, .object(["type": "string", "pattern": "^[0-9]+$", "description": .string(description)])))
        }
        return .object([
            "type": "object",
            "required": .strings(["status"] + (required ? extra.map(\.0) : [])),
            "properties": .object(properties),
            "additionalProperties": false,
        ])
    }

    // MARK: - POST /v1/poems

    private static func poemOperation(configuration: ServiceConfiguration) -> JSONValue {
        var responses: [(String, JSONValue)] = [("200", poemResponse())]
        for (status, codes) in grouped(poemCodes) {
            responses.append((String(status), errorResponse(status: status, codes: codes)))
        }
        return .object([
            "operationId": "readPoem",
            "summary": "Read a photo of a poem, personalise it and export it.",
            "description": """
            The image as the body (Content-Type image/…, application/octet-stream, none, or curl's default application/x-www-form-urlencoded: the bytes decide), with the options in the query; or a multipart/form-data form with the file in the field `image` and the options as fields. Switches take true/false (also 1/0, yes/no, on/off; an empty value is true). A request whose lang or oem differs from the server's gets an engine of its own, loaded once.
            """,
            "parameters": .array(fields(configuration: configuration).map(queryParameter)),
            "requestBody": .object([
                "required": true,
                "content": .object(requestBodies(configuration: configuration)),
            ]),
            "responses": .object(responses),
        ])
    }

    /// One field of a poem request: its name, what it does, its schema, whether it repeats.
    struct Field {
        var name: String
        var summary: String
        var schema: JSONValue
        var repeatable = false
    }

    /// Every option a poem request takes, in the order of the option table, then the
    /// export's fields.
    static func fields(configuration: ServiceConfiguration) -> [Field] {
        var fields = ScanOption.allCases.map { option in
            Field(
                name: PoemRequestOptions.camelCase(option.name), summary: summary(of: option, configuration: configuration),
                schema: schema(of: option, configuration: configuration), repeatable: option.isRepeatable)
        }
        for name in PoemRequestOptions.exportFields {
            fields.append(exportField(name))
        }
        return fields
    }

    private static func summary(of option: ScanOption, configuration: ServiceConfiguration) -> String {
        switch option {
        case .timeout:
            return option.summary + " At most \(configuration.maxTimeLimit.secondsText) s here, the default."
        case .lang:
            return option.summary
                + " Default here: \(configuration.scan.engine.languages); other languages, at most \(PoemRequestOptions.maxRequestLanguages)."
        default:
            return option.summary
        }
    }

    private static func schema(of option: ScanOption, configuration: ServiceConfiguration) -> JSONValue {
        let value: JSONValue
        switch option.values {
        case .none: value = switchSchema
        case .text(let example): value = .object(["type": "string", "example": .string(example)])
        case .oneOf(let names): value = .object(["type": "string", "enum": .strings(names)])
        case .wholeNumber(let range):
            value = .object(["type": "integer", "minimum": .integer(range.lowerBound), "maximum": .integer(range.upperBound)])
        case .seconds:
            let limit =
                Double(configuration.maxTimeLimit.components.seconds)
                + Double(configuration.maxTimeLimit.components.attoseconds) / 1e18
            value = .object(["type": "number", "minimum": .number(0.001), "maximum": .number(limit)])
        case .pattern(let pattern, let example):
            value = .object(["type": "string", "pattern": .string(pattern), "example": .string(example)])
        }
        return option.isRepeatable ? .object(["type": "array", "items": value]) : value
    }

    /// `true`/`false` and their other spellings; empty is true.
    ///
    /// Built on each use, never kept in a static: a `JSONValue` is an indirect enum, whose
    /// reference to its box carries the case in its spare bits, so LeakSanitizer cannot follow
    /// it from a global and reported the whole tree as leaked at every exit of `serve`.
    static var switchSchema: JSONValue {
        .object(["type": "string", "enum": .strings(["true", "false", "1", "0", "yes", "no", "on", "off", ""])])
    }

    private static func exportField(_ name: String) -> Field {
        switch name {
        case "format":
            return Field(
                name: name, summary: "The answer's format (default text); each has its own media type.",
                schema: .object(["type": "string", "enum": .strings(ExportFormat.allCases.map(\.rawValue))]))
        case "to":
            return Field(
                name: name, summary: "With format=eml only: the draft's recipients, comma-separated: a@b.org or 'Name <a@b.org>'.",
                schema: .object(["type": "string", "example": "Alex <alex@example.org>"]))
        case "subject":
            return Field(
                name: name, summary: "With format=eml only: the draft's subject (default: the poem's title).",
                schema: .object(["type": "string", "example": "For you"]))
        case "sideBySide":
            return Field(
                name: name,
                summary: "With format=html only: the annotated photo beside the poem, each replaced word a link to its box.",
                schema: switchSchema)
        default:
            // A new export field must be described here; the tests check that every field is.
            return Field(name: name, summary: name, schema: .object(["type": "string"]))
        }
    }

    private static func queryParameter(_ field: Field) -> JSONValue {
        .object([
            "name": .string(field.name),
            "in": "query",
            "required": false,
            "description": .string(field.summary),
            "schema": field.schema,
            "style": field.repeatable ? "form" : nil,
            "explode": field.repeatable ? true : nil,
        ])
    }

    /// The two shapes of a request: the image as the body under each media type that names
    /// an image format snap-poem reads (and `application/octet-stream`), or the form.
    private static func requestBodies(configuration: ServiceConfiguration) -> [(String, JSONValue)] {
        let binary: JSONValue = .object(["schema": .object(["type": "string", "format": "binary"])])
        var bodies: [(String, JSONValue)] = ImageFormat.allCases.compactMap(\.mediaType).map { ($0, binary) }
        bodies.append(("application/octet-stream", binary))
        var properties: [(String, JSONValue)] = [
            ("image", .object(["type": "string", "format": "binary", "description": "The photo of the poem."]))
        ]
        for field in fields(configuration: configuration) {
            properties.append((field.name, addingDescription(field.summary, to: field.schema)))
        }
        bodies.append(
            (
                "multipart/form-data",
                .object([
                    "schema": .object([
                        "type": "object", "required": ["image"], "properties": .object(properties),
                        "additionalProperties": false,
                    ]),
                    "encoding": .object(["image": .object(["contentType": "image/*, application/octet-stream"])]),
                ])
            ))
        return bodies
    }

    private static func addingDescription(_ description: String, to schema: JSONValue) -> JSONValue {
        guard case .object(let pairs) = schema else { return schema }
        return .object(pairs + [("description", .string(description))])
    }

    /// The 200: the export in its format's media type, with what personalisation did.
    private static func poemResponse() -> JSONValue {
        var content: [(String, JSONValue)] = []
        for format in ExportFormat.allCases {
            let schema: JSONValue =
                format == .json
                ? .object([
                    "type": "object", "required": ["schemaVersion", "text"],
                    "description": "The command line's JSON document (Docs/json-schema.md).",
                    "properties": .object([
                        "schemaVersion": .object(["type": "integer", "enum": [1]]),
                        "text": .object(["type": "string"]),
                        "source": .object(["type": "string"]),
                    ]),
                ])
                : .object(["type": "string"])
            content.append((format.mediaType, .object(["schema": schema])))
        }
        var headers: [(String, JSONValue)] = commonHeaderPairs()
        headers += [
            (
                "Snap-Poem-Replacements",
                header("How many replacements were made.", schema: .object(["type": "integer", "minimum": 0]), required: true)
            ),
            ("Snap-Poem-Unmatched", header("The FINDs that matched nothing, percent-encoded UTF-8, comma-separated.")),
            (
                "Snap-Poem-Text-Found",
                header(
                    "false when the photo held no text.", schema: .object(["type": "string", "enum": ["true", "false"]]),
                    required: true)
            ),
            ("Content-Disposition", header("inline; filename=\"poem.EXTENSION\"", required: true)),
        ]
        return .object([
            "description": "The poem in the asked format.",
            "headers": .object(headers),
            "content": .object(content),
        ])
    }

    // MARK: - Errors

    /// Codes by status, in status order.
    static func grouped(_ codes: [ServiceError.Code]) -> [(Int, [ServiceError.Code])] {
        let byStatus = Dictionary(grouping: codes, by: \.status)
        return byStatus.keys.sorted().map { ($0, byStatus[$0] ?? []) }
    }

    private static func errorResponse(status: Int, codes: [ServiceError.Code]) -> JSONValue {
        let description = codes.map { "`\($0.rawValue)`: \($0.summary)" }.joined(separator: " ")
        let retries = codes.contains { $0 == .busy || $0 == .shuttingDown || $0 == .outOfMemory }
        var headers = commonHeaderPairs()
        if retries { headers.append(("Retry-After", header("Seconds after which a retry may succeed.", schema: integerSchema))) }
        return .object([
            "description": .string(description),
            "headers": .object(headers),
            "content": .object(["application/json": .object(["schema": errorSchema(codes)])]),
        ])
    }

    private static func errorSchemaReference(_ status: Int) -> JSONValue {
        .object(["$ref": .string("#/components/schemas/Error\(status)")])
    }

    /// The error body with `code` one of `codes`.
    static func errorSchema(_ codes: [ServiceError.Code]) -> JSONValue {
        let partial = codes.contains(.timedOut)
        return .object([
            "type": "object",
            "required": .strings(["code", "error", "requestId"] + (partial ? ["partialText", "timedOut"] : [])),
            "properties": .object([
                "code": .object(["type": "string", "enum": .strings(codes.map(\.rawValue))]),
                "error": .object(["type": "string", "description": "One line for a person: what is wrong and what to do."]),
                "requestId": .object(["type": "string", "description": "The request's id, as in X-Request-Id."]),
                "retryAfterSeconds": integerSchema,
                "partialText": .object(["type": "string", "description": "What was read before the time limit, personalised."]),
                "timedOut": .object(["type": "boolean"]),
            ]),
            "additionalProperties": false,
        ])
    }

    /// Built on each use, as `switchSchema` is.
    private static var integerSchema: JSONValue { .object(["type": "integer", "minimum": 0]) }

    private static func commonHeaders(retryAfter: Bool = false) -> JSONValue {
        var pairs = commonHeaderPairs()
        if retryAfter { pairs.append(("Retry-After", header("Seconds after which a retry may succeed.", schema: integerSchema))) }
        return .object(pairs)
    }

    private static func commonHeaderPairs() -> [(String, JSONValue)] {
        [
            (
                "X-Request-Id",
                header(
                    "The client's own id when it sent a plain token of up to 64 characters, else a new one.",
                    schema: .object(["type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$"]), required: true)
            )
        ]
    }

    private static func header(_ description: String, schema: JSONValue = .object(["type": "string"]), required: Bool = false)
        -> JSONValue
    {
        .object(["description": .string(description), "required": required ? true : nil, "schema": schema])
    }

    // MARK: - Components

    private static func components() -> JSONValue {
        var schemas: [(String, JSONValue)] = [("Error", errorSchema(ServiceError.Code.allCases))]
        for (status, codes) in grouped(ServiceError.Code.allCases) {
            schemas.append(("Error\(status)", errorSchema(codes)))
        }
        var responses: [(String, JSONValue)] = []
        for (status, codes) in grouped(ServiceError.Code.allCases) {
            responses.append(("Error\(status)", errorResponse(status: status, codes: codes)))
        }
        return .object(["schemas": .object(schemas), "responses": .object(responses)])
    }
}
