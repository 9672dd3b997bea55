import Foundation
import Testing
@testable import AssetCore

/// The splat model's derived views, judged by what they must keep: a placed Gaussian's covariance
/// is A Σ Aᵀ, and its colour seen along a direction is the source's seen along that direction
/// turned back. Neither check shares the code it tests.
@Suite struct SplatSetTests {
    static func set(degree: Int = 3) -> SplatSet {
        let k = (degree + 1) * (degree + 1)
        var sh: [Float] = []
        for i in 0..<(3 * k * 3) { sh.append(Float(sin(Double(i) * 1.7)) * 0.6) }
        var rotations: [Float] = []
        for q in [SIMD4<Float>(0.2, -0.4, 0.1, 0.9), SIMD4(0, 0, 0, 1), SIMD4(-0.7, 0.1, 0.6, 0.3)] {
            let unit = q / (q * q).sum().squareRoot()
            rotations += [unit.x, unit.y, unit.z, unit.w]
        }
        return SplatSet(name: "t", centers: .float([0, 0, 0, 1, 2, 3, -1, 0.5, 2]), rotations: .float(rotations),
                        scales: .float([0.1, 0.2, 0.3, 0.5, 0.5, 0.5, 0.05, 0.4, 0.01]), opacities: .float([0.5, 1, 0.25]),
                        shDegree: degree, sh: .float(sh))
    }

    /// Σ = R S² Rᵀ of splat i, as a row-major 3x3 in Double.
    static func covariance(_ set: SplatSet, _ i: Int) -> [Double] {
        let (c0, c1, c2) = SplatSet.rotationMatrix(set.rotation(i))
        let s = set.scale(i)
        let m = [c0 * s.x, c1 * s.y, c2 * s.z]  // columns of R S
        var out = [Double](repeating: 0, count: 9)
        for r in 0..<3 { for c in 0..<3 { out[3 * r + c] = m.reduce(0) { $0 + Double($1[r]) * Double($1[c]) } } }
        return out
    }

    static func colour(_ set: SplatSet, _ i: Int, along d: SIMD3<Float>) -> SIMD3<Float> {
        set.sh.floats.withUnsafeBufferPointer { SplatHarmonics.evaluate($0.baseAddress! + 3 * set.coefficientsPerSplat * i, degree: set.shDegree, direction: d) }
    }

    static let directions: [SIMD3<Float>] = [SIMD3(0.3, 0.8, -0.52), SIMD3(-0.9, 0.1, 0.42), SIMD3(0, 0, 1), SIMD3(0.57735, -0.57735, 0.57735)]
        .map { $0 / ($0 * $0).sum().squareRoot() }

