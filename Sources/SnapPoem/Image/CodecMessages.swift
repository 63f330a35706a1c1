import CTesseractShim

/// What the image codecs under Leptonica said while one image was decoded on this thread:
/// libpng's, libjpeg's and libtiff's messages and Leptonica's own, which the libraries would
/// otherwise print, untagged. They are kept only in the `snap-poem` executable, whose
/// codec-messages override (`Sources/CProcessOverrides/CodecMessages.cpp`) gives the codecs
/// handlers that keep them; in any other program the codecs print as they always do, and
/// there is nothing to collect.
///
/// The decoder clears them before it decodes (`decoding`) and collects them after: an image that decodes
/// carries them as warnings that name the file ("the JPEG decoder said: Corrupt JPEG data:
/// …"), printed, counted and silenced by `--quiet` like every other warning. A batch worker
/// passes them through to its standard error instead (`passThrough()`), in the same words,
/// where its supervisor ties them to the image in flight even when the worker is stopped
/// mid-decode.
enum CodecMessages {
    /// Runs `body` with this thread's codec messages cleared first and the format it decodes
    /// named (`format`, "PNG"): messages passed through meanwhile read as the decoder's
    /// warnings do ("the PNG decoder said: …").
    static func decoding<Result, Failure: Error>(_ format: String, _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        snap_poem_hook_decoding(format)
        defer { snap_poem_hook_decoding(nil) }
        return try body()
    }

    /// What this thread's codecs said since `decoding` began: at most 8 messages of at most 240
    /// bytes, then a count of the rest. Empty when messages pass through (they were printed).
    static func collect() -> [String] {
        guard snap_poem_hook_codec_messages_pass_through() == 0 else { return [] }
        var messages = (0..<snap_poem_hook_codec_message_count()).compactMap { index in
            // Kept without libpng's own prefix (`decoding`): the warning names the decoder.
            // Bytes that are not UTF-8 are replaced; control characters are escaped where a
            // warning is printed.
            snap_poem_hook_codec_message(index).map { String(cString: $0) }
        }
        let dropped = snap_poem_hook_codec_messages_dropped()
        if dropped > 0 { messages.append("and \(dropped) more") }
        return messages
    }

    /// From now on, every codec message of this process is also written to standard error as
    /// it comes (for batch workers): in the decoder's words while one decodes (`decoding`),
    /// otherwise as the library would print it.
    static func passThrough() {
        snap_poem_hook_pass_codec_messages_through()
    }
}
