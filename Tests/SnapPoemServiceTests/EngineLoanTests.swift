import Foundation
import SnapPoem
import SnapPoemTestSupport
import Testing

@testable import SnapPoemService

/// A lone request borrows an idle worker's engine (`EngineLoan`, `ScanWorkerPool`): two
/// engines read its lines, and the next request takes the worker back within a line. With
/// the real Tesseract; the text must be one engine's either way.
@Suite("Idle engines lent to a lone request", .serialized)
struct EngineLoanTests {
    /// One service with two workers of one engine each (`serve --jobs 2`).
    private static let service = Task { () async throws -> PoemService in
        try await PoemService(
            configuration: ServiceConfiguration(workers: 2, queueLimit: 100, maxTimeLimit: TestSanitizer.scaled(.seconds(600))))
    }

    /// A JSON request for `image`.
    static func request(_ image: String, query: String = "") throws -> HTTPRequest {
        HTTPRequest(
            method: "POST", target: "/v1/poems?format=json" + (query.isEmpty ? "" : "&" + query),
            headers: [HTTPField(name: "Content-Type", value: "image/png")], body: try Fixtures.sampleData(image))
    }

    /// The text and the number of engines that read the lines, from a JSON answer.
    static func reading(_ response: HTTPResponse) throws -> (text: String, engines: Int) {
        #expect(response.status == 200, "\(response.text)")
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        let recognition = try #require(object["recognition"] as? [String: Any])
        let reading = try #require(recognition["reading"] as? [String: Any])
        return (try #require(object["text"] as? String), try #require(reading["engines"] as? Int))
    }

    /// What one engine alone reads in `image`.
    static func oneEngineText(_ image: String) async throws -> String {
        var configuration = ScanConfiguration()
        configuration.recognitionEngines = 1
        let scanner = try await PoemScanner(configuration: configuration)
        return try await scanner.scan(imageData: try Fixtures.sampleData(image), name: image).text
    }

    @Test("A lone request reads with both workers' engines, and its text is one engine's")
    func loneRequest() async throws {
        let service = try await Self.service.value
        let alone = try Self.reading(await service.respond(to: try Self.request("Lenore.png")))
        #expect(alone.engines == 2)
        #expect(alone.text == (try await Self.oneEngineText("Lenore.png")))
        // The lent worker came back: the next lone request borrows it again.
        let again = try Self.reading(await service.respond(to: try Self.request(Fixtures.stanza)))
        #expect(again.engines == 2)
    }

    @Test("Requests at once each get a worker back from the loan, all are answered with one engine's text, and the loan resumes after")
    func requestsAtOnce() async throws {
        let service = try await Self.service.value
        let expected = try await Self.oneEngineText("Lenore.png")
        let request = try Self.request("Lenore.png")
        // The first starts alone and borrows; the others arrive while it reads and take the
        // lent worker back (within a line, wherever the first has got to).
        let first = Task { await service.respond(to: request) }
        try await Task.sleep(for: .milliseconds(300))
        async let second = service.respond(to: request)
        async let third = service.respond(to: request)
        let answers = [await first.value, await second, await third]
        for answer in answers { #expect(try Self.reading(answer).text == expected) }
        let after = try Self.reading(await service.respond(to: try Self.request(Fixtures.stanza)))
        #expect(after.engines == 2, "both workers are idle again")
    }

    @Test("A loan taken back before the scan, or of an engine with other languages, is not used")
    func unusedLoans() async throws {
        let data = try Fixtures.sampleData(Fixtures.stanza)
        var configuration = ScanConfiguration()
        configuration.recognitionEngines = 1
        let borrower = try await PoemScanner(configuration: configuration)
        let lender = try await PoemScanner(configuration: configuration)
        let loan = EngineLoan(lending: lender)
        let lent = try await borrower.scan(imageData: data, name: "stanza", borrowing: loan)
        #expect(lent.reading?.engines == 2)
        await loan.takeBack()
        #expect(loan.isTakenBack)
        let takenBack = try await borrower.scan(imageData: data, name: "stanza", borrowing: loan)
        #expect(takenBack.reading?.engines == 1)
        #expect(takenBack.text == lent.text)
        var english = configuration
        english.engine.languages = try LanguageSet(parsing: "eng")
        english.choosesLanguage = false
        let other = try await borrower.scan(
            imageData: data, name: "stanza", borrowing: EngineLoan(lending: try await PoemScanner(configuration: english)))
        #expect(other.reading?.engines == 1)
    }
}
