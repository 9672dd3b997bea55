import AssetCore

/// Where a 3DGS PLY keeps each splat value among the vertex element's properties: the layout the
/// INRIA trainer writes and every capture tool since copies (`f_dc_0..2`, `f_rest_*` channel-major,
/// `opacity` as a logit, `scale_0..2` as logarithms, `rot_0..3` with w first).
struct PLYSplatLayout {
    enum Kind: Equatable {
        /// 3D Gaussians with spherical harmonics.
        case gaussians
        /// 2DGS surfels: two scales, the third axis flat.
        case surfels
        /// Splat geometry whose colour is plain `red/green/blue` instead of SH (degree 0 made from it).
        case colouredGaussians
    }

    var kind: Kind
    var position: (Int, Int, Int)
    /// `f_dc_0..2`, or `red/green/blue` for `colouredGaussians`.
    var colour: (Int, Int, Int)
    /// `f_rest_0...` in order; empty for degree 0.
    var rest: [Int]
    var opacity: Int
    /// The third is nil for surfels.
    var scale: (Int, Int, Int?)
    var rotation: (Int, Int, Int, Int)
    var shDegree: Int

    /// The layout of `element` when it holds splats; nil for a plain point cloud or mesh, whose
    /// vertices carry none of opacity, scales and rotations. A vertex element with some of them but
    /// not a usable set is an error naming what is missing.
    init?(_ element: PLYHeader.Element, file: String) throws(AssetError) {
        let names = element.properties.map(\.name)
        func slot(_ name: String) -> Int? { names.firstIndex(of: name) }
        let splatNames = ["opacity", "scale_0", "scale_1", "rot_0"]
        guard splatNames.contains(where: { slot($0) != nil }) else { return nil }
        let here = SourceLocation(file: file, line: element.line)
        var missing = ["x", "y", "z", "opacity", "scale_0", "scale_1", "rot_0", "rot_1", "rot_2", "rot_3"].filter { slot($0) == nil }
        let dc = [slot("f_dc_0"), slot("f_dc_1"), slot("f_dc_2")]
        let rgb = [slot("red"), slot("green"), slot("blue")]
        if dc.contains(nil) && rgb.contains(nil) { missing.append("f_dc_0..2 (or red/green/blue)") }
        guard missing.isEmpty else {
            throw AssetError(.malformed("the vertex element has splat properties but not \(missing.joined(separator: ", ")): neither splats nor a point cloud"), at: here)
        }
        if let listed = element.properties.first(where: { $0.countType != nil }) {
            throw AssetError(.malformed("the splat vertex element has a list property '\(listed.name)'"), at: here)
        }
        position = (slot("x")!, slot("y")!, slot("z")!)
        opacity = slot("opacity")!
        rotation = (slot("rot_0")!, slot("rot_1")!, slot("rot_2")!, slot("rot_3")!)
        scale = (slot("scale_0")!, slot("scale_1")!, slot("scale_2"))
        if !dc.contains(nil) {
            colour = (dc[0]!, dc[1]!, dc[2]!)
            kind = scale.2 == nil ? .surfels : .gaussians
        } else {
            colour = (rgb[0]!, rgb[1]!, rgb[2]!)
            kind = .colouredGaussians
        }
        // f_rest_k for k = 0, 1, ... with no gap: 3 channels of 3, 8 or 15 coefficients.
        var rest: [Int] = []
        while let k = slot("f_rest_\(rest.count)") { rest.append(k) }
        let strays = names.filter { $0.hasPrefix("f_rest_") }.count - rest.count
        guard strays == 0 else {
            throw AssetError(.malformed("the f_rest properties are not numbered 0 to \(names.filter { $0.hasPrefix("f_rest_") }.count - 1) without a gap"), at: here)
        }
        guard let degree = [0: 0, 9: 1, 24: 2, 45: 3][rest.count] else {
            throw AssetError(.malformed("\(rest.count) f_rest properties; 3DGS has 0, 9, 24 or 45 (SH degree 0 to 3)"), at: here)
        }
        if kind == .colouredGaussians && !rest.isEmpty {
            throw AssetError(.malformed("f_rest properties without f_dc_0..2"), at: here)
        }
        self.rest = rest
        shDegree = degree
    }

    /// Coefficients per splat beyond the first.
    var restPerChannel: Int { rest.count / 3 }
}
