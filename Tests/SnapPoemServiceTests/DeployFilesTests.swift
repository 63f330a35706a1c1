import Foundation
import SnapPoemTestSupport
import Testing

/// `deploy/`: the systemd unit and the Kubernetes manifest are data, checked by the tools
/// that read them, and their `snap-poem serve` command lines by snap-poem itself.
@Suite("Deployment files")
struct DeployFilesTests {
    static let deploy = Fixtures.root.appendingPathComponent("deploy")

    /// Runs a program to its end.
    static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await RawHTTPClient.onThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }

    @Test("deploy/kubernetes-service.yaml passes kubernetes-validate --strict; probes, resources and serve's options are right")
    func kubernetes() async throws {
        let validator = Fixtures.root.appendingPathComponent(".build/service-venv/bin/kubernetes-validate").path
        try #require(FileManager.default.isExecutableFile(atPath: validator), "\(validator) is missing: run 'make deps-service'")
        let file = Self.deploy.appendingPathComponent("kubernetes-service.yaml").path
        let validation = try await Self.run(validator, ["--strict", file])
        #expect(validation.status == 0, "\(validation.output)")
        for resource in ["deployment/snap-poem", "service/snap-poem", "poddisruptionbudget/snap-poem"] {
            #expect(validation.output.contains("passed for resource \(resource)"), "\(validation.output)")
        }
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let compact = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(compact.firstIndex(of: "readinessProbe:").map { compact[$0 + 2] } == "path: /readyz")
        #expect(compact.firstIndex(of: "livenessProbe:").map { compact[$0 + 2] } == "path: /healthz")
        #expect(compact.contains("requests:") && compact.contains("limits:") && compact.contains("memory: 1Gi"))
        // The container's arguments are options `snap-poem serve` knows.
        let line = try #require(compact.first { $0.hasPrefix("args: [") })
        let arguments = try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst("args: ".count).utf8)) as? [String])
        #expect(arguments.first == "serve")
        let parsed = try await ServerProcess.run(arguments + ["--help"])
        #expect(parsed.status == 0, "\(parsed.error)")
    }

    @Test(
        "deploy/snap-poem.service passes systemd-analyze verify with no unknown key, and is hardened", SystemTool.systemdAnalyze.required)
    func systemd() async throws {
        let analyze = try #require(SystemTool.systemdAnalyze.path)
        let unit = try String(contentsOf: Self.deploy.appendingPathComponent("snap-poem.service"), encoding: .utf8)
        for setting in [
            "DynamicUser=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes", "NoNewPrivileges=yes", "CapabilityBoundingSet=",
            "MemoryMax=", "RestrictAddressFamilies=", "SystemCallFilter=@system-service", "KillSignal=SIGTERM",
        ] {
            #expect(unit.contains("\n" + setting), "\(setting)")
        }
        // systemd checks that the command exists: point it at the built binary.
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("snap-poem.service")
        try unit.replacingOccurrences(of: "/usr/local/bin/snap-poem", with: ServerProcess.executable.path)
            .write(to: copy, atomically: true, encoding: .utf8)
        let verification = try await Self.run(analyze, ["verify", copy.path])
        #expect(verification.status == 0, "\(verification.output)")
        #expect(!verification.output.contains("Unknown") && !verification.output.contains("ignoring"), "\(verification.output)")
        // The command line's options are options `snap-poem serve` knows.
        let command = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let arguments = command.dropFirst("ExecStart=".count).split(separator: " ").dropFirst().map(String.init)
        #expect(arguments.first == "serve")
        let parsed = try await ServerProcess.run(arguments + ["--help"])
        #expect(parsed.status == 0, "\(parsed.error)")
    }
}

