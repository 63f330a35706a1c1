// poem-to-json: reads photographed poems, personalises them and prints each as one line of JSON.
//
//   poem-to-json [--replace FIND=REPLACE]... [IMAGE | -]...
//
// With no IMAGE, or with `-`, the image's bytes are read from standard input. Errors go to
// standard error, one line each; the exit status is 0, 1 (an image failed) or 64 (usage).
import Foundation
import SnapPoem

/// What this tool prints for each image: its own shape, built from `ScannedPoem`.
struct PoemRecord: Encodable {
    struct Change: Encodable {
        var line: Int
        var column: Int
        var original: String
        var replacement: String
        var confidence: Double?
    }

    var source: String
    var text: String
    var changes: [Change]
    var unmatched: [String]
    var meanConfidence: Int
    var milliseconds: Int

    init(_ poem: ScannedPoem) {
        source = poem.source
        text = poem.text
        changes = poem.personalized.changes.map {
            Change(line: $0.line, column: $0.column, original: $0.original, replacement: $0.replacement, confidence: $0.confidence)
        }
        unmatched = poem.personalized.unmatched.map(\.find)
        meanConfidence = poem.page.meanConfidence
        let timings = poem.timings
        let total = timings.decode + timings.preprocess + timings.recognize + timings.personalize
        milliseconds = Int(total.components.seconds * 1000 + total.components.attoseconds / 1_000_000_000_000_000)
    }
}

func fail(_ message: String) {
    FileHandle.standardError.write(Data("poem-to-json: error: \(message)\n".utf8))
}

// Arguments: --replace/-r FIND=REPLACE pairs, then images.
var replacements: [Replacement] = []
var images: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--replace", "-r":
        guard let pair = arguments.popFirst() else {
            fail("--replace needs FIND=REPLACE")
            exit(64)
        }
        do throws(SnapPoemError) {
            replacements.append(try Replacement(parsing: pair))
        } catch {
            fail(error.description)
            exit(64)
        }
    default:
        images.append(argument)
    }
}
if images.isEmpty { images = ["-"] }

/// Reads every image with one scanner and returns the exit status. The scanner, and with it
/// its Tesseract engines, is released when this returns, before the program exits: an engine
/// still alive at exit makes Tesseract print a warning about its cached models.
func readImages(_ images: [String], replacing replacements: [Replacement]) async -> Int32 {
    let scanner: PoemScanner
    do throws(SnapPoemError) {
        scanner = try await PoemScanner(replacing: ReplacementSet(replacements))
    } catch {
        fail(error.description)
        return 69
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var failed = false
    for image in images {
        do throws(SnapPoemError) {
            let poem: ScannedPoem
            if image == "-" {
                let bytes = (try? FileHandle.standardInput.readToEnd()) ?? Data()
                poem = try await scanner.scan(imageData: bytes, name: "-")
            } else {
                poem = try await scanner.scan(fileAt: URL(fileURLWithPath: image))
            }
            var line = (try? encoder.encode(PoemRecord(poem))) ?? Data()
            line.append(UInt8(ascii: "\n"))
            FileHandle.standardOutput.write(line)
        } catch {
            fail(error.description)
            failed = true
        }
    }
    return failed ? 1 : 0
}

exit(await readImages(images, replacing: replacements))
