import Foundation
import SnapPoem
import Testing

@testable import SnapPoemService

/// How the library's errors become HTTP answers: the client's fault is a 4xx, the server's
/// own shortage a 503 that may be retried, never a 500 that hides what happened.
@Suite("Library errors as HTTP statuses")
struct ServiceErrorTests {
    @Test("Out of memory is a 503 with Retry-After and the step named; an over-limit input is a 413")
    func resourceErrors() {
        let memory = ServiceError(.outOfMemory(path: "upload", stage: "decoding the 4032×3024 JPEG image"))
        #expect(memory.status == 503)
        #expect(memory.code == .outOfMemory)
        #expect(memory.retryAfterSeconds == 5)
        #expect(memory.message.contains("decoding the 4032×3024 JPEG image"))
        let large = ServiceError(.fileTooLarge(path: "upload", bytes: 600 << 20, limit: 512 << 20))
        #expect(large.status == 413)
        #expect(large.code == .payloadTooLarge)
    }

    @Test("Every error's JSON body parses and names the code")
    func bodies() throws {
        let errors: [SnapPoemError] = [
            .outOfMemory(path: "upload", stage: "recognising"), .fileTooLarge(path: "upload", bytes: nil, limit: 1),
            .notARegularFile(path: "x", kind: "a FIFO (named pipe)"), .corruptImage(path: "upload", format: "JPEG"),
        ]
        for error in errors {
            let answer = ServiceError(error)
            let body = try #require(try JSONSerialization.jsonObject(with: answer.jsonBody(requestID: "r1")) as? [String: Any])
            #expect(body["code"] as? String == answer.code.rawValue)
            #expect(!answer.message.contains("\n"))
        }
    }

    @Test("A field name with a line break is refused in one line (a fuzzing finding)")
    func fieldNameWithLineBreak() {
        #expect(throws: ServiceError.self) {
            _ = try PoemRequestOptions(
                fields: [HTTPField(name: "po\nem.png", value: "x")], defaults: ScanConfiguration(), maxTimeLimit: .seconds(30))
        }
        do {
            _ = try PoemRequestOptions(
                fields: [HTTPField(name: "po\nem.png", value: "x")], defaults: ScanConfiguration(), maxTimeLimit: .seconds(30))
        } catch {
            #expect(error.status == 400)
            #expect(!error.message.contains("\n"))
            #expect(error.message.contains("po\\nem.png"), "\(error.message)")
        }
    }
}
