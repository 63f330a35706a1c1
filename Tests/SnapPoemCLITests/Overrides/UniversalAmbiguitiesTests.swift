import Foundation
import Testing

/// The executable's LSTM-only engines skip Tesseract's universal ambiguity table
/// (`Sources/CProcessOverrides/UniversalAmbiguities.cpp`): libtesseract's call lands in
/// snap-poem's definition. That the reading is the same is checked in-process
/// (`UniversalAmbiguitiesReadingTests`).
@Suite("The legacy engine's ambiguity table is not parsed by the executable's LSTM-only engines")
struct UniversalAmbiguitiesTests {
    static let symbol = "_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_"

    @Test("libtesseract's call to UnicharAmbigs::LoadUniversal lands in snap-poem's own definition")
    func interpositionHolds() async throws {
        let bindings = try await SymbolBindings.record([Fixtures.sample("Lenore.png")])
        #expect(bindings.run.status == 0, "\(bindings.run.error.suffix(2000))")
        #expect(
            bindings.bindsToExecutable(Self.symbol, from: "libtesseract"),
            "\(bindings.lines(about: Self.symbol).prefix(3).joined(separator: "\n"))")
    }
}
