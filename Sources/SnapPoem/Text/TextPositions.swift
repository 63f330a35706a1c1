/// The 1-based line and column of each character of a text.
struct TextPositions {
    private var lines: [Int] = []
    private var columns: [Int] = []

    init(_ text: CodedText) {
        lines.reserveCapacity(text.count + 1)
        columns.reserveCapacity(text.count + 1)
        var line = 1, column = 1
        for code in text.codes {
            lines.append(line)
            columns.append(column)
            if text.isNewline[code] {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        lines.append(line)
        columns.append(column)
    }

    func line(at index: Int) -> Int { lines[index] }
    func column(at index: Int) -> Int { columns[index] }
}
