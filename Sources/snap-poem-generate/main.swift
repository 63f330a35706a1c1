// snap-poem-generate: the files `make install` and `make deb` put beside the snap-poem
// executable, generated from its option table (SnapPoemCLI.InstalledFiles). Not installed.
//
//   snap-poem-generate man [--date YYYY-MM-DD] [--tessdata DIR] [--unit PATH]
//   snap-poem-generate completion bash|zsh|fish
//   snap-poem-generate version
//
// The manual page's date is --date, else SOURCE_DATE_EPOCH's day (UTC), else today's.
import Foundation
import SnapPoem
import SnapPoemCLI

let usage = "usage: snap-poem-generate man [--date YYYY-MM-DD] [--tessdata DIR] [--unit PATH] | completion bash|zsh|fish | version"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("snap-poem-generate: error: \(message)\n\(usage)\n".utf8))
    exit(64)
}

/// The day of `SOURCE_DATE_EPOCH` (reproducible builds), else today, in UTC.
func defaultDate() -> String {
    var seconds = Date().timeIntervalSince1970
    if let text = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"] {
        guard let epoch = Double(text), epoch >= 0 else { fail("SOURCE_DATE_EPOCH '\(text)' is not a number of seconds") }
        seconds = epoch
    }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let day = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: seconds))
    return String(format: "%04d-%02d-%02d", day.year!, day.month!, day.day!)
}

let arguments = Array(CommandLine.arguments.dropFirst())
var output: String
switch arguments.first {
case "man":
    var date: String?
    var tessdata: String?
    var unit: String?
    var index = 1
    while index < arguments.count {
        let option = arguments[index]
        guard index + 1 < arguments.count else { fail("'\(option)' needs a value") }
        let value = arguments[index + 1]
        switch option {
        case "--date": date = value
        case "--tessdata": tessdata = value
        case "--unit": unit = value
        default: fail("unknown option '\(option)'")
        }
        index += 2
    }
    let day = date ?? defaultDate()
    guard day.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) != nil else { fail("--date '\(day)' is not YYYY-MM-DD") }
    output = InstalledFiles.manualPage(date: day, tessdataFolder: tessdata, serviceUnit: unit)
case "completion":
    guard arguments.count == 2, let script = InstalledFiles.completion(forShell: arguments[1]) else {
        fail("name one shell: \(InstalledFiles.shells.joined(separator: ", "))")
    }
    output = script
case "version":
    output = SnapPoem.version + "\n"
default:
    fail(arguments.first.map { "unknown command '\($0)'" } ?? "name what to generate")
}
FileHandle.standardOutput.write(Data(output.utf8))
