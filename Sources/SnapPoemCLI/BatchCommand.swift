import Foundation
import SnapPoem

/// Chooses how the command's images are read: `--check-manifests` reads none; a batch (a
/// folder, several images, `--output-dir`, JSON Lines) runs in supervised worker processes
/// (`SupervisedBatch`); a single image file is read in this process (`BatchRun`).
enum BatchCommand {
    static func run(options: CommandOptions, arguments: [String], console: Console, environment: [String: String]) async -> ExitCode {
        let console = options.batch.verbosity == .quiet ? console.quiet : console
        let collection = InputCollection.collect(options.inputs)
        if options.batch.checksManifests {
            return ManifestCheck(options: options, console: console, collection: collection).run()
        }
        if SupervisedBatch.applies(to: options, collection: collection) {
            return await SupervisedBatch(
                options: options, console: console, environment: environment, arguments: arguments, collection: collection
            ).run()
        }
        // One image: every output's fate is known before it is read.
        for path in [options.output, options.savePreprocessed, options.annotate].compactMap({ $0 }) where path != "-" {
            do throws(SnapPoemError) {
                try OutputFile.checkDestination(path, overwrite: options.force)
            } catch {
                console.writeError("snap-poem: error: \(error)\n")
                return .outputFailed
            }
        }
        return await BatchRun(options: options, console: console, environment: environment).run()
    }
}

extension Console {
    /// `-q`: the same streams without warnings, notes or progress; errors and results pass.
    var quiet: Console {
        let writeError = self.writeError
        return Console(
            writeOutput: writeOutput,
            writeError: { text in
                if text.hasPrefix("snap-poem: warning: ") || text.hasPrefix("snap-poem: note: ") { return }
                writeError(text)
            },
            errorIsTerminal: false)
    }
}
