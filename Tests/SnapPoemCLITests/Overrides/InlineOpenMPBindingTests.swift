import Foundation
import Testing

/// The executable's definitions of the OpenMP entry points Tesseract calls
/// (`Sources/CProcessOverrides/SerialOpenMP.cpp`) are the ones libtesseract's calls land in.
/// How they behave, and that the reading is the same, is checked in-process
/// (`InlineOpenMPTests`).
@Suite("libtesseract's OpenMP calls land in snap-poem's definitions")
struct InlineOpenMPBindingTests {
    static let symbols = [
        "GOMP_parallel", "GOMP_parallel_sections", "GOMP_sections_next", "GOMP_sections_end_nowait",
        "omp_get_thread_num", "omp_get_num_threads",
    ]

    @Test("Each of the six entry points libtesseract imports is bound to the executable, not to libgomp")
    func interpositionHolds() async throws {
        let bindings = try await SymbolBindings.record([Fixtures.sample("Lenore.png")])
        #expect(bindings.run.status == 0, "\(bindings.run.error.suffix(2000))")
        for symbol in Self.symbols {
            #expect(
                bindings.bindsToExecutable(symbol, from: "libtesseract"),
                "\(symbol): \(bindings.lines(about: symbol).prefix(3).joined(separator: "\n"))")
        }
    }
}
