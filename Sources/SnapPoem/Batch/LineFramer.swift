import Foundation

/// Cuts a stream of bytes into lines as it arrives, in one pass: each byte is examined once
/// for the newline, however the stream is chunked (a 100 MB line read in 64 KiB pieces is
/// not rescanned from its start for each piece), and consumed lines are dropped from the
/// buffer in amortised constant time.
///
/// A line longer than `maximumLineBytes` is never buffered whole: once that many bytes
/// have come without a newline, it is reported as `.tooLong` and the rest of it, up to its
/// newline, is skipped as it arrives. What a line may hold is decided by the caller (the
/// worker protocol, a manifest); the framer only bounds it.
struct LineFramer {
    /// What `next()` hands over.
    enum Piece: Equatable {
        /// A whole line, without its newline.
        case line(Data)
        /// A line over the limit: its first `maximumLineBytes` bytes were seen (and dropped)
        /// and the rest is being skipped.
        case tooLong
    }

    /// The longest line handed over.
    let maximumLineBytes: Int
    private var buffer: [UInt8] = []
    /// Where the next line starts in `buffer`.
    private var start = 0
    /// How far `buffer` has been searched for a newline.
    private var searched = 0
    /// Skipping the rest of a line that was too long.
    private var skipping = false
    /// How many bytes were examined for a newline in all: each byte once.
    private(set) var examinedBytes = 0

    init(maximumLineBytes: Int) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// Adds bytes read from the stream.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes read from the stream.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Bytes buffered that are not yet part of a line handed over.
    var pendingBytes: Int { buffer.count - start }

    /// The next line, or a line found too long; nil when more bytes are needed.
    mutating func next() -> Piece? {
        while true {
            if let newline = findNewline() {
                let wasSkipping = skipping
                skipping = false
                let line = Data(buffer[start..<newline])
                start = newline + 1
                searched = start
                compact()
                if wasSkipping { continue }
                return .line(line)
            }
            if skipping {
                // Nothing of the long line is kept.
                start = buffer.count
                searched = start
                compact()
                return nil
            }
            if buffer.count - start > maximumLineBytes {
                skipping = true
                start = buffer.count
                searched = start
                compact()
                return .tooLong
            }
            return nil
        }
    }

    /// The position of the next newline at or after `searched`, examining each byte once.
    private mutating func findNewline() -> Int? {
        guard searched < buffer.count else { return nil }
        let from = searched
        let found = buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress else { return nil }
            guard let hit = memchr(base + from, 0x0A, bytes.count - from) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        examinedBytes += (found.map { $0 + 1 } ?? buffer.count) - from
        searched = found.map { $0 + 1 } ?? buffer.count
        return found
    }

    /// Drops consumed bytes once they are at least half the buffer, so the buffer stays at
    /// most twice what is pending and each byte is moved a bounded number of times.
    private mutating func compact() {
        guard start > 0, start * 2 >= buffer.count else { return }
        buffer.removeFirst(start)
        searched -= start
        start = 0
    }
}
