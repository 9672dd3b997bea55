extension AnimationChannel {
    /// A matrix channel without the samples inside a span between two of `keys` that the matrix
    /// blend every writer's reader applies (translation and scale linear, rotation on the sphere;
    /// `sample(at:)`) already reproduces from the span's ends, to `tolerance` of the node's size
    /// (a ten-thousandth: a tenth of a millimetre on a metre-sized node).
    /// Readers sample a Collada or USD op stack between its keys, because those formats blend the
    /// numbers (angles, matrix elements) rather than the pose; a file assetc wrote is sampled
    /// densely enough already (`ColladaDocumentWriter` samples where its own blend would miss by
    /// as much), and sampled again at every read its key count grew eightfold per round trip.
    /// `keys` (the source's own key times, a clip's ends) are always kept.
    public func withoutSamplesTheBlendReproduces(keeping keys: Set<Double>, tolerance: Double = 1e-4) -> AnimationChannel {
        guard property == .matrix, times.count > 2, values.count == times.count * 16 else { return self }
        func matrix(_ k: Int) -> ArraySlice<Float> { values[(k * 16)..<(k * 16 + 16)] }
        var kept: [Int] = [0]
        var start = 0
        for k in 1..<times.count where keys.contains(times[k]) || k == times.count - 1 {
            if k - start > 1 {
                let ends = AnimationChannel(nodePath: nodePath, property: .matrix, times: [times[start], times[k]],
                                            values: Array(matrix(start)) + Array(matrix(k)))
                let size = max(1, matrix(start).map { abs(Double($0)) }.max() ?? 1)
                let reproduced = (start + 1..<k).allSatisfy { i in
                    guard let blended = ends.sample(at: times[i]) else { return false }
                    return zip(blended, matrix(i)).allSatisfy { abs(Double($0) - Double($1)) <= tolerance * size }
                }
                if !reproduced { kept += Array(start + 1..<k) }
            }
            kept.append(k)
            start = k
        }
        guard kept.count < times.count else { return self }
        var out = self
        out.times = kept.map { times[$0] }
        out.values = kept.flatMap { matrix($0) }
        return out
    }
}
