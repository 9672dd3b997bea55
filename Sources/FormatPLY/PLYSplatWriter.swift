import AssetCore
import Foundation

/// Writes splats as the INRIA trainer's PLY, which every 3DGS viewer and converter reads: binary
/// little endian, one vertex element of float properties (`x y z nx ny nz f_dc_0..2 f_rest_*
/// opacity scale_0..2 rot_0..3`), log scales, logit opacities, w-first quaternions, the `f_rest`
/// channel-major, in `rdf` axes. Every set of the (flattened) scene goes into the one element at
/// the highest SH degree among them, lower ones padded with zeros. PLY has one vertex element, so
/// meshes beside splats are left out with a warning.
enum PLYSplatWriter {
    static func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult {
        var diagnostics: [Diagnostic] = []
        let placed = scene.placedSplats()
        let sets = placed.map { scene.splats[$0.instance.splats].transformed(by: $0.worldTransform).converted(from: .rightUpBack, to: .rightDownForward) }
        let degree = sets.map(\.shDegree).max() ?? 0
        let coefficients = (degree + 1) * (degree + 1)
        let total = sets.reduce(0) { $0 + $1.count }
        if !scene.placedMeshes().isEmpty {
            diagnostics.append(.warning("a 3DGS PLY holds splats only: \(scene.placedMeshes().count) meshes beside the splats left out (write .usdz or .glb to keep both)"))
        }
        let restCount = 3 * (coefficients - 1)
        var header = "ply\nformat binary_little_endian 1.0\ncomment written by assetc (3D Gaussian splats)\nelement vertex \(total)\n"
        for name in ["x", "y", "z", "nx", "ny", "nz", "f_dc_0", "f_dc_1", "f_dc_2"] + (0..<restCount).map({ "f_rest_\($0)" })
            + ["opacity", "scale_0", "scale_1", "scale_2", "rot_0", "rot_1", "rot_2", "rot_3"] {
            header += "property float \(name)\n"
        }
        header += "end_header\n"
        let stride = 6 + 3 + restCount + 1 + 3 + 4
        var floats = [Float](repeating: 0, count: total * stride)
        var row = 0
        for set in sets {
            set.withBuffers { b in
                let own = set.coefficientsPerSplat
                for i in 0..<set.count {
                    let base = row * stride
                    let c = b.center(i), s = b.scale(i), q = b.rotation(i)
                    floats[base] = c.x; floats[base + 1] = c.y; floats[base + 2] = c.z
                    for channel in 0..<3 { floats[base + 6 + channel] = b.sh[3 * own * i + channel] }
                    for k in 1..<max(own, 1) {
                        for channel in 0..<3 { floats[base + 9 + channel * (coefficients - 1) + (k - 1)] = b.sh[3 * own * i + 3 * k + channel] }
                    }
                    let after = base + 9 + restCount
                    let o = min(max(b.opacities[i], opacityFloor), 1 - opacityFloor)
                    floats[after] = log(o / (1 - o))
                    for k in 0..<3 { floats[after + 1 + k] = log(max(s[k], .leastNormalMagnitude)) }
                    floats[after + 4] = q.w; floats[after + 5] = q.x; floats[after + 6] = q.y; floats[after + 7] = q.z
                    row += 1
                }
            }
        }
        var out = ByteWriter()
        out.append(header)
        out.f32s(floats)
        return WriteResult(files: [OutputFile(relativePath: context.outputName, bytes: out.bytes)], diagnostics: diagnostics)
    }

    /// Opacities are kept this far from 0 and 1, whose logits are infinite.
    static let opacityFloor: Float = 1e-7
}
