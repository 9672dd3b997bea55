/// One axis of a separable resize: for every output pixel, `count` consecutive source pixels and
/// their weights under Mitchell and Netravali's cubic (B = C = 1/3), widened by the shrink factor
/// when shrinking so that every source pixel is weighed, and normalised to sum to one.
///
/// Source positions are in a padded line: `margin` pixels before the first real one and after the
/// last, filled by the caller with edge pixels repeated (clamp) or the opposite side's (wrap), so
/// the taps of every output pixel are one contiguous run with no edge test in the inner loop.
struct ResampleAxis {
    /// Taps per output pixel; those past the kernel's support weigh zero.
    let count: Int
    /// Padded pixels on each side of the source line.
    let margin: Int
    /// Per output pixel, the padded position of its first tap.
    let first: [Int32]
    /// Per output pixel, `count` weights.
    let weights: [Float]
    let sourceLength: Int

    /// Mitchell's support is two pixels each side.
    static let support = 2.0

    init(source: Int, output: Int) {
        precondition(source > 0 && output > 0, "a resized axis has at least one pixel")
        let scale = Double(output) / Double(source)
        let stretch = min(scale, 1)
        let radius = Self.support / stretch
        let span = Int((2 * radius).rounded(.up)) + 1
        var starts = [Int](repeating: 0, count: output)
        var taps = [Double](repeating: 0, count: output * span)
        // The span covers the support wherever the centre falls; where it always falls the same
        // way (a shrink by a whole factor), its first or last taps weigh zero everywhere and are dropped.
        var used = [Bool](repeating: false, count: span)
        for x in 0..<output {
            // Pixel centres sit at half-integers on both axes.
            let centre = (Double(x) + 0.5) / scale
            starts[x] = Int((centre - 0.5 - radius).rounded(.up))
            var sum = 0.0
            for k in 0..<span {
                let w = Self.mitchell((Double(starts[x] + k) + 0.5 - centre) * stretch)
                taps[x * span + k] = w
                sum += w
                if w != 0 { used[k] = true }
            }
            for k in 0..<span where sum != 0 { taps[x * span + k] /= sum }
        }
        let skipped = used.firstIndex(of: true) ?? 0, count = (used.lastIndex(of: true) ?? 0) - skipped + 1
        var weights = [Float](repeating: 0, count: output * count)
        for x in 0..<output { for k in 0..<count { weights[x * count + k] = Float(taps[x * span + skipped + k]) } }
        let lowest = min(0, (starts.min() ?? 0) + skipped), highest = max(source, (starts.max() ?? 0) + skipped + count)
        let margin = max(-lowest, highest - source)
        let first = starts.map { Int32($0 + skipped + margin) }
        (self.count, self.margin, self.first, self.weights, self.sourceLength) = (count, margin, first, weights, source)
    }

    /// Padded positions in all.
    var paddedLength: Int { sourceLength + 2 * margin }

    /// The real source pixel at a padded position, for edges that clamp or wrap.
    func source(atPadded position: Int, wraps: Bool) -> Int {
        let i = position - margin
        if wraps { return ((i % sourceLength) + sourceLength) % sourceLength }
        return min(max(i, 0), sourceLength - 1)
    }

    static func mitchell(_ x: Double) -> Double {
        let t = abs(x)
        if t < 1 { return (16 + t * t * (21 * t - 36)) / 18 }
        if t < 2 { return (32 + t * (-60 + t * (36 - 7 * t))) / 18 }
        return 0
    }
}
