/// The split-sum table (Karis 2013): for each n·v and perceptual roughness, the scale A and bias
/// B with which the specular lobe's integral over a uniform white environment is F0·A + B. With the
/// height-correlated visibility, as the direct BRDF uses. A + B below 1 is the energy single
/// scattering loses; the shader gives it back (Fdez-Agüera 2019), so a white furnace stays white.
struct BRDFTable: Sendable {
    static let size = 32
    static let samples = 256
    let values: [SIMD2<Float>]

    /// As Scripts/generate-studio-tables computed it ahead of time, else computed here.
    static let shared = BuiltInTables.brdf().map { BRDFTable(values: $0) } ?? BRDFTable()
    /// For the headlight, which never looks anything up: the table is computed only when it lights.
    static let unused = BRDFTable(values: Array(repeating: .zero, count: size * size))

    private init(values: [SIMD2<Float>]) { self.values = values }

    init() {
        let n = Self.size
        var values = [SIMD2<Float>](repeating: .zero, count: n * n)
        for row in 0..<n {
            let roughness = (Float(row) + 0.5) / Float(n)
            let alpha = roughness * roughness
            for column in 0..<n {
                let nDotV = (Float(column) + 0.5) / Float(n)
                let v = SIMD3<Float>((1 - nDotV * nDotV).squareRoot(), 0, nDotV)
                var a: Float = 0, b: Float = 0
                for i in 0..<Self.samples {
                    let h = BRDF.sampleHalfVector(BRDF.hammersley(i, Self.samples), alpha: alpha)
                    let vDotH = (v * h).sum()
                    let l = 2 * vDotH * h - v
                    let nDotL = l.z, nDotH = h.z
                    guard nDotL > 0, vDotH > 0 else { continue }
                    // pdf(l) = D n·h / (4 v·h), so each sample weighs V·4·(n·l)(v·h)/(n·h).
                    let weight = BRDF.visibility(nDotL: nDotL, nDotV: nDotV, alpha: alpha) * 4 * nDotL * vDotH / nDotH
                    let fc = BRDF.schlickWeight(vDotH)
                    a += (1 - fc) * weight
                    b += fc * weight
                }
                values[row * n + column] = SIMD2(a, b) / Float(Self.samples)
            }
        }
        self.values = values
    }

    /// (A, B), bilinear between the table's cell centres.
    @inline(__always) func lookup(nDotV: Float, roughness: Float) -> SIMD2<Float> {
        let n = Self.size
        let x = min(max(nDotV * Float(n) - 0.5, 0), Float(n - 1)), y = min(max(roughness * Float(n) - 0.5, 0), Float(n - 1))
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, n - 1), y1 = min(y0 + 1, n - 1)
        let fx = x - Float(x0), fy = y - Float(y0)
        let top = values[y0 * n + x0] + (values[y0 * n + x1] - values[y0 * n + x0]) * fx
        let bottom = values[y1 * n + x0] + (values[y1 * n + x1] - values[y1 * n + x0]) * fx
        return top + (bottom - top) * fy
    }
}