/// The memory the deploy files allow, against the most the defaults accept.
@Suite("The largest request the limits accept fits in the deploy files' memory")
struct DeployMemoryTests {
    /// `MemoryMax=1G` → bytes; `memory: 1Gi` → bytes.
    static func bytes(_ text: Substring) -> Int? {
        let units: [(String, Int)] = [("Gi", 1 << 30), ("Mi", 1 << 20), ("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)]
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            return Int(text.dropLast(suffix.count)).map { $0 * factor }
        }
        return Int(text)
    }

    /// Each deploy file's memory limit and `snap-poem serve` arguments.
    static func deployments() throws -> [(file: String, memory: Int, arguments: [String])] {
        let unit = try String(contentsOf: DeployFilesTests.deploy.appendingPathComponent("snap-poem.service"), encoding: .utf8)
        let lines = unit.split(separator: "\n")
        let unitMemory = try #require(lines.first { $0.hasPrefix("MemoryMax=") }.flatMap { bytes($0.dropFirst("MemoryMax=".count)) })
        let unitArguments = try #require(lines.first { $0.hasPrefix("ExecStart=") }).split(separator: " ").dropFirst().map(String.init)
        let manifest = try String(contentsOf: DeployFilesTests.deploy.appendingPathComponent("kubernetes-service.yaml"), encoding: .utf8)
        let compact = manifest.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let limits = try #require(compact.firstIndex(of: "limits:"))
        let podMemory = try #require(
            compact[limits...].first { $0.hasPrefix("memory: ") }.flatMap { bytes($0.dropFirst("memory: ".count)) })
        let line = try #require(compact.first { $0.hasPrefix("args: [") })
        let podArguments = try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst("args: ".count).utf8)) as? [String])
        return [("deploy/snap-poem.service", unitMemory, unitArguments), ("deploy/kubernetes-service.yaml", podMemory, podArguments)]
    }

    /// `arguments` without `name` and its value.
    static func removing(_ name: String, from arguments: [String]) -> [String] {
        guard let index = arguments.firstIndex(of: name) else { return arguments }
        return Array(arguments[..<index] + arguments[(index + 2)...])
    }

    @Test("Both deploy files allow the memory the service plans for by default")
    func defaultsAgree() throws {
        for deployment in try Self.deployments() {
            // Under systemd and Kubernetes the service reads this limit from its control
            // group; without one it plans for the default, which must be the same.
            #expect(deployment.memory == 1 << 30, "\(deployment.file)")
            #expect(!deployment.arguments.contains("--memory-mb"), "\(deployment.file) should let the service read its limit")
        }
    }

    /// Under AddressSanitizer (`make test-asan`) memory is not the service's own: its shadow
    /// memory and quarantine double it.
    static let sanitized = ProcessInfo.processInfo.environment["SNAP_POEM_TESTS_SANITIZER"] != nil

    @Test(
        "The deploy files' serve, at their memory: two images at the pixel limit and every upload the budget holds, under the limit",
        .disabled(if: sanitized, "memory under AddressSanitizer is not the service's own"))
    func worstAcceptedRequestFits() async throws {
        let deployments = try Self.deployments()
        // Both files plan the same (memory, engines, upload size): one run stands for both.
        let relevant = deployments.map { deployment in
            ["--jobs", "--max-upload-mb"].map { name in deployment.arguments.firstIndex(of: name).map { deployment.arguments[$0 + 1] } }
        }
        #expect(Set(relevant.map { $0.description }).count == 1, "\(relevant)")
        #expect(Set(deployments.map(\.memory)).count == 1)
        let deployment = deployments[0]
        var arguments = Array(deployment.arguments.dropFirst())
        for name in ["--port", "--host", "--tessdata", "--timeout", "--stop-timeout"] { arguments = Self.removing(name, from: arguments) }
        // The limit the control group would give, and time for every image to be read whole.
        arguments += ["--memory-mb", "\(deployment.memory >> 20)", "--timeout", "900", "--stop-timeout", "900"]
        try await ServerProcess.with(arguments) { server in
            let port = server.port
            let metrics = try await RawHTTPClient.get(port: port, "/metrics").text
            let pixels = try #require(HostileClientTests.gauge("snap_poem_image_pixels_limit", in: metrics))
            let bodies = try #require(HostileClientTests.gauge("snap_poem_buffered_body_limit_bytes", in: metrics))
            let workers = try #require(HostileClientTests.gauge("snap_poem_workers", in: metrics))
            let upload = try #require(Int(arguments[arguments.firstIndex(of: "--max-upload-mb")! + 1])) << 20
            // A page of text at the pixel limit, padded to the largest upload.
            let width = 5193
            let page = TestImages.padded(try TestImages.tiled("Lenore.png", width: width, height: pixels / width), to: upload)
            let readers = (0..<workers).map { index in
                Task {
                    try await RawHTTPClient.post(
                        port: port, "/v1/poems?replace=Lenore%3DAlex", contentType: "image/png", body: page, timeout: 1200,
                        from: "127.0.0.\(2 + index)")
                }
            }
            // The rest of the upload budget: bodies one byte short of whole, held open until
            // the images have been read (sent again when a deadline cuts one off).
            let held = max(0, (bodies - workers * page.count) / upload)
            let done = TextBuffer()
            let holders = (0..<held).map { index in
                Task {
                    try await RawHTTPClient.onThread {
                        while done.text.isEmpty {
                            let socket = try RawHTTPClient.connect(port: port, timeout: 60, from: "127.0.0.\(10 + index)")
                            defer { close(socket) }
                            try? RawHTTPClient.send(
                                Data(
                                    "POST /v1/poems HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: \(upload)\r\n\r\n"
                                        .utf8)
                                    + Data(repeating: 0x41, count: upload - 1), on: socket)
                            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                            while done.text.isEmpty, poll(&poller, 1, 200) == 0 {}
                        }
                    }
                }
            }
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: .seconds(1800))
            var seenReading = false
            var mostHeld = 0
            while clock.now < deadline {
                let now = try await RawHTTPClient.get(port: port, "/metrics").text
                let inFlight = HostileClientTests.gauge("snap_poem_images_in_flight", in: now)
                mostHeld = max(mostHeld, HostileClientTests.gauge("snap_poem_buffered_body_bytes", in: now) ?? 0)
                if (inFlight ?? 0) > 0 { seenReading = true }
                if seenReading, inFlight == 0 { break }
                try await Task.sleep(for: .milliseconds(250))
            }
            done.append("done")
            for reader in readers {
                let response = try await reader.value
                #expect(response.status == 200, "\(response.status) \(response.text.prefix(200))")
            }
            for holder in holders { try await holder.value }
            #expect(mostHeld >= bodies * 3 / 4, "the uploads held only \(mostHeld) of \(bodies) bytes at most")
            let peak = server.memory.peak
            #expect(peak <= deployment.memory, "peak \(peak >> 20) MB, allowed \(deployment.memory >> 20) MB")
            print(
                "Worst accepted load on \(deployment.file): \(workers) images of \(pixels) pixels (\(page.count) bytes) and \(held) held uploads of \(upload >> 20) MB; peak \(peak >> 20) MB of \(deployment.memory >> 20) MB"
            )
        }
    }
}
