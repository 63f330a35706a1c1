import Dispatch
import Foundation

/// The process entry point: runs the command in a task that Ctrl-C (SIGINT) or SIGTERM
/// cancels, so recognition stops promptly and no output is left half-written.
public enum SnapPoemMain {
    /// Runs `snap-poem` with the process's arguments and returns its exit code.
    public static func run() async -> Int32 {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == BatchWorkerMode.argument {
            // A batch worker: its supervisor decides about signals and stops it itself.
            return await BatchWorkerMode.run(Array(arguments.dropFirst()))
        }
        let task = Task { await SnapPoemCommand.run(arguments) }
        // `serve` stops gracefully on the first signal and says itself how it ended.
        let stopsGracefully = arguments.first == ServeCommand.name
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                // The first signal cancels: recognition stops, temporary files are removed.
                // A second one ends the process at once, e.g. while it waits for standard
                // input; outputs are only ever renamed into place, so nothing is half-written.
                if task.isCancelled { _exit(ExitCode.interrupted.rawValue) }
                task.cancel()
            }
            source.resume()
            sources.append(source)
        }
        let code = await task.value
        sources.forEach { $0.cancel() }
        return task.isCancelled && !stopsGracefully ? ExitCode.interrupted.rawValue : code
    }
}
