import Foundation
import Testing

@testable import SnapPoem

/// The page's top and bottom lines are emptied when they are the paper's edge or a band of
/// noise rather than text (`EdgeNoiseLinesPass`).
@Suite("Noise lines at the page's edges")
struct EdgeNoiseLinesTests {
    /// A page 1000 px high: five lines of text 50 px high in block 1, from y = 100 every
    /// 80 px, and `extra` after them.
    func page(
        _ extra: [(block: Int, box: BoundingBox, confidence: Double)], textConfidence: Double = 95
    ) -> (layout: [LayoutLine], readings: [RecognizedLine?]) {
        var lines: [(block: Int, box: BoundingBox, confidence: Double)] = (0..<5).map {
            (1, BoundingBox(left: 100, top: 100 + 80 * $0, right: 800, bottom: 150 + 80 * $0), textConfidence)
        }
        lines += extra
        let layout = lines.map { LayoutLine(block: $0.block, paragraph: 0, box: $0.box, blockBox: $0.box) }
        let readings: [RecognizedLine?] = lines.map { line in
            RecognizedLine(
                words: [RecognizedWord(text: "words", confidence: line.confidence, boundingBox: line.box)], boundingBox: line.box,
                confidence: line.confidence)
        }
        return (layout, readings)
    }

    @Test("A thin band read unsurely under the text, alone in its block, is emptied (a sonnet's 'I pea a ala Pe' at 20)")
    func thinBandBelow() {
        let (layout, readings) = page([(2, BoundingBox(left: 60, top: 700, right: 900, bottom: 731), 20)])
        #expect(EdgeNoiseLinesPass.noiseLines(layout, readings: readings, pageHeight: 1000) == [5])
    }

    @Test("A line touching the top of the image, read unsurely, alone in its block, is emptied, whatever its height")
    func touchingTheTop() {
        let (layout, readings) = page([(0, BoundingBox(left: 70, top: 0, right: 900, bottom: 50), 29)])
        #expect(EdgeNoiseLinesPass.noiseLines(layout, readings: readings, pageHeight: 1000) == [5])
        let (bottomLayout, bottomReadings) = page([(2, BoundingBox(left: 70, top: 950, right: 900, bottom: 999), 29)])
        #expect(EdgeNoiseLinesPass.noiseLines(bottomLayout, readings: bottomReadings, pageHeight: 1000) == [5])
    }

    @Test(
        "Kept: a line read surely (a footnote in small type), one sharing its block, one of full height, one between others",
        arguments: [
            [(2, BoundingBox(left: 100, top: 700, right: 500, bottom: 725), 91.0)],
            [(1, BoundingBox(left: 100, top: 700, right: 500, bottom: 725), 20.0)],
            [(2, BoundingBox(left: 100, top: 700, right: 800, bottom: 750), 35.0)],
            [
                (2, BoundingBox(left: 100, top: 600, right: 500, bottom: 625), 20.0),
                (3, BoundingBox(left: 100, top: 700, right: 800, bottom: 750), 95.0),
            ],
        ] as [[(Int, BoundingBox, Double)]])
    func kept(extra: [(Int, BoundingBox, Double)]) {
        let (layout, readings) = page(extra.map { (block: $0.0, box: $0.1, confidence: $0.2) })
        #expect(EdgeNoiseLinesPass.noiseLines(layout, readings: readings, pageHeight: 1000).isEmpty)
    }

    @Test("A page of few lines is left alone: there is no line height to judge by")
    func fewLines() {
        let layout = [
            LayoutLine(
                block: 1, paragraph: 0, box: BoundingBox(left: 0, top: 100, right: 800, bottom: 150),
                blockBox: BoundingBox(left: 0, top: 0, right: 1, bottom: 1)),
            LayoutLine(
                block: 2, paragraph: 0, box: BoundingBox(left: 0, top: 300, right: 800, bottom: 320),
                blockBox: BoundingBox(left: 0, top: 0, right: 1, bottom: 1)),
        ]
        let readings: [RecognizedLine?] = layout.map {
            RecognizedLine(words: [RecognizedWord(text: "ab", confidence: 20, boundingBox: $0.box)], boundingBox: $0.box, confidence: 20)
        }
        #expect(EdgeNoiseLinesPass.noiseLines(layout, readings: readings, pageHeight: 1000).isEmpty)
    }

    @Test("Lines without text do not count as the edge: the band below the empty one is still found")
    func emptyLinesSkipped() {
        let (layout, found) = page([
            (2, BoundingBox(left: 60, top: 700, right: 900, bottom: 731), 20),
            (3, BoundingBox(left: 60, top: 800, right: 900, bottom: 850), 0),
        ])
        var readings = found
        readings[6] = RecognizedLine(words: [], boundingBox: layout[6].box, confidence: 0)
        #expect(EdgeNoiseLinesPass.noiseLines(layout, readings: readings, pageHeight: 1000) == [5])
    }
}
