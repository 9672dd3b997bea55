/// A set of 3D Gaussians (a 3DGS capture), placed by a node like a mesh: USD's
/// `ParticleField3DGaussianSplat`, glTF's `KHR_gaussian_splatting`, a 3DGS PLY, an SPZ file.
///
/// Values are stored activated, as the USD schema and the glTF extension define them: linear
/// scales (standard deviations along the splat's local axes), opacities in 0...1, unit
/// quaternions. Format-specific encodings (PLY's log scales and logit opacities, SPZ's fixed point)
/// are undone by the readers and redone by the writers. The spherical-harmonic coefficients are
/// those 3DGS optimises: the colour seen from direction d is `SH(d) + 0.5`, per channel.
///
/// The attributes live in flat arrays (three floats a centre, not `SIMD3`, whose stride is four)
/// so a set takes no more memory than its values; a source that stores half floats keeps them
/// half (`SplatScalars.half`) and is widened only where a value is used.
public struct SplatSet: Sendable, Equatable {
    public var name: String
    /// x, y, z of each splat, in the set's `axes`.
    public var centers: SplatScalars
    /// x, y, z, w (imaginary part first, as glTF and the USD crate store them) of each splat;
    /// unit length once read.
    public var rotations: SplatScalars
    /// Standard deviations along the rotated x, y and z axes; one may be 0 (a 2D Gaussian).
    public var scales: SplatScalars
    /// One per splat, 0 (invisible) to 1.
    public var opacities: SplatScalars
    /// 0 to 3: each splat has `(shDegree + 1)^2` coefficients.
    public var shDegree: Int
    /// RGB of each coefficient of each splat, splat after splat, coefficient after coefficient in
    /// the usual real-SH order (l = 0; l = 1, m = -1, 0, 1; ...): `count * (shDegree + 1)^2 * 3`.
    public var sh: SplatScalars
    /// Which way the data's axes point: the scene sees the set through `axes.toSceneFrame`.
    public var axes: SplatAxes
    /// Trained with Mip-Splatting's antialiasing filter (SPZ's flag, glTF's `kernel`): the
    /// renderer's 2D low-pass then also rescales opacity.
    public var antialiased = false
    /// How the colours are encoded: the 3DGS trainers' sRGB unless a glTF says linear.
    public var colorSpace: SplatColorSpace = .srgbRec709Display

    public init(name: String, centers: SplatScalars, rotations: SplatScalars, scales: SplatScalars, opacities: SplatScalars,
                shDegree: Int, sh: SplatScalars, axes: SplatAxes = .rightUpBack) {
        self.name = name
        self.centers = centers
        self.rotations = rotations
        self.scales = scales
        self.opacities = opacities
        self.shDegree = shDegree
        self.sh = sh
        self.axes = axes
    }

    public var count: Int { opacities.count }

    /// Coefficients per splat: 1, 4, 9 or 16.
    public var coefficientsPerSplat: Int { (shDegree + 1) * (shDegree + 1) }

    /// Whether any attribute keeps half floats.
    public var isHalfPrecision: Bool { [centers, rotations, scales, opacities, sh].contains { $0.isHalf } }

    /// Bytes the attributes take.
    public var attributeBytes: Int { [centers, rotations, scales, opacities, sh].reduce(0) { $0 + $1.byteCount } }

    public func center(_ i: Int) -> SIMD3<Float> { SIMD3(centers[3 * i], centers[3 * i + 1], centers[3 * i + 2]) }
    public func rotation(_ i: Int) -> SIMD4<Float> { SIMD4(rotations[4 * i], rotations[4 * i + 1], rotations[4 * i + 2], rotations[4 * i + 3]) }
    public func scale(_ i: Int) -> SIMD3<Float> { SIMD3(scales[3 * i], scales[3 * i + 1], scales[3 * i + 2]) }

    /// Why the set cannot be used as it is, or nil: the length rules of the USD schema and the
    /// glTF extension (every attribute one value a splat, the coefficients a whole number of sets).
    public var problem: String? {
        guard (0...3).contains(shDegree) else { return "spherical-harmonic degree \(shDegree) is not 0 to 3" }
        let n = count
        if centers.count != 3 * n { return "\(centers.count / 3) centres for \(n) opacities" }
        if rotations.count != 4 * n { return "\(rotations.count / 4) rotations for \(n) splats" }
        if scales.count != 3 * n { return "\(scales.count / 3) scales for \(n) splats" }
        if sh.count != 3 * n * coefficientsPerSplat {
            return "\(sh.count / 3) spherical-harmonic coefficients for \(n) splats of degree \(shDegree) (\(n * coefficientsPerSplat) expected)"
        }
        return nil
    }
}

/// One attribute's values, in the precision the source stored them.
public enum SplatScalars: Sendable, Equatable {
    case float([Float])
    case half([Float16])

    public static let empty = SplatScalars.float([])

    public var count: Int {
        switch self {
        case .float(let values): return values.count
        case .half(let values): return values.count
        }
    }

    public var isHalf: Bool { if case .half = self { return true } else { return false } }

    public var byteCount: Int {
        switch self {
        case .float(let values): return values.count * 4
        case .half(let values): return values.count * 2
        }
    }

