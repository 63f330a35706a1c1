import Foundation

/// The order in which a batch hands out its images: the largest files first, so that workers
/// running side by side finish together instead of one starting a 4032-pixel photo as the
/// other runs out of work. A file's size is what `stat` says (no byte of it is read); it stands
/// for the image's pixels, which decide the time, closely enough to order by. With one worker
/// the order changes nothing, and inputs keep theirs.
enum BatchOrder {
    /// The positions of `inputs`, largest file first; equal sizes, unreadable files (ordered
    /// last) and standard input keep their order among themselves.
    static func largestFirst(_ inputs: [BatchInput], contents: (Int) -> Data? = { _ in nil }) -> [Int] {
        let sizes = inputs.indices.map { index -> Int in
            if let data = contents(index) { return data.count }
            var status = stat()
            let found = (inputs[index].fileSystemPath + [0]).withUnsafeBufferPointer { bytes -> Bool in
                guard let base = bytes.baseAddress else { return false }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { stat($0, &status) == 0 }
            }
            return found ? Int(status.st_size) : -1
        }
        return inputs.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
    }
}
