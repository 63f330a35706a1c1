import Foundation
import Testing

/// The executable's definitions of Leptonica's brick morphology
/// (`Sources/CProcessOverrides/BrickMorphology.cpp`) are the ones libtesseract's search for
/// ruled lines calls. That they give Leptonica's own words is checked in-process
/// (`BrickMorphologyTests`).
@Suite("libtesseract's brick morphology calls land in snap-poem's definitions")
struct BrickMorphologyBindingTests {
    @Test("The opening and closing of every page's line search are bound to the executable, none of the four to liblept")
    func interpositionHolds() async throws {
        let bindings = try await SymbolBindings.record([Fixtures.sample("Lenore.png")])
        #expect(bindings.run.status == 0, "\(bindings.run.error.suffix(2000))")
        #expect(bindings.run.output.contains("Lenore"))
        // LineFinder::GetLineMasks closes and opens every page; the erosion and dilation are
        // called only where ruled lines are found, so they may not be bound at all.
        for symbol in ["pixOpenBrick", "pixCloseBrick"] {
            #expect(
                bindings.bindsToExecutable(symbol, from: "libtesseract"),
                "\(symbol): \(bindings.lines(about: symbol).prefix(3).joined(separator: "\n"))")
        }
        for symbol in ["pixOpenBrick", "pixCloseBrick", "pixErodeBrick", "pixDilateBrick"] {
            let toLiblept = bindings.lines(about: symbol).filter { line in
                let sides = line.components(separatedBy: " to ")
                return sides.count >= 2 && sides[0].contains("libtesseract") && sides[1].contains("liblept")
            }
            #expect(toLiblept.isEmpty, "\(symbol): \(toLiblept.prefix(2).joined(separator: "\n"))")
        }
    }
}
