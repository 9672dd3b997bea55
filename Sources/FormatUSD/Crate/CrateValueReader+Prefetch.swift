import AssetCore
import Dispatch

extension CrateValueReader {
    /// Arrays at least this many numbers long are worth a thread.
    static let prefetchThreshold = 1 << 16

    /// Decodes the large numeric arrays among `reps` on both cores before the layer is built, so a
    /// mesh's points, face counts and indices decompress side by side instead of one after another.
    ///
    /// Nothing observable changes: an array is prefetched only when the memory budget has room for
    /// all of them at once; each is decoded against a scratch budget whose charges are replayed on
    /// the real one at the array's first use, where the sequential decode would have made them;
    /// and an array that fails to decode is left for the sequential path, which reports the error
    /// at the place it always did.
    mutating func prefetchLargeArrays(_ reps: [ValueRep]) {
        var seen: Set<ValueRep> = []
        var candidates: [(rep: ValueRep, type: CrateType, numbers: Int)] = []
        for rep in reps where rep.isArray && !rep.isArrayEdit && rep.payload != 0 && cache[rep] == nil && seen.insert(rep).inserted {
            guard let type = rep.type, let layout = type.numericLayout, let count = declaredCount(rep),
                  count <= UInt64(limits.maxArrayElements / max(layout.components, 1)) else { continue }
            let numbers = Int(count) * layout.components
            if numbers >= Self.prefetchThreshold { candidates.append((rep, type, numbers)) }
        }
        guard candidates.count >= 2 else { return }
        // Room for every candidate at the widest element any decode keeps (8 bytes), or none at all.
        let room = limits.maxMemoryBytes - budget.bytesSpent
        var bytes = 0
        for candidate in candidates {
            let (sum, overflow) = bytes.addingReportingOverflow(candidate.numbers * 8)
            guard !overflow, sum <= room else { return }
            bytes = sum
        }
        // Largest first, each to the less loaded of two workers.
        candidates.sort { $0.numbers > $1.numbers }
        var lanes: [[Int]] = [[], []]
        var load = [0, 0]
        for (i, candidate) in candidates.enumerated() {
            let lane = load[0] <= load[1] ? 0 : 1
            lanes[lane].append(i)
            load[lane] += candidate.numbers
        }
        var results = [(value: USDValue, work: Int, bytes: Int, spentWork: Int)?](repeating: nil, count: candidates.count)
        let limits = self.limits
        let lanesToRun = lanes, jobs = candidates
        results.withUnsafeMutableBufferPointer { out in
            // Each worker writes only the slots of its own lane; the file's bytes and the structure
            // are only read.
            nonisolated(unsafe) let slots = out
            nonisolated(unsafe) let file = self.file
            nonisolated(unsafe) let structure = self.structure
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                for i in lanesToRun[lane] {
                    let scratch = ReadBudget(limits)
                    var reader = CrateValueReader(file: file, structure: structure, budget: scratch)
                    do throws(AssetError) {
                        let (value, work) = try reader.array(jobs[i].rep, type: jobs[i].type)
                        slots[i] = (value, work, scratch.bytesSpent, scratch.workSpent)
                    } catch {
                        // Left undecoded: the sequential path decodes it again and reports this
                        // error where it always has.
                    }
                }
            }
        }
        for (i, result) in results.enumerated() {
            guard let result else { continue }
            cache[candidates[i].rep] = (result.value, result.work)
            prefetchedCharges[candidates[i].rep] = (result.bytes, result.spentWork)
        }
    }

    /// An array's element count as `decodeArray` reads it, or nil when reading it fails: such an
    /// array is not prefetched, and the sequential decode reports the failure.
    private func declaredCount(_ rep: ValueRep) -> UInt64? {
        do throws(AssetError) {
            var r = try reader(at: rep)
            if version < Version(0, 5, 0) { _ = try r.u32() }
            return version < Version(0, 7, 0) ? UInt64(try r.u32()) : try r.u64()
        } catch {
            return nil
        }
    }
}
