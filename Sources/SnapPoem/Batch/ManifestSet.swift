/// Every manifest of an output folder, merged: for each input, the line that says what is
/// on disk for it now, and which manifests mention it. One rule for every reader: a rerun
/// deciding what to read again (`ResumePlan`) and `--check-manifests` alike.
///
/// The rule: in each file the input's current line (`BatchManifest`); `cancelled` lines say
/// nothing about the output and are left out; across files the latest by `finishedAt`, and
/// on a tie the run's own manifest, else the first file by name.
public struct ManifestSet: Sendable {
    /// What the manifests say about one input.
    public struct Record: Sendable, Equatable {
        /// The line that counts.
        public var entry: ManifestEntry
        /// The manifest it is in.
        public var file: String
        /// Every manifest that has a line (other than `cancelled`) for the input, sorted.
        public var files: [String]
    }

    /// The manifest files read, sorted by name.
    public var files: [String]
    /// Lines no manifest could read, in all.
    public var unreadableLines: Int
    private var records: [ExactName: Record]

    /// Reads every manifest of `folder`.
    ///
    /// - Parameters:
    ///   - folder: the output folder whose manifests are read.
    ///   - own: the manifest this run writes, preferred on a tie.
    /// - Throws: `SnapPoemError.unreadableFile` for a manifest that is a link, a special file,
    ///   over `BatchManifest.maximumBytes` (all the folder's manifests together) or holding
    ///   entries for over `BatchManifest.maximumEntries` images, and for a folder of more
    ///   than `BatchManifest.maximumFiles` manifests.
    public init(reading folder: OutputFolder, own: String? = nil) throws(SnapPoemError) {
        files = BatchManifest.files(in: folder)
        guard files.count <= BatchManifest.maximumFiles else {
            throw .unreadableFile(
                path: folder.shownPath(BatchManifest.wholeBatchFileName),
                reason:
                    "the folder holds \(InputCollection.grouped(files.count)) manifests, over the limit of \(InputCollection.grouped(BatchManifest.maximumFiles)) (one a shard)"
            )
        }
        unreadableLines = 0
        records = [:]
        var budget = BatchManifest.maximumBytes
        for file in files {
            let (contents, bytes) = try BatchManifest.read(file, in: folder, within: budget)
            budget -= bytes
            unreadableLines += contents.unreadableLines
            for entry in contents.compacted where entry.status != .cancelled {
                let input = ExactName(entry.input)
                guard var record = records[input] else {
                    records[input] = Record(entry: entry, file: file, files: [file])
                    continue
                }
                record.files.append(file)
                if entry.finishedAt > record.entry.finishedAt || (entry.finishedAt == record.entry.finishedAt && file == own) {
                    record.entry = entry
                    record.file = file
                }
                records[input] = record
            }
        }
    }

    /// What the manifests say about the input `relativePath`; nil when none mentions it.
    public func record(for relativePath: String) -> Record? {
        records[ExactName(relativePath)]
    }

    /// Every input some manifest mentions, each once (by its exact bytes: two spellings of
    /// one name, such as composed and decomposed accents, are two inputs), in no order.
    public var inputs: [String] { records.keys.map(\.name) }

    /// `inputs`, compared by their exact bytes.
    var exactInputs: Set<ExactName> { Set(records.keys) }
}
