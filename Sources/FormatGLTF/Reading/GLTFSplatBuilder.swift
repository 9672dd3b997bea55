import AssetCore

/// A `KHR_gaussian_splatting` POINTS primitive as a `SplatSet`: `POSITION`, and the extension's
/// `ROTATION` (x, y, z, w), `SCALE` (linear, as the ratified extension and the USD schema store it),
/// `OPACITY` and `SH_DEGREE_l_COEF_n` attributes, in the component types the extension allows (a
/// normalised integer is read as the glTF specification maps it). The degree is the highest one
/// whose coefficients are all there; a degree given in part is left out with a warning. The
/// primitive's `COLOR_0` is the fallback for viewers without the extension and is read past.
/// glTF coordinates are the scene's, so nothing is turned.
struct GLTFSplatBuilder {
    let accessors: GLTFAccessorReader

    static let prefix = GLTFSplatNames.prefix
    func build(_ primitive: GLTFAsset.Primitive, extension splatting: GLTFAsset.PrimitiveExtensions.GaussianSplatting, name: String,
               at here: SourceLocation, diagnostics: inout [Diagnostic]) throws(AssetError) -> SplatSet {
        func attribute(_ semantic: String, components: Int) throws(AssetError) -> [Float] {
            guard let index = primitive.attributes[Self.prefix + semantic] else {
                throw AssetError(.malformed("a KHR_gaussian_splatting primitive has no \(Self.prefix)\(semantic)"), at: here)
            }
            try checkType(semantic, index, at: here)
            return try accessors.floats(index, allowedComponents: [components], what: Self.prefix + semantic).values
        }
        guard let positionIndex = primitive.attributes["POSITION"] else {
            throw AssetError(.malformed("a KHR_gaussian_splatting primitive has no POSITION"), at: here)
        }
        let centers = try accessors.floats(positionIndex, allowedComponents: [3], what: "POSITION").values
        let count = centers.count / 3
        var rotations = try attribute("ROTATION", components: 4)
        let scales = try attribute("SCALE", components: 3)
        let opacities = try attribute("OPACITY", components: 1)
        for (semantic, values, size) in [("ROTATION", rotations, 4), ("SCALE", scales, 3), ("OPACITY", opacities, 1)] where values.count != count * size {
            throw AssetError(.malformed("\(Self.prefix)\(semantic) has \(values.count / size) elements for \(count) positions"), at: here)
        }
        for q in 0..<count {
            var v = SIMD4(rotations[4 * q], rotations[4 * q + 1], rotations[4 * q + 2], rotations[4 * q + 3])
            let length = (v * v).sum().squareRoot()
            v = length > 0 && length.isFinite ? v / length : SIMD4(0, 0, 0, 1)
            for k in 0..<4 { rotations[4 * q + k] = v[k] }
        }
        var degree = -1
        var bands: [[Float]] = []
        for l in 0...3 {
            let names = (0..<(2 * l + 1)).map { "SH_DEGREE_\(l)_COEF_\($0)" }
            let present = names.filter { primitive.attributes[Self.prefix + $0] != nil }
            if present.isEmpty { break }
            guard present.count == names.count else {
                diagnostics.append(.warning("SH degree \(l) is given in part (\(present.count) of \(names.count) coefficients); degree \(l) and up are left out", at: here))
                break
            }
            var band: [[Float]] = []
            for semantic in names {
                let values = try attribute(semantic, components: 3)
                guard values.count == 3 * count else {
                    throw AssetError(.malformed("\(Self.prefix)\(semantic) has \(values.count / 3) elements for \(count) positions"), at: here)
                }
                band.append(values)
            }
            bands.append(contentsOf: band)
            degree = l
        }
        if degree < 0 {
            throw AssetError(.malformed("a KHR_gaussian_splatting primitive has no \(Self.prefix)SH_DEGREE_0_COEF_0"), at: here)
        }
        // Coefficient-major attributes interleaved splat by splat.
        let perSplat = bands.count
        var sh = [Float](repeating: 0, count: 3 * perSplat * count)
        for (k, band) in bands.enumerated() {
            for i in 0..<count {
                sh[3 * (perSplat * i + k)] = band[3 * i]; sh[3 * (perSplat * i + k) + 1] = band[3 * i + 1]; sh[3 * (perSplat * i + k) + 2] = band[3 * i + 2]
            }
        }
        var set = SplatSet(name: name, centers: .float(centers), rotations: .float(rotations), scales: .float(scales), opacities: .float(opacities),
                           shDegree: degree, sh: .float(sh), axes: .rightUpBack)
        if let kernel = splatting.kernel, kernel != "ellipse" {
            diagnostics.append(.warning("kernel '\(kernel)' is not one KHR_gaussian_splatting defines; drawn as 'ellipse'", at: here))
        }
        switch splatting.colorSpace {
        case "lin_rec709_display"?: set.colorSpace = .linearRec709Display
        case "srgb_rec709_display"?, nil: break
        case let other?: diagnostics.append(.warning("colorSpace '\(other)' is not one KHR_gaussian_splatting defines; read as srgb_rec709_display", at: here))
        }
        // COLOR_0, when there, is the fallback for viewers without the extension: derived from the
        // splats, so nothing is lost by reading past it.
        return set
    }

    private func checkType(_ semantic: String, _ index: Int, at here: SourceLocation) throws(AssetError) {
        guard let accessor = accessors.described(index) else { return }  // a missing accessor is reported by the read
        let normalized = accessor.normalized ?? false
        let allowed = GLTFSplatNames.format(of: semantic)?.components ?? [(5126, false)]
        guard allowed.contains(where: { $0.componentType == accessor.componentType && $0.normalized == normalized }) else {
            throw AssetError(.malformed("\(Self.prefix)\(semantic) has componentType \(accessor.componentType)\(normalized ? " (normalized)" : ""), which KHR_gaussian_splatting does not allow"),
                             at: accessors.location(index))
        }
    }
}
