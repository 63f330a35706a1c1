import Foundation

/// SHA-256 (FIPS 180-4) of bytes, written as `sha256:` and 64 lowercase hex digits: the
/// content and options hashes of a batch manifest. The same digest as `sha256sum`, so a
/// person can check a manifest line against a file.
///
/// Written out here because Foundation on Linux has no digest API and the toolchain ships
/// none; it is the textbook algorithm over 64-byte blocks, checked against the standard's
/// test vectors in the tests.
public enum ContentHash {
    /// The hash of `data`, e.g. `sha256:e3b0c442…b855` for no bytes.
    public static func of(_ data: Data) -> String {
        data.withUnsafeBytes { "sha256:" + hex(digest(UnsafeRawBufferPointer($0))) }
    }

    /// The hash of a string's UTF-8 bytes.
    public static func of(_ text: String) -> String {
        of(Data(text.utf8))
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The 32-byte digest.
    static func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var state: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        var schedule = [UInt32](repeating: 0, count: 64)
        let fullBlocks = bytes.count / 64
        state.withUnsafeMutableBufferPointer { state in
            schedule.withUnsafeMutableBufferPointer { schedule in
                roundConstants.withUnsafeBufferPointer { constants in
                    for block in 0..<fullBlocks {
                        compress(UnsafeRawBufferPointer(rebasing: bytes[(block * 64)..<(block * 64 + 64)]), state, schedule, constants)
                    }
                    // The tail: the remaining bytes, 0x80, zeros, and the length in bits.
                    var tail = [UInt8](bytes[(fullBlocks * 64)...])
                    tail.append(0x80)
                    while tail.count % 64 != 56 { tail.append(0) }
                    let bitLength = UInt64(bytes.count) &* 8
                    for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
                    tail.withUnsafeBytes { tail in
                        for block in 0..<(tail.count / 64) {
                            compress(UnsafeRawBufferPointer(rebasing: tail[(block * 64)..<(block * 64 + 64)]), state, schedule, constants)
                        }
                    }
                }
            }
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }

    @inline(__always)
    private static func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }

    private static func compress(
        _ block: UnsafeRawBufferPointer, _ state: UnsafeMutableBufferPointer<UInt32>, _ w: UnsafeMutableBufferPointer<UInt32>,
        _ k: UnsafeBufferPointer<UInt32>
    ) {
        for index in 0..<16 {
            let offset = index * 4
            w[index] =
                UInt32(block[offset]) << 24 | UInt32(block[offset + 1]) << 16 | UInt32(block[offset + 2]) << 8 | UInt32(block[offset + 3])
        }
        for index in 16..<64 {
            let s0 = rotateRight(w[index - 15], 7) ^ rotateRight(w[index - 15], 18) ^ (w[index - 15] >> 3)
            let s1 = rotateRight(w[index - 2], 17) ^ rotateRight(w[index - 2], 19) ^ (w[index - 2] >> 10)
            w[index] = w[index - 16] &+ s0 &+ w[index - 7] &+ s1
        }
        var a = state[0], b = state[1], c = state[2], d = state[3]
        var e = state[4], f = state[5], g = state[6], h = state[7]
        for index in 0..<64 {
            let s1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
            let choice = (e & f) ^ (~e & g)
            let temporary1 = h &+ s1 &+ choice &+ k[index] &+ w[index]
            let s0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temporary2 = s0 &+ majority
            h = g
            g = f
            f = e
            e = d &+ temporary1
            d = c
            c = b
            b = a
            a = temporary1 &+ temporary2
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var characters: [UInt8] = []
        characters.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            characters.append(digits[Int(byte >> 4)])
            characters.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
