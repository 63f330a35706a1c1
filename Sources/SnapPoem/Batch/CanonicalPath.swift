import Foundation

/// The path of a file or folder with every symbolic link, `.` and `..` resolved.
enum CanonicalPath {
    /// `realpath(3)` of `path`; nil when it cannot be resolved, with `failure` set to the
    /// `errno` that says why.
    static func of(_ path: [UInt8], failure: inout Int32) -> [UInt8]? {
        let (resolved, code) = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                let resolved = realpath($0.baseAddress!, nil)
                return (resolved, errno)
            }
        }
        guard let resolved else {
            failure = code
            return nil
        }
        defer { free(resolved) }
        return Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }

    /// The path of the file open as `descriptor`, as the kernel knows it
    /// (`/proc/self/fd/N`); nil when it cannot be told.
    static func of(descriptor: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { target in
            target.withMemoryRebound(to: CChar.self) { readlink("/proc/self/fd/\(descriptor)", $0.baseAddress!, $0.count) }
        }
        guard count > 0, count < buffer.count, buffer[0] == UInt8(ascii: "/") else { return nil }
        return Array(buffer[..<count])
    }

    /// Whether the resolved path `path` is `folder` or lies below it (both resolved).
    static func isPath(_ path: [UInt8], within folder: [UInt8]) -> Bool {
        if folder == [UInt8(ascii: "/")] { return path.first == UInt8(ascii: "/") }
        guard path.count >= folder.count, path.starts(with: folder) else { return false }
        return path.count == folder.count || path[folder.count] == UInt8(ascii: "/")
    }
}
