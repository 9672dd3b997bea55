import ArgumentParser
import AssetCore
import AssetKit

extension BudgetPreset: ExpressibleByArgument {}
extension TextureEncoding: ExpressibleByArgument {}

/// `--compress`: glTF mesh compression.
enum CompressionArgument: String, CaseIterable, ExpressibleByArgument {
    case none, meshopt, draco
}

/// A file size for `--max-size`: a bare number is megabytes (10 is 10,000,000 bytes, as the web
/// budgets count them); with a unit it is binary like the other size options (512K, 8M, 1G).
struct MegabytesArgument: ExpressibleByArgument {
    let bytes: Int

    init?(argument: String) {
        if let megabytes = Double(argument) {
            guard megabytes.isFinite, megabytes > 0, megabytes < 1e9 else { return nil }
            bytes = Int(megabytes * 1_000_000)
        } else {
            guard let bytes = ByteCount.parse(argument) else { return nil }
            self.bytes = bytes
        }
    }
}

/// What `convert` does to bring a model under a budget: simplify meshes, shrink and re-encode
/// textures, compress glTF meshes, and fit a file size.
struct BudgetOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Bring the output under a viewer's budget: quicklook (100,000 triangles, 2048 px), visionos (250,000, 2048 px) or web (60,000, 2048 px, 10 MB, JPEG). Options given beside it override its figures.",
                               valueName: "preset"))
    var budget: BudgetPreset?

    @Option(name: .customLong("max-triangles"), help: ArgumentHelp("Simplify meshes until the scene draws at most N triangles (libmeshoptimizer; UV seams and material borders kept).", valueName: "N"))
    var maxTriangles: Int?

    @Option(help: ArgumentHelp("Simplify every mesh to this share of its triangles (0 to 1).", valueName: "R"))
    var ratio: Double?

    @Option(name: .customLong("max-splats"), help: ArgumentHelp("Keep at most N placed Gaussian splats, pruning the least visible (opacity x volume) first.", valueName: "N"))
    var maxSplats: Int?

    @Option(name: .customLong("sh-degree"), help: ArgumentHelp("Lower Gaussian splats' spherical harmonics to degree D (0 to 3): smaller files, colour no longer turning with the view.", valueName: "D"))
    var shDegree: Int?

    @Option(name: .customLong("max-texture"), help: ArgumentHelp("Shrink textures whose longer side is past PX pixels (Mitchell filter; colour in linear light, normal maps renormalised).", valueName: "PX"))
    var maxTexture: Int?

    @Option(name: .customLong("texture-format"), help: "Store textures as they are (resized ones in their own format), all as PNG, as JPEG where they have no transparency, or auto: JPEG for opaque colour textures whose JPEG is at most half their PNG (photographs), PNG otherwise.")
    var textureFormat: TextureEncoding?

    @Option(name: .customLong("jpeg-quality"), help: ArgumentHelp("Quality of textures stored as JPEG, 1 to 100.", valueName: "Q"))
    var jpegQuality = 85

    @Option(name: .customLong("max-size"), help: ArgumentHelp("Tighten the triangle and texture budgets until the output fits: megabytes (10) or a size with a unit (8M, 512K).", valueName: "MB"))
    var maxSize: MegabytesArgument?

    @Option(help: "glTF and GLB output: compress meshes with EXT_meshopt_compression or KHR_draco_mesh_compression.")
    var compress: CompressionArgument = .none

    @Option(name: .customLong("position-bits"), help: ArgumentHelp("--compress: bits kept for positions (meshopt 16 of a float's mantissa, draco 14 of quantization by default).", valueName: "N"))
    var positionBits: Int?

    @Option(name: .customLong("attribute-bits"), help: ArgumentHelp("--compress: bits kept for normals, texture coordinates and other attributes (meshopt 12; draco 10 for normals, 12 for texture coordinates, 8 for the rest).", valueName: "N"))
    var attributeBits: Int?

    func validate() throws {
        if let maxTriangles, maxTriangles < 1 { throw ValidationError("--max-triangles takes a positive count") }
        if let ratio, !(ratio > 0 && ratio <= 1) { throw ValidationError("--ratio takes a number above 0 and at most 1") }
        if maxTriangles != nil && ratio != nil { throw ValidationError("--max-triangles and --ratio are alternatives; give one") }
        if let maxSplats, maxSplats < 1 { throw ValidationError("--max-splats takes a positive count") }
        if let shDegree, !(0...3).contains(shDegree) { throw ValidationError("--sh-degree takes 0 to 3") }
        if let maxTexture, maxTexture < 1 { throw ValidationError("--max-texture takes a positive number of pixels") }
        if !(1...100).contains(jpegQuality) { throw ValidationError("--jpeg-quality takes 1 to 100") }
        let bitRange = compress == .draco ? 1...30 : 1...23
        for (name, bits) in [("--position-bits", positionBits), ("--attribute-bits", attributeBits)] {
            guard let bits else { continue }
            if compress == .none { throw ValidationError("\(name) sets --compress's precision; give --compress meshopt or draco") }
            if !bitRange.contains(bits) { throw ValidationError("\(name) takes \(bitRange.lowerBound) to \(bitRange.upperBound) with --compress \(compress.rawValue)") }
        }
    }

    /// The options these arguments set on `options`: the preset first, then each option given.
    func apply(to options: inout ConvertOptions) {
        if let budget { options.apply(budget) }
        if let maxTriangles { options.maxTriangles = maxTriangles; options.simplifyRatio = nil }
        if let ratio { options.simplifyRatio = ratio; options.maxTriangles = nil }
        if let maxTexture { options.maxTextureSize = maxTexture }
        if let maxSplats { options.maxSplats = maxSplats }
        if let shDegree { options.splatSHDegree = shDegree }
        if let textureFormat { options.textureEncoding = textureFormat }
        options.jpegQuality = jpegQuality
        if let maxSize { options.maxOutputBytes = maxSize.bytes }
        switch compress {
        case .none: options.meshCompression = .none
        case .meshopt: options.meshCompression = .meshopt(positionBits: positionBits ?? 16, attributeBits: attributeBits ?? 12)
        case .draco:
            options.meshCompression = .draco(positionBits: positionBits ?? 14, normalBits: attributeBits ?? 10,
                                             texcoordBits: attributeBits ?? 12, genericBits: attributeBits ?? 8)
        }
    }
}
