import Foundation
import Testing

@testable import SnapPoemService

/// The budget every limit follows from: where it comes from, and how it is shared.
@Suite("The memory budget and what follows from it")
struct MemoryPlanTests {
    @Test("Control group limit files: a number is a limit; 'max' and cgroup v1's 2^63 are none")
    func parsing() {
        #expect(MemoryBudget.parseLimit("1073741824\n") == 1 << 30)
        #expect(MemoryBudget.parseLimit("max\n") == nil)
        #expect(MemoryBudget.parseLimit("9223372036854771712") == nil)
        #expect(MemoryBudget.parseLimit("") == nil)
        #expect(MemoryBudget.parseLimit("-1") == nil)
    }

    @Test(
        "The plan for two workers of one engine each, 20 MB uploads and 1 GiB give about 22.6 megapixels, 128 MB of uploads and 32 MB of connections"
    )
    func defaults() throws {
        let plan = try MemoryPlan(budget: MemoryBudget(bytes: 1 << 30), workers: 2, maxUploadBytes: 20 << 20)
        #expect(plan.bufferedBodyBytes == 128 << 20)
        #expect(plan.connectionBytes == 32 << 20)
        #expect((22_000_000...23_000_000).contains(plan.maxPixels), "\(plan.maxPixels)")
        // Everything at its bound, and the tenth kept free, fits the budget.
        #expect(plan.plannedPeakBytes + (1 << 30) / 10 <= 1 << 30)
    }

    @Test("More engines or larger uploads leave fewer pixels per image; a budget too small is refused, naming what it needs")
    func sharing() throws {
        let two = try MemoryPlan(budget: MemoryBudget(bytes: 1 << 30), workers: 2, maxUploadBytes: 20 << 20)
        let four = try MemoryPlan(budget: MemoryBudget(bytes: 1 << 30), workers: 4, maxUploadBytes: 20 << 20)
        #expect(four.maxPixels < two.maxPixels / 2)
        let wider = try MemoryPlan(budget: MemoryBudget(bytes: 4 << 30), workers: 2, maxUploadBytes: 20 << 20)
        #expect(wider.maxPixels > 4 * two.maxPixels)
        #expect(wider.bufferedBodyBytes == 512 << 20)
        do {
            _ = try MemoryPlan(budget: MemoryBudget(bytes: 256 << 20), workers: 8, maxUploadBytes: 20 << 20)
            Issue.record("a 256 MB budget cannot hold 8 engines")
        } catch {
            #expect(
                error.message.hasPrefix(
                    "a memory budget of 256 MB is too small for 8 workers with their engines and uploads of 20 MB; it needs at least "))
            #expect(error.message.hasSuffix(" MB (--memory-mb, --jobs, --max-upload-mb)"))
        }
    }

    @Test(
        "The service's engines are counted: beside other workers one eng+fra engine, a French one, the orientation detector and another language set; alone two of each kind; a 12-megapixel phone photo fits the default plan"
    )
    func enginesCounted() throws {
        let megabyte = 1 << 20
        let side = ServiceConfiguration(workers: 2)
        #expect(side.workerScan.recognitionEngines == 1)
        #expect(side.engineBytesPerWorker == (48 + 28 + 34 + 48) * megabyte)
        let alone = ServiceConfiguration(workers: 1)
        #expect(alone.workerScan.recognitionEngines == 2)
        #expect(alone.engineBytesPerWorker == (2 * 48 + 2 * 28 + 34 + 48) * megabyte)
        let plan = try MemoryPlan(
            budget: MemoryBudget(bytes: 1 << 30), workers: 2, engineBytesPerWorker: side.engineBytesPerWorker,
            maxUploadBytes: 20 << 20)
        #expect(plan.maxPixels >= 4032 * 3024, "\(plan.maxPixels)")
        #expect(plan.plannedPeakBytes + (1 << 30) / 10 <= 1 << 30)
        let one = try MemoryPlan(budget: MemoryBudget(bytes: 1 << 30), workers: 2, maxUploadBytes: 20 << 20)
        #expect(plan.maxPixels < one.maxPixels)
    }

    @Test("Unmatched FINDs in a header: ASCII, percent-encoded, cut at whole names")
    func unmatchedHeader() {
        #expect(PoemService.percentEncoded("Gréta O'Neil") == "Gr%C3%A9ta%20O%27Neil")
        #expect(PoemService.percentEncoded("a-b.c_d~e") == "a-b.c_d~e")
    }

    @Test("The new refusals have their status, code and Retry-After, in one line")
    func refusals() throws {
        let errors: [(ServiceError, Int, String)] = [
            (.unreadableForm, 400, "bad_form"), (.tooManyFields(limit: 100), 400, "bad_option"),
            (.fieldTooLarge(name: "replace", limit: 64 << 10), 400, "bad_option"), (.secondImage, 400, "bad_option"),
            (.duplicateField("keptImage"), 400, "bad_option"),
            (.tooManyUploads(limitBytes: 128 << 20, retryAfterSeconds: 3), 503, "too_many_uploads"),
            (.addressUploadsBusy(limitBytes: 32 << 20, retryAfterSeconds: 3), 429, "too_many_requests"),
            (.tooManyRequests(places: 4, retryAfterSeconds: 3), 429, "too_many_requests"),
            (.connectionsFull(limitBytes: 32 << 20, retryAfterSeconds: 3), 503, "busy"),
        ]
        for (error, status, code) in errors {
            #expect(error.status == status)
            #expect(error.code.rawValue == code)
            if status != 400 { #expect(error.retryAfterSeconds == 3) }
            let body = try #require(try JSONSerialization.jsonObject(with: error.jsonBody(requestID: "r1")) as? [String: Any])
            #expect(body["code"] as? String == code)
            #expect(!error.message.contains("\n"))
        }
    }
}
