/// A part of a batch for one machine: shard `index` (1-based) of `count`.
///
/// Inputs are dealt round-robin in their sorted order, so every input belongs to exactly one
/// shard, the shards differ in size by at most one, and any scheduler that runs
/// `--shard 1/N` … `--shard N/N` (one per machine or job) covers the whole batch.
public struct Shard: Sendable, Equatable {
    /// Which shard, from 1 to `count`.
    public let index: Int
    /// How many shards there are.
    public let count: Int

    /// Creates a shard; `index` must be in 1...count.
    public init(index: Int, count: Int) throws(SnapPoemError) {
        guard count >= 1, (1...count).contains(index) else {
            throw .invalidOption(option: Setting.shard.rawValue, reason: "'\(index)/\(count)' must be K/N with 1 ≤ K ≤ N")
        }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`, e.g. `2/8`.
    public init(parsing text: String) throws(SnapPoemError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw .invalidOption(option: Setting.shard.rawValue, reason: "'\(text)' is not K/N, e.g. 2/8")
        }
        try self.init(index: index, count: count)
    }

    /// The inputs of this shard, in their original order.
    public func select<T>(_ inputs: [T]) -> [T] {
        inputs.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    /// The name of this shard's manifest in the output folder: `manifest.shard-K-of-N.jsonl`,
    /// so that shards writing into one shared folder never write the same file.
    public var manifestFileName: String { "manifest.shard-\(index)-of-\(count).jsonl" }
}

extension Shard {
    /// The shard a scheduler assigned to this process (`--shard auto`), from its environment:
    ///
    /// - a Slurm job array: `SLURM_ARRAY_TASK_ID` among `SLURM_ARRAY_TASK_COUNT` tasks, counted
    ///   from `SLURM_ARRAY_TASK_MIN` in steps of `SLURM_ARRAY_TASK_STEP` (so `--array=0-7`,
    ///   `--array=1-8` and `--array=10-80:10` all give shards 1/8 … 8/8);
    /// - a Kubernetes Indexed Job: `JOB_COMPLETION_INDEX` (0-based); Kubernetes does not tell
    ///   a pod how many completions there are, so `count` must be given (`--shard auto/N`).
    ///
    /// - Parameters:
    ///   - environment: the process's environment variables, e.g.
    ///     `ProcessInfo.processInfo.environment`.
    ///   - count: N when given on the command line; for Slurm it must agree with
    ///     `SLURM_ARRAY_TASK_COUNT`.
    /// - Throws: `SnapPoemError.invalidOption` naming the variable that is missing or wrong,
    ///   about `Setting.shardCount` when `count` is missing or disagrees, else about
    ///   `Setting.shardFromEnvironment`.
    public static func fromEnvironment(_ environment: [String: String], count: Int? = nil) throws(SnapPoemError) -> Shard {
        let scheduler = Setting.shardFromEnvironment.rawValue
        let given = Setting.shardCount.rawValue
        func number(_ name: String) throws(SnapPoemError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw .invalidOption(option: scheduler, reason: "\(name)='\(text)' is not a whole number")
            }
            return value
        }
        if let task = try number("SLURM_ARRAY_TASK_ID") {
            guard let total = try number("SLURM_ARRAY_TASK_COUNT") else {
                throw .invalidOption(option: scheduler, reason: "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
            }
            let minimum = try number("SLURM_ARRAY_TASK_MIN") ?? 1
            let step = max(1, try number("SLURM_ARRAY_TASK_STEP") ?? 1)
            let offset = task - minimum
            guard offset >= 0, offset % step == 0, offset / step < total else {
                throw .invalidOption(
                    option: scheduler,
                    reason:
                        "Slurm array task \(task) is not one of \(total) evenly spaced tasks from \(minimum) in steps of \(step); submit with --array=1-N"
                )
            }
            if let count, count != total {
                throw .invalidOption(
                    option: given, reason: "the Slurm job array has \(total) tasks (SLURM_ARRAY_TASK_COUNT), not \(count)"
                )
            }
            return try Shard(index: offset / step + 1, count: total)
        }
        if let completion = try number("JOB_COMPLETION_INDEX") {
            guard let count else {
                throw .invalidOption(
                    option: given,
                    reason:
                        "a Kubernetes Indexed Job does not tell a pod how many shards there are: give their number, the Job's completions")
            }
            guard (0..<count).contains(completion) else {
                throw .invalidOption(
                    option: given, reason: "JOB_COMPLETION_INDEX=\(completion) is not in 0…\(count - 1)")
            }
            return try Shard(index: completion + 1, count: count)
        }
        throw .invalidOption(
            option: scheduler,
            reason:
                "neither a Slurm job array (SLURM_ARRAY_TASK_ID) nor a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) is in the environment; give K/N"
        )
    }
}