    @inlinable public subscript(i: Int) -> Float {
        switch self {
        case .float(let values): return values[i]
        case .half(let values): return Float(values[i])
        }
    }

    /// The values as contiguous floats for `body`: float storage itself, half storage widened
    /// once. Hot loops read through this, not `subscript`, which goes through the enum (and its
    /// array's reference count) at every value.
    @inlinable public func withFloats<R>(_ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        switch self {
        case .float(let values): return try values.withUnsafeBufferPointer(body)
        case .half(let values): return try values.map(Float.init).withUnsafeBufferPointer(body)
        }
    }

    /// Every value as a float (a copy for half storage).
    public var floats: [Float] {
        switch self {
        case .float(let values): return values
        case .half(let values): return values.map(Float.init)
        }
    }

    /// Every value as a half float (rounded to nearest for float storage).
    public var halves: [Float16] {
        switch self {
        case .float(let values): return values.map(Float16.init)
        case .half(let values): return values
        }
    }

    /// The same values in the same precision, each changed by `body`.
    public func map(_ body: (Float) -> Float) -> SplatScalars {
        switch self {
        case .float(let values): return .float(values.map(body))
        case .half(let values): return .half(values.map { Float16(body(Float($0))) })
        }
    }
}

/// The colour spaces of `KHR_gaussian_splatting`, both display-referred: blended as stored, then
/// shown (the linear one encoded to sRGB after blending).
public enum SplatColorSpace: String, Sendable, Equatable {
    case srgbRec709Display = "srgb_rec709_display"
    case linearRec709Display = "lin_rec709_display"
}

/// A splat set's attributes as contiguous floats, for the loops over every splat (bounds, the
/// renderer, the writers); valid only inside `SplatSet.withBuffers`.
@frozen public struct SplatBuffers {
    public let centers, rotations, scales, opacities, sh: UnsafeBufferPointer<Float>
    public let count: Int
    public let coefficientsPerSplat: Int

    @inlinable init(centers: UnsafeBufferPointer<Float>, rotations: UnsafeBufferPointer<Float>, scales: UnsafeBufferPointer<Float>,
                    opacities: UnsafeBufferPointer<Float>, sh: UnsafeBufferPointer<Float>, count: Int, coefficientsPerSplat: Int) {
        (self.centers, self.rotations, self.scales, self.opacities, self.sh) = (centers, rotations, scales, opacities, sh)
        (self.count, self.coefficientsPerSplat) = (count, coefficientsPerSplat)
    }

    @inlinable public func center(_ i: Int) -> SIMD3<Float> { SIMD3(centers[3 * i], centers[3 * i + 1], centers[3 * i + 2]) }
    @inlinable public func rotation(_ i: Int) -> SIMD4<Float> { SIMD4(rotations[4 * i], rotations[4 * i + 1], rotations[4 * i + 2], rotations[4 * i + 3]) }
    @inlinable public func scale(_ i: Int) -> SIMD3<Float> { SIMD3(scales[3 * i], scales[3 * i + 1], scales[3 * i + 2]) }
}

extension SplatSet {
    /// `body` given the attributes as contiguous floats (see `SplatBuffers`).
    @inlinable public func withBuffers<R>(_ body: (SplatBuffers) throws -> R) rethrows -> R {
        try centers.withFloats { c in
            try rotations.withFloats { r in
                try scales.withFloats { s in
                    try opacities.withFloats { o in
                        try sh.withFloats { h in
                            try body(SplatBuffers(centers: c, rotations: r, scales: s, opacities: o, sh: h, count: count, coefficientsPerSplat: coefficientsPerSplat))
                        }
                    }
                }
            }
        }
    }
}

/// A node's reference to a splat set in `Scene.splats`.
public struct SplatInstance: Sendable, Equatable {
    public var splats: Int

    public init(splats: Int) { self.splats = splats }
}

extension Scene {
    /// A capture file's scene: one splat set on one top node, turned from the file's axes
    /// (`axes`, recorded on the set) into the scene frame; Y up and no declared unit, as neither
    /// 3DGS PLY nor SPZ carries one. The set is consumed: turned in place, not copied (a copy of a
    /// million degree-3 splats is 236 MB more at the read's peak).
    public static func splatCapture(_ set: consuming SplatSet, from axes: SplatAxes, node name: String, typeName: String, format: AssetFormat) -> Scene {
        var splats = consume set
        splats.convert(from: axes, to: .rightUpBack)
        splats.axes = axes
        return splatCapture(inSceneFrame: consume splats, node: name, typeName: typeName, format: format)
    }

    /// `splatCapture` of a set a reader has already written in the scene frame as it decoded it
    /// (`axes` naming the file's convention).
    public static func splatCapture(inSceneFrame set: consuming SplatSet, node name: String, typeName: String, format: AssetFormat) -> Scene {
        let splats = consume set
        var scene = Scene()
        scene.metadata = SceneMetadata(upAxis: .y, metersPerUnit: 1, sourceFormat: format)
        scene.metadata.declaresUnits = false
        scene.splats = [splats]
        var node = Node(name: name, typeName: typeName)
        node.splatInstances = [SplatInstance(splats: 0)]
        scene.root.children = [node]
        return scene
    }
}
