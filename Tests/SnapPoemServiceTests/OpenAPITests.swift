import Foundation
import SnapPoem
import Testing

@testable import SnapPoemService

/// `GET /openapi.json`: the API described from the code's own tables, so that no option,
/// format or error code can be missing from it; and the real server tested against it with
/// schemathesis (from the virtual environment `make deps-service` creates).
@Suite("The OpenAPI document")
struct OpenAPITests {
    /// The document as the service serves it, parsed.
    static func document() async throws -> [String: Any] {
        let service = try await SharedService.get()
        let response = await service.respond(to: HTTPRequest(method: "GET", target: "/openapi.json"))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    /// `object[key]` as a dictionary, through a path of keys.
    static func dig(_ object: Any?, _ keys: String...) -> [String: Any]? {
        var current = object
        for key in keys { current = (current as? [String: Any])?[key] }
        return current as? [String: Any]
    }

    /// The `code` enum of the JSON error body an operation declares for `status`.
    static func codes(_ operation: [String: Any]?, status: Int) -> [String] {
        let schema = dig(operation, "responses", String(status), "content", "application/json", "schema")
        if let oneOf = schema?["oneOf"] as? [[String: Any]] {
            // /readyz's 503: its own body or the error; the error is a reference.
            return oneOf.contains { $0["$ref"] as? String == "#/components/schemas/Error\(status)" } ? ["(ref)"] : []
        }
        return dig(schema, "properties", "code")?["enum"] as? [String] ?? []
    }

    @Test("OpenAPI 3.0 covering POST /v1/poems (raw and multipart) and the health routes")
    func shape() async throws {
        let document = try await Self.document()
        #expect(document["openapi"] as? String == "3.0.3")
        let paths = try #require(document["paths"] as? [String: Any])
        #expect(Set(paths.keys) == ["/v1/poems", "/healthz", "/readyz", "/metrics", "/openapi.json"])
        let post = try #require(Self.dig(paths, "/v1/poems", "post"))
        let bodies = try #require(Self.dig(post, "requestBody", "content"))
        for type in [
            "multipart/form-data", "application/octet-stream", "image/png", "image/jpeg", "image/tiff", "image/webp", "image/heic",
            "image/avif",
        ] {
            #expect(bodies[type] != nil, "\(type)")
        }
        let success = try #require(Self.dig(post, "responses", "200", "content"))
        #expect(Set(success.keys) == Set(ExportFormat.allCases.map(\.mediaType)))
        for route in ["/healthz", "/readyz", "/metrics", "/openapi.json"] {
            #expect(Self.dig(paths, route, "get", "responses", "200") != nil, "\(route)")
        }
    }

    @Test("Every field a poem request takes is a query parameter and a form field, described and typed")
    func everyOption() async throws {
        let document = try await Self.document()
        let post = try #require(Self.dig(document, "paths", "/v1/poems", "post"))
        let parameters = try #require(post["parameters"] as? [[String: Any]])
        let names = parameters.compactMap { $0["name"] as? String }
        let known = PoemRequestOptions.knownFields.filter { $0 != "image" }
        #expect(Set(names) == Set(known))
        #expect(names.count == known.count)
        for parameter in parameters {
            let name = parameter["name"] as? String ?? ""
            let description = parameter["description"] as? String ?? ""
            #expect(description.count > 20 && description != name, "\(name) is described: \(description)")
            #expect(parameter["schema"] is [String: Any], "\(name)")
        }
        let form = try #require(
            Self.dig(post, "requestBody", "content", "multipart/form-data", "schema", "properties"))
        #expect(Set(form.keys) == Set(known + ["image"]))
        let format = try #require(parameters.first { $0["name"] as? String == "format" })
        #expect(Self.dig(format, "schema")?["enum"] as? [String] == ExportFormat.allCases.map(\.rawValue))
        let replace = try #require(parameters.first { $0["name"] as? String == "replace" })
        #expect(Self.dig(replace, "schema")?["type"] as? String == "array")
    }

    @Test("Docs/service.md's table of options lists every field a poem request takes")
    func documentedOptions() throws {
        let page = try String(contentsOf: Fixtures.root.appendingPathComponent("Docs/service.md"), encoding: .utf8)
        let table = try #require(page.components(separatedBy: "### Options").dropFirst().first?.components(separatedBy: "###").first)
        let listed = Set(
            table.split(separator: "\n").filter { $0.hasPrefix("| `") }.flatMap { row in
                String(row.split(separator: "|").first ?? "").matches(of: try! Regex("`([A-Za-z]+)`")).map {
                    String($0.output[1].substring ?? "")
                }
            })
        let known = Set(PoemRequestOptions.knownFields.filter { $0 != "image" })
        #expect(known.subtracting(listed).isEmpty, "not in Docs/service.md: \(known.subtracting(listed).sorted())")
        #expect(listed.subtracting(known).isEmpty, "not options: \(listed.subtracting(known).sorted())")
    }

