import Foundation
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

    @Test("deploy/snap-poem.service passes systemd-analyze verify with no unknown key, and is hardened")
    func systemd() async throws {
        let analyze = "/usr/bin/systemd-analyze"
        try #require(FileManager.default.isExecutableFile(atPath: analyze), "systemd-analyze is missing: run 'make deps-service'")
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
