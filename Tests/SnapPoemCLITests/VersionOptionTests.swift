import SnapPoem
import Testing

@Suite("--version prints SnapPoem.version")
struct VersionOptionTests {
    @Test("--version starts with the library's version constant")
    func versionComesFromTheLibrary() async {
        let result = await CapturedRun.run(["--version"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("snap-poem \(SnapPoem.version) (Tesseract "))
    }
}
