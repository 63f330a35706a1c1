import Foundation
import Testing

@testable import SnapPoem

/// Word boxes mapped back onto the photo land on the words, whatever preprocessing did. The
/// sample photos share one render (`make_samples.py`): photo-clean.png is it as scanned, the
/// others turned, tilted, shrunk or stored sideways with an EXIF tag, each by a known
/// transform. So each word of a sample, mapped back to its upright image, must sit where the
/// transform puts the same word of photo-clean.png.
@Suite("Annotation geometry on real photos: turned, tilted, shrunk and EXIF-rotated")
struct AnnotationGeometryTests {
    /// The clean render's size.
    static let width = 1697.0, height = 1383.0

    /// A word's centre on the upright image, by its text, for the words that occur once.
    static func centres(of poem: ScannedPoem) -> [String: ImagePoint] {
        let geometry = poem.preprocessingReport.geometry
        var centres: [String: ImagePoint] = [:]
        var seen: [String: Int] = [:]
        for word in poem.page.words where word.text.count >= 4 {
            seen[word.text, default: 0] += 1
            let corners = geometry.uprightCorners(of: word.boundingBox)
            centres[word.text] = ImagePoint(x: corners.map(\.x).reduce(0, +) / 4, y: corners.map(\.y).reduce(0, +) / 4)
        }
        return centres.filter { seen[$0.key] == 1 }
    }

    static let clean = Task<[String: ImagePoint], any Error> {
        let poem = try await SharedScanner.get().scan(fileAt: Fixtures.sample("photo-clean.png"))
        return centres(of: poem)
    }

    /// Where a point of the clean render is in each sample's upright image.
    static func expected(_ point: ImagePoint, in sample: String) -> ImagePoint {
        switch sample {
        case "photo-rotated-180.png":
            return ImagePoint(x: width - point.x, y: height - point.y)
        case "photo-low-resolution.png":
            return ImagePoint(x: point.x * 617 / width, y: point.y * 503 / height)
        case "photo-rotated-3deg.jpg":
            // Pillow's rotate(3, expand=True): 3° counter-clockwise about the centre, on a
            // canvas of 1769×1471 with the render centred.
            let radians = 3 * Double.pi / 180
            let dx = point.x - width / 2, dy = point.y - height / 2
            return ImagePoint(
                x: 1769 / 2 + dx * cos(radians) + dy * sin(radians), y: 1471 / 2 - dx * sin(radians) + dy * cos(radians))
        default:  // photo-exif-rotated.jpg: upright after its EXIF tag, the render itself
            return point
        }
    }

    @Test(
        "Mapped back, every word sits where the sample's transform puts it",
        arguments: ["photo-rotated-180.png", "photo-rotated-3deg.jpg", "photo-low-resolution.png", "photo-exif-rotated.jpg"])
    func wordsLandOnTheirWords(sample: String) async throws {
        let reference = try await Self.clean.value
        // Each sample exercises the step it was made for: the prepared page's reading is kept
        // (`plainReading` never), whichever reading is surer.
        var configuration = try await SharedScanner.get().configuration
        configuration.plainReading = .never
        let scanner = try PoemScanner(configuration: configuration, sharingEnginesWith: try await SharedScanner.get())
        let poem = try await scanner.scan(fileAt: Fixtures.sample(sample))
        let report = poem.preprocessingReport
        switch sample {
        case "photo-rotated-180.png": #expect(report.rotation == 180)
        case "photo-rotated-3deg.jpg": #expect(report.deskewAngle != 0)
        case "photo-low-resolution.png": #expect(report.scaledWidth > 617)
        default: #expect(poem.imageFacts.orientation == .right)
        }
        let found = Self.centres(of: poem)
        var errors: [Double] = []
        for (text, point) in reference {
            guard let centre = found[text] else { continue }
            let error = distance(centre, Self.expected(point, in: sample))
            errors.append(error)
            #expect(error <= 8, "\(sample): “\(text)” at \(centre), expected \(Self.expected(point, in: sample))")
        }
        errors.sort()
        #expect(errors.count >= 40, "\(sample): only \(errors.count) words to compare")
        let median = errors.isEmpty ? .infinity : errors[errors.count / 2]
        #expect(median <= 3, "\(sample): median error \(median) px")
    }
}
