import Foundation
import SnapPoem
import Synchronization

/// The server's log: one writer thread owns standard error, and everything else only puts
/// lines in a bounded queue, so a log reader that stalls (a paused pager, a stuck log
/// shipper, a full pipe) never holds up serving. When the queue is full, new lines are
/// dropped and counted (`droppedLines`, `snap_poem_log_lines_dropped_total` in `/metrics`).
///
/// `captureStandardError()` also routes what other code writes to file descriptor 2 (the
/// image codecs' own messages, `libpng error: …`) through a pipe that a reader thread empties
/// into the same queue, escaped line by line (`OneLine` rules: control characters and
/// bidirectional overrides written as escapes): no byte from outside reaches the log raw, and
/// no codec blocks on a stalled reader either.
public final class ServerLog: Sendable {
    /// The most lines waiting to be written.
    public static let capacityLines = 4096
    /// The most bytes waiting to be written.
    public static let capacityBytes = 1 << 20
    /// The longest line kept; longer ones are cut, with `…`.
    public static let longestLine = 4096

    private struct Queue {
        var lines: [String] = []
        var head = 0
        var bytes = 0
        var dropped = 0
        var finishing = false
        var writerDone = false
        var pending: Int { lines.count - head }
    }

    private let queue = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let destination: Int32
    private let capture = Mutex<(original: Int32, reader: Int32)?>(nil)
    private let readerDone = DispatchSemaphore(value: 0)

    /// Starts the writer thread on a copy of standard error.
    public init() {
        destination = dup(2)
        let thread = Thread { [self] in writeLoop() }
        thread.name = "snap-poem.log"
        thread.start()
    }

    /// Lines dropped because the queue was full.
    public var droppedLines: Int { queue.withLock { $0.dropped } }

    /// Adds `line` (without its line break) to the queue, or drops and counts it when the
    /// queue is full. Never blocks on the reader.
    public func write(_ line: String) {
        let kept = line.utf8.count > Self.longestLine ? String(decoding: line.utf8.prefix(Self.longestLine), as: UTF8.self) + "…" : line
        let accepted = queue.withLock { queue -> Bool in
            guard !queue.finishing, queue.pending < Self.capacityLines, queue.bytes + kept.utf8.count + 1 <= Self.capacityBytes else {
                queue.dropped += 1
                return false
            }
            queue.lines.append(kept)
            queue.bytes += kept.utf8.count + 1
            return true
        }
        if accepted { wake.signal() }
    }

    /// Routes file descriptor 2 through this log (see the type's description). Call once.
    public func captureStandardError() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        let original = dup(2)
        guard original >= 0, dup2(ends[1], 2) >= 0 else {
            close(ends[0])
            close(ends[1])
            if original >= 0 { close(original) }
            return
        }
        close(ends[1])
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        capture.withLock { $0 = (original, ends[0]) }
        let reader = ends[0]
        let thread = Thread { [self] in captureLoop(reader) }
        thread.name = "snap-poem.log.capture"
        thread.start()
    }

    /// Stops capturing, writes what is queued (waiting at most `timeout` for a slow reader)
    /// and ends the writer thread. Lines written later are dropped.
    public func finish(timeout: Duration = .seconds(2)) {
        if let captured = capture.withLock({ value -> (original: Int32, reader: Int32)? in
            defer { value = nil }
            return value
        }) {
            // Descriptor 2 is standard error again; the pipe's last writer is gone, so its
            // reader sees the end once it has taken what is left.
            dup2(captured.original, 2)
            close(captured.original)
            _ = readerDone.wait(timeout: .now() + timeout.dispatchTimeInterval)
        }
        queue.withLock { $0.finishing = true }
        wake.signal()
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !queue.withLock({ $0.writerDone }), ContinuousClock.now < deadline {
            usleep(5_000)
        }
    }

    private func writeLoop() {
        while true {
            wake.wait()
            while true {
                let batch = queue.withLock { queue -> [String]? in
                    guard queue.pending > 0 else { return nil }
                    let taken = Array(queue.lines[queue.head...])
                    queue.lines.removeAll(keepingCapacity: queue.lines.count < 1024)
                    queue.head = 0
                    queue.bytes = 0
                    return taken
                }
                guard let batch else { break }
                var text = Data()
                for line in batch {
                    text.append(contentsOf: line.utf8)
                    text.append(0x0A)
                }
                writeAll(text)
            }
            let done = queue.withLock { queue -> Bool in
                guard queue.finishing, queue.pending == 0 else { return false }
                queue.writerDone = true
                return true
            }
            if done {
                close(destination)
                return
            }
        }
    }

    /// A blocking write of every byte (only this thread waits on the reader).
    private func writeAll(_ data: Data) {
        data.withUnsafeBytes { raw in
            guard var pointer = raw.baseAddress else { return }
            var left = raw.count
            while left > 0 {
                let written = Glibc.write(destination, pointer, left)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                pointer += written
                left -= written
            }
        }
    }

    private func captureLoop(_ reader: Int32) {
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = read(reader, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending.append(buffer, count: count)
            while let newline = pending.firstIndex(of: 0x0A) {
                write(Self.escaped(pending[pending.startIndex..<newline]))
                pending = Data(pending[(newline + 1)...])
            }
            if pending.count > Self.longestLine {
                write(Self.escaped(pending))
                pending = Data()
            }
        }
        if !pending.isEmpty { write(Self.escaped(pending)) }
        close(reader)
        readerDone.signal()
    }

    /// A line another part of the process wrote, made safe: bytes that are not UTF-8 as
    /// `\x{…}`, control characters as escapes.
    static func escaped(_ bytes: Data) -> String {
        var text = ""
        var rest = bytes[...]
        if rest.last == 0x0D { rest = rest.dropLast() }
        while !rest.isEmpty {
            // Decode the longest valid UTF-8 prefix; escape one byte where it is not valid.
            var iterator = rest.makeIterator()
            var decoder = UTF8()
            var consumed = 0
            var scalars = String.UnicodeScalarView()
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    scalars.append(scalar)
                    consumed += UTF8.width(scalar)
                case .emptyInput:
                    break decoding
                case .error:
                    break decoding
                }
            }
            text += OneLine.escaping(String(scalars))
            rest = rest.dropFirst(consumed)
            if let byte = rest.first {
                text += "\\x{" + String(byte, radix: 16, uppercase: true) + "}"
                rest = rest.dropFirst()
            }
        }
        return text
    }
}

extension Duration {
    /// The duration for Dispatch.
    var dispatchTimeInterval: DispatchTimeInterval {
        .milliseconds(Int(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000))
    }
}
