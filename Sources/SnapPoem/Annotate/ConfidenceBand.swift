/// How sure Tesseract was of a word, in the three bands an annotated image colours its boxes
/// by (`AnnotationStyle` sets where the bands meet and their colours).
public enum ConfidenceBand: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// At or above `AnnotationStyle.sureConfidence` (90 by default): words read right.
    case sure
    /// From `AnnotationStyle.unsureConfidence` (70) up to the sure band: worth a glance; OCR
    /// slips such as "bow!!" for "bowl!" land here.
    case unsure
    /// Under `AnnotationStyle.unsureConfidence`: often misread.
    case doubtful
}