    @Test("Every value the document offers for an option is one the option's rules accept", arguments: ScanOption.allCases)
    func valuesAccepted(option: ScanOption) throws {
        let examples: [String]
        switch option.values {
        case .none: examples = ["true", "false", "1", "0", "yes", "no", "on", "off", ""]
        case .text(let example): examples = [example]
        case .oneOf(let names): examples = names
        case .wholeNumber(let range): examples = [String(range.lowerBound), String(range.upperBound)]
        case .seconds: examples = ["0.001", "2.5", "30"]
        case .pattern(let pattern, let example):
            examples = [example]
            #expect(example.wholeMatch(of: try Regex(pattern)) != nil, "\(option): '\(example)' matches \(pattern)")
        }
        let field = PoemRequestOptions.camelCase(option.name)
        for value in examples {
            #expect(throws: Never.self, "\(field)=\(value)") {
                _ = try PoemRequestOptions(
                    fields: [HTTPField(name: field, value: value)], defaults: ScanConfiguration(), maxTimeLimit: .seconds(30))
            }
        }
    }

    @Test("Every error code the service can send is documented, under its status, in the document and in Docs/service.md")
    func everyCode() async throws {
        let document = try await Self.document()
        let all = try #require(Self.dig(document, "components", "schemas", "Error", "properties", "code"))
        #expect(all["enum"] as? [String] == ServiceError.Code.allCases.map(\.rawValue))
        for code in ServiceError.Code.allCases {
            #expect(Self.dig(document, "components", "responses", "Error\(code.status)") != nil, "\(code)")
        }
        let post = Self.dig(document, "paths", "/v1/poems", "post")
        for code in OpenAPIDocument.poemCodes {
            #expect(Self.codes(post, status: code.status).contains(code.rawValue), "POST /v1/poems documents \(code) under \(code.status)")
        }
        #expect(Set(OpenAPIDocument.poemCodes + [.notFound, .methodNotAllowed]) == Set(ServiceError.Code.allCases))
        for route in ["/healthz", "/readyz", "/metrics", "/openapi.json"] {
            let get = Self.dig(document, "paths", route, "get")
            for code in OpenAPIDocument.serverCodes {
                let listed = Self.codes(get, status: code.status)
                #expect(listed.contains(code.rawValue) || listed == ["(ref)"], "GET \(route) documents \(code)")
            }
        }
        // The person's documentation has the same table: status, code, once each.
        let page = try String(contentsOf: Fixtures.root.appendingPathComponent("Docs/service.md"), encoding: .utf8)
        let rows = page.matches(of: try Regex(#"(?m)^\| (\d{3}) \| `([a-z_]+)` \|"#)).map { match in
            (Int(match.output[1].substring ?? "") ?? 0, String(match.output[2].substring ?? ""))
        }
        #expect(rows.map(\.1).sorted() == ServiceError.Code.allCases.map(\.rawValue).sorted(), "\(rows)")
        for (status, code) in rows {
            #expect(ServiceError.Code(rawValue: code)?.status == status, "Docs/service.md: \(code) is \(status)")
        }
    }

    @Test("schemathesis against the real server: no 5xx but a time limit's 504; statuses, content types, headers and bodies as declared")
    func schemathesis() async throws {
        let tool = Fixtures.root.appendingPathComponent(".build/service-venv/bin/schemathesis").path
        try #require(
            FileManager.default.isExecutableFile(atPath: tool), "\(tool) is missing: run 'make deps-service' (schemathesis)")
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await ServerProcess.with(["--jobs", "1", "--queue", "64"]) { server in
            let run = try await RawHTTPClient.onThread { () -> (Int32, String) in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: tool)
                process.currentDirectoryURL = folder  // its .hypothesis folder goes there
                process.arguments = [
                    "run", "http://127.0.0.1:\(server.port)/openapi.json",
                    "--checks",
                    // Not `not_a_server_error`: it counts every 5xx, and schemathesis sends the
                    // smallest documented `timeout` (1 ms), whose documented answer is a 504
                    // with the partial text when the machine is busy. The server's log is
                    // checked for every other 5xx below.
                    "status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance",
                    "--max-examples", "40", "--request-timeout", "120", "--no-color",
                    // A fixed seed: the same cases every run. Drawn at random, one seed made
                    // schemathesis's own generator fail in its fuzzing phase ("ValueError:
                    // Unsupported type: 'Binary'", a runtime error, not a finding) after all
                    // 878 cases it made had passed.
                    "--seed", "1",
                ]
                var environment = ProcessInfo.processInfo.environment
                environment["HOME"] = folder.path
                process.environment = environment
                let output = Pipe()
                process.standardOutput = output
                process.standardError = output
                process.standardInput = FileHandle.nullDevice
                try process.run()
                DispatchQueue.global().asyncAfter(deadline: .now() + 900) {
                    if process.isRunning { process.terminate() }
                }
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return (process.terminationStatus, String(decoding: data, as: UTF8.self))
            }
            #expect(run.0 == 0, "schemathesis exited \(run.0):\n\(run.1.suffix(6000))")
            #expect(run.1.contains("Operations:") && run.1.contains("passed"), "\(run.1.suffix(3000))")
            // It really read images: schemathesis makes small valid PNGs for image/png bodies.
            #expect(server.log.contains("path=/v1/poems status=200"), "\(server.log.suffix(2000))")
            let serverErrors = server.log.split(separator: "\n").filter {
                $0.contains(" status=5") && !$0.contains(" status=504 ")
            }
            #expect(serverErrors.isEmpty, "\(serverErrors.prefix(5).joined(separator: "\n"))")
        }
    }
}
