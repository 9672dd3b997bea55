import AssetCore
import AssetTestSupport
import Foundation
import Testing
@testable import FormatSPZ

@Suite struct SPZRoundTripTests {
    let temporary = TemporaryFolder("assetc-spz")

    /// Splats spread over what SPZ can hold, with degree-3 coefficients inside its [-1, 1) range.
    static func sample(count: Int = 50, degree: Int = 3) -> SplatSet {
        var rng = SplitMix(seed: 60)
        let k = (degree + 1) * (degree + 1)
        var rotations: [Float] = []
        for _ in 0..<count {
            var q = SIMD4<Float>(rng.float(-1, 1), rng.float(-1, 1), rng.float(-1, 1), rng.float(-1, 1))
            q /= (q * q).sum().squareRoot()
            rotations += [q.x, q.y, q.z, q.w]
        }
        return SplatSet(name: "s", centers: .float((0..<(3 * count)).map { _ in rng.float(-20, 20) }), rotations: .float(rotations),
                        scales: .float((0..<(3 * count)).map { _ in exp(rng.float(-6, 1)) }), opacities: .float((0..<count).map { _ in rng.float(0, 1) }),
                        shDegree: degree, sh: .float((0..<(3 * k * count)).map { i in i % (3 * k) < 3 ? rng.float(-1.5, 1.5) : rng.float(-0.9, 0.9) }))
    }

    func roundTrip(_ set: SplatSet) throws -> (SplatSet, [UInt8]) {
        var scene = Scene()
        scene.splats = [set]
        var node = Node(name: "n")
        node.splatInstances = [SplatInstance(splats: 0)]
        scene.root.children = [node]
        let written = try SPZWriter().write(scene, context: WriteContext(outputName: "t.spz", textureBytes: { _ in nil }))
        try FileManager.default.createDirectory(at: temporary.url, withIntermediateDirectories: true)
        let url = temporary.appendingPathComponent("t.spz")
        try Data(written.files[0].bytes).write(to: url)
        return (try SPZReader().read(from: url, options: ReadOptions()).scene.splats[0], written.files[0].bytes)
    }

    @Test func everyAttributeComesBackWithinItsQuantisationStep() throws {
        let set = Self.sample()
        let (back, bytes) = try roundTrip(set)
        #expect(Array(bytes.prefix(4)) == Array("NGSP".utf8))
        #expect(back.count == set.count && back.shDegree == 3)
        for i in 0..<set.count {
            // 12 fractional bits: half a step is 1/8192.
            #expect(Vector.length(back.center(i) - set.center(i)) <= 0.5 / 4096 * 1.8)
            // ln(s) in 1/16 steps: a ratio of at most e^(1/32).
            for c in 0..<3 { #expect(abs(log(back.scale(i)[c] / set.scale(i)[c])) <= 1.0 / 32 + 1e-5) }
            #expect(abs(back.opacities[i] - set.opacities[i]) <= 0.5 / 255 + 1e-6)
            // The same rotation: |q . q'| near 1 (q and -q are one rotation); 9 bits a component.
            let dot = abs((back.rotation(i) * set.rotation(i)).sum())
            #expect(dot >= 0.9999)
            let k = set.coefficientsPerSplat
            for c in 0..<3 { #expect(abs(back.sh[3 * k * i + c] - set.sh[3 * k * i + c]) <= 0.5 / 255 / 0.15 + 1e-5) }
            for j in 3..<(3 * k) { #expect(abs(back.sh[3 * k * i + j] - set.sh[3 * k * i + j]) <= 0.5 / 128 + 1e-6) }
        }
    }

    @Test func smallestThreeKeepsTheLargestComponentsSign() {
        for q in [SIMD4<Float>(0, 0, 0, 1), SIMD4(0.5, -0.5, 0.5, -0.5), SIMD4(-0.9, 0.1, 0.3, 0.2), SIMD4(0, -1, 0, 0)] {
            let unit = q / (q * q).sum().squareRoot()
            let packed = SPZEncoder.smallestThree(unit)
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: packed >> (8 * UInt32($0))) }
            let back = SPZDecoder.smallestThree(bytes[...], at: 0)
            #expect(abs((back * unit).sum()) >= 0.9999, "\(unit) came back as \(back)")
        }
    }

    @Test func aHeaderClaimingABillionSplatsInASmallFileIsRefusedBeforeReading() throws {
        var bytes = [UInt8]()
        for v: UInt32 in [SPZHeader.magic, 4, 1_000_000_000] { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        bytes += [0, 12, 0, 5] + [32, 0, 0, 0] + [UInt8](repeating: 0, count: 12 + 80)
        try FileManager.default.createDirectory(at: temporary.url, withIntermediateDirectories: true)
        let url = temporary.appendingPathComponent("huge.spz")
        try Data(bytes).write(to: url)
        #expect { try SPZReader().read(from: url, options: ReadOptions()) } throws: { error in
            (error as? AssetError)?.description.contains("claims 1000000000 splats") == true
        }
    }

    @Test func aTruncatedStreamIsALocatedError() throws {
        let (_, bytes) = try roundTrip(Self.sample(count: 20, degree: 1))
        try FileManager.default.createDirectory(at: temporary.url, withIntermediateDirectories: true)
        let url = temporary.appendingPathComponent("cut.spz")
        try Data(bytes.prefix(bytes.count - 7)).write(to: url)
        #expect { try SPZReader().read(from: url, options: ReadOptions()) } throws: { error in
            guard let error = error as? AssetError, case .malformed = error.kind else { return false }
            return error.location.file?.hasSuffix("cut.spz") == true
        }
    }
}

/// A small deterministic generator, so the sample is the same every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func float(_ low: Float, _ high: Float) -> Float { low + (high - low) * Float(next() >> 40) / Float(1 << 24) }
}
