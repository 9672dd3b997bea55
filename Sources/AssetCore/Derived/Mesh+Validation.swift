extension Mesh {
    /// The first topology problem that makes the mesh unusable, or nil. Readers drop such a mesh with
    /// a warning naming this text rather than failing the whole file.
    public func topologyProblem() -> String? {
        // Branch-free reductions first (they vectorize); the located messages are looked for only
        // when a reduction says something is wrong.
        let (expected, lowestCount) = faceVertexCounts.withUnsafeBufferPointer { counts in
            nonisolated(unsafe) let counts = counts
            return SplitReduction.reduce(count: counts.count, { range in
                var sum = 0, lowest = Int32.max
                // Indexed by pointer rather than `for c in counts[range]`: the slice's iterator is a
                // generic call per element in debug builds, which made a debug read of a few hundred
                // 100k-point meshes take a minute.
                guard let base = counts.baseAddress else { return (0, Int32.max) }
                var i = range.lowerBound
                while i < range.upperBound { let c = base[i]; sum &+= Int(c); lowest = Swift.min(lowest, c); i += 1 }
                return (sum, lowest)
            }, { ($0.0 &+ $1.0, Swift.min($0.1, $1.1)) })
        }
        if lowestCount < 0, let face = faceVertexCounts.firstIndex(where: { $0 < 0 }) {
            return "faceVertexCounts[\(face)] is negative (\(faceVertexCounts[face]))"
        }
        if expected != faceVertexIndices.count {
            return "faceVertexCounts add up to \(expected) but there are \(faceVertexIndices.count) faceVertexIndices"
        }
        let pointCount = points.count
        // As unsigned, a negative index is past every valid one.
        if Self.highest(faceVertexIndices) >= pointCount,
           let bad = faceVertexIndices.firstIndex(where: { $0 < 0 || Int($0) >= pointCount }) {
            return "faceVertexIndices[\(bad)] = \(faceVertexIndices[bad]) is outside the \(pointCount) points"
        }
        for subset in subsets {
            if let face = subset.faceIndices.first(where: { $0 < 0 || Int($0) >= faceVertexCounts.count }) {
                return "subset \(subset.name) names face \(face) of \(faceVertexCounts.count)"
            }
        }
        return nil
    }

    /// Primvars whose values or indices do not fit the mesh: (index into `primvars`, why).
    /// Readers drop these one by one with a warning; the mesh itself stays.
    public func primvarProblems() -> [(index: Int, problem: String)] {
        var problems: [(Int, String)] = []
        for (i, primvar) in primvars.enumerated() {
            let needed = primvar.interpolation.elementCount(for: self)
            let valueCount = primvar.values.count
            if let indices = primvar.indices {
                if indices.count != needed {
                    problems.append((i, "primvar \(primvar.name) has \(indices.count) indices; \(primvar.interpolation.rawValue) needs \(needed)"))
                } else if Self.highest(indices) >= valueCount, let bad = indices.first(where: { $0 < 0 || Int($0) >= valueCount }) {
                    problems.append((i, "primvar \(primvar.name) index \(bad) is outside its \(valueCount) values"))
                }
            } else if valueCount != needed && !(primvar.interpolation == .constant && valueCount >= 1) {
                problems.append((i, "primvar \(primvar.name) has \(valueCount) values; \(primvar.interpolation.rawValue) needs \(needed)"))
            }
        }
        return problems
    }

    /// The largest index read as unsigned, so a negative one counts as past every valid index; -1
    /// for none. A branch-free reduction (it vectorizes): the located message is looked for only
    /// when this says an index is out of range.
    static func highest(_ indices: [Int32]) -> Int {
        guard !indices.isEmpty else { return -1 }
        return indices.withUnsafeBufferPointer { buffer in
            nonisolated(unsafe) let buffer = buffer
            return Int(SplitReduction.reduce(count: buffer.count, { range in
                var highest: UInt32 = 0
                let base = buffer.baseAddress!  // by pointer, as in topologyProblem (debug speed)
                var i = range.lowerBound
                while i < range.upperBound { highest = Swift.max(highest, UInt32(bitPattern: base[i])); i += 1 }
                return highest
            }, Swift.max))
        }
    }
}