    @Test(arguments: [
        Matrix4x4.rotation(axis: [0.3, 1, -0.2], degrees: 37) * .scale([2, 2, 2]),
        Matrix4x4.translation([1, -2, 3]) * .rotation(axis: [1, 0, 0], degrees: 180),
        Matrix4x4.scale([-1, 1, 1]) * .rotation(axis: [0, 0, 1], degrees: 20),
        Matrix4x4.rotation(axis: [0, 1, 0], degrees: 50) * .scale([1, 3, 0.5]),
        Matrix4x4.scale([-1, 2, 0.5]) * .rotation(axis: [1, 1, 0], degrees: 30),
    ])
    func placingKeepsCovarianceAndViewDependentColour(_ transform: Matrix4x4) {
        let set = Self.set()
        let placed = set.transformed(by: transform)
        let a = (0..<3).map { r in (0..<3).map { c in [transform.c0, transform.c1, transform.c2][c][r] } }
        for i in 0..<set.count {
            let sigma = Self.covariance(set, i)
            var expected = [Double](repeating: 0, count: 9)  // A Σ Aᵀ
            for r in 0..<3 { for c in 0..<3 {
                var sum = 0.0
                for p in 0..<3 { for q in 0..<3 { sum += a[r][p] * sigma[3 * p + q] * a[c][q] } }
                expected[3 * r + c] = sum
            } }
            let got = Self.covariance(placed, i)
            let scale = expected.map(abs).max()!
            for k in 0..<9 { #expect(abs(got[k] - expected[k]) <= 1e-4 * scale, "covariance of splat \(i), entry \(k)") }
            let centre = transform.transformPoint(set.center(i).double)
            #expect(Vector.length(placed.center(i).double - centre) <= 1e-5)
            // The colour the placed splat shows along Q d is the source's along d, Q the turn (or
            // mirror) of the placement: for these matrices, A's columns normalised.
            let lengths = [transform.c0, transform.c1, transform.c2].map { Vector.length(SIMD3($0.x, $0.y, $0.z)) }
            let isSimilarity = lengths.max()! - lengths.min()! < 1e-9
            guard isSimilarity else { continue }
            for d in Self.directions {
                let turned = transform.transformDirection(d.double) / lengths[0]
                let seen = Self.colour(placed, i, along: SIMD3<Float>(Float(turned.x), Float(turned.y), Float(turned.z)))
                let source = Self.colour(set, i, along: d)
                #expect(Vector.length(seen - source) <= 2e-4, "colour of splat \(i) along \(d)")
            }
        }
    }

    @Test func changingAxesMirrorsCentresAndColourTogether() {
        let set = Self.set()
        let rdf = SplatAxes(name: "rdf")!, luf = SplatAxes(name: "luf")!, ruf = SplatAxes(name: "ruf")!
        for target in [rdf, luf, ruf] {
            let changed = set.converted(from: .rightUpBack, to: target)
            let flip = target.signs
            for i in 0..<set.count {
                #expect(changed.center(i) == set.center(i) * flip)
                for d in Self.directions {
                    #expect(Vector.length(Self.colour(changed, i, along: d * flip) - Self.colour(set, i, along: d)) <= 1e-5)
                }
                let sigma = Self.covariance(set, i), got = Self.covariance(changed, i)
                for r in 0..<3 { for c in 0..<3 {
                    #expect(abs(got[3 * r + c] - Double(flip[r] * flip[c]) * sigma[3 * r + c]) <= 1e-5)
                } }
            }
        }
        #expect(SplatAxes(name: "rdf")?.description == "rdf" && SplatAxes(name: "xyz") == nil && SplatAxes(name: "rdfx") == nil)
    }

    @Test func boundsHoldEveryThreeSigmaEllipsoid() {
        let set = Self.set()
        let box = set.bounds()
        for i in 0..<set.count {
            let (c0, c1, c2) = SplatSet.rotationMatrix(set.rotation(i))
            let s = set.scale(i) * 3
            // The ellipsoid's extreme along each axis is reached on its surface: sample it densely.
            for u in stride(from: 0.0, to: 2 * Double.pi, by: 0.05) {
                for v in stride(from: -Double.pi / 2, through: Double.pi / 2, by: 0.05) {
                    let local = SIMD3<Float>(Float(cos(v) * cos(u)), Float(cos(v) * sin(u)), Float(sin(v))) * s
                    let p = (c0 * local.x + c1 * local.y + c2 * local.z + set.center(i)).double
                    #expect(p.x >= box.min.x - 1e-5 && p.y >= box.min.y - 1e-5 && p.z >= box.min.z - 1e-5)
                    #expect(p.x <= box.max.x + 1e-5 && p.y <= box.max.y + 1e-5 && p.z <= box.max.z + 1e-5)
                }
            }
        }
        // and no wider than they need: the first splat's x extent is 3 |row x of R S|
        let (c0, c1, c2) = SplatSet.rotationMatrix(set.rotation(0))
        let s = set.scale(0)
        let half = 3 * ((c0.x * s.x) * (c0.x * s.x) + (c1.x * s.y) * (c1.x * s.y) + (c2.x * s.z) * (c2.x * s.z)).squareRoot()
        #expect(abs(Splat0Bounds.minX(set) - (0 - Double(half))) <= 1e-5)
    }

    @Test func lengthRulesNameWhatIsShort() {
        var set = Self.set(degree: 1)
        #expect(set.problem == nil)
        set.scales = .float([1, 2, 3])
        #expect(set.problem == "1 scales for 3 splats")
        set = Self.set(degree: 2)
        set.sh = .float([Float](repeating: 0, count: 9))
        #expect(set.problem?.contains("(27 expected)") == true)
    }
}

/// The first splat alone's box: its own centre is the origin.
enum Splat0Bounds {
    static func minX(_ set: SplatSet) -> Double {
        var one = set
        one.centers = .float(Array(set.centers.floats.prefix(3)))
        one.rotations = .float(Array(set.rotations.floats.prefix(4)))
        one.scales = .float(Array(set.scales.floats.prefix(3)))
        one.opacities = .float([set.opacities[0]])
        one.sh = .float(Array(set.sh.floats.prefix(3 * set.coefficientsPerSplat)))
        return one.bounds().min.x
    }
}
