import SnapPoem
import Testing

@Suite("--shard auto: the shard from a Slurm job array or a Kubernetes Indexed Job")
struct ShardEnvironmentTests {
    @Test(
        "Slurm arrays numbered from 0, from 1, and in steps all give shards 1…N",
        arguments: [
            (["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "0"], 1, 8),
            (["SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "1"], 8, 8),
            (
                ["SLURM_ARRAY_TASK_ID": "30", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_STEP": "10"],
                3, 8
            ),
            (["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"], 2, 3),
            (["JOB_COMPLETION_INDEX": "0"], 1, 4),
            (["JOB_COMPLETION_INDEX": "3"], 4, 4),
        ])
    func shards(environment: [String: String], index: Int, count: Int) throws {
        let given = environment["JOB_COMPLETION_INDEX"] == nil ? nil : 4
        let shard = try Shard.fromEnvironment(environment, count: given)
        #expect(shard.index == index)
        #expect(shard.count == count)
        #expect(shard.manifestFileName == "manifest.shard-\(index)-of-\(count).jsonl")
    }

    @Test(
        "Missing or inconsistent variables are refused, naming them",
        arguments: [
            ([:], nil, "neither a Slurm job array"),
            (["SLURM_ARRAY_TASK_ID": "1"], nil, "SLURM_ARRAY_TASK_COUNT is not"),
            (["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1"], nil, "submit with --array=1-N"),
            (["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"], 4, "has 3 tasks"),
            (["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "3"], nil, "is not a whole number"),
            (["JOB_COMPLETION_INDEX": "0"], nil, "does not tell a pod how many shards there are"),
            (["JOB_COMPLETION_INDEX": "4"], 4, "not in 0…3"),
        ] as [([String: String], Int?, String)])
    func refused(environment: [String: String], count: Int?, reason: String) {
        do {
            _ = try Shard.fromEnvironment(environment, count: count)
            Issue.record("accepted \(environment)")
        } catch {
            #expect(error.description.contains(reason), "\(error.description)")
            // The library names the setting; the command line spells it (`--shard auto`).
            #expect(!error.description.contains("--shard"), "\(error.description)")
            #expect(error.setting == .shardFromEnvironment || error.setting == .shardCount)
        }
    }
}
