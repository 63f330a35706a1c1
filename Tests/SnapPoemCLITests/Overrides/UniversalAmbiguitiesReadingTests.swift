import CProcessOverrides
import Foundation
import Testing

@testable import SnapPoem

/// LSTM-only engines skip Tesseract's universal ambiguity table
/// (the universal-ambiguities override, `Sources/CProcessOverrides/UniversalAmbiguities.cpp`); one that loads it, as Tesseract
/// always does, reads every word with the same text and confidence.
@Suite("Without the legacy engine's ambiguity table, an LSTM engine reads as with it")
struct UniversalAmbiguitiesReadingTests {
    @Test(
        "The same words and confidences from an engine with the table and one without",
        arguments: ["Lenore.png", "chanson-d-automne.png", "photo-blurred.jpg", "photo-low-resolution.png"])
    func sameReading(sample: String) async throws {
        let image = try preparedSample(sample)
        let without = try await Recognizer()
        // Only engines started while the override is off load the table.
        let loaded = try await OverrideSwitch.off(SNAP_POEM_OVERRIDE_UNIVERSAL_AMBIGUITIES) { try await Recognizer() }
        let read = try await without.recognize(image)
        let reference = try await loaded.recognize(image)
        #expect(read.words.count > 10, "\(sample): \(read.words.count) words")
        #expect(read.words.map(\.text) == reference.words.map(\.text), "\(sample)")
        #expect(read.words.map(\.confidence) == reference.words.map(\.confidence), "\(sample)")
        #expect(read.text == reference.text, "\(sample)")
    }
}
