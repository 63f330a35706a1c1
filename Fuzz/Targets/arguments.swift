// fuzz-modules: SnapPoem SnapPoemService SnapPoemServer SnapPoemCLI
//
// The command line: the input is split at NUL bytes into arguments, which go through the
// tokenizer (`ParsedArguments.parse`) and the binding and validation (`CommandOptions`), as
// `snap-poem` does before it reads any image. Usage errors must be one escaped line.
import Foundation
import SnapPoem

@testable import SnapPoemCLI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: bytes, count: size)
    let arguments = buffer.split(separator: 0, omittingEmptySubsequences: false).prefix(64).map {
        String(decoding: $0, as: UTF8.self)
    }
    do {
        let parsed = try ParsedArguments.parse(arguments)
        let options = try CommandOptions(parsed)
        precondition(options.showHelp || options.showVersion || options.listLanguages || !options.inputs.isEmpty, "no input")
    } catch {
        precondition(!OneLine.escaping(error.message).contains("\n"), "a usage error spans two lines")
    }
    return 0
}
