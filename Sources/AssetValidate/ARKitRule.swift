/// The rules of OpenUSD's ARKit compliance profile (`usdchecker --arkit`), under the names
/// usdchecker prints, with the identifiers of OpenUSD's newer validation framework that check
/// the same thing; then assetc's own checks of what AR Quick Look needs beyond them (meshes,
/// materials, budgets). What each rule checks is written down in Docs/Validation.md.
public enum ARKitRule: String, CaseIterable, Sendable, Codable {
    case byteAlignment = "ByteAlignmentChecker"
    case compression = "CompressionChecker"
    case missingReference = "MissingReferenceChecker"
    case stageMetadata = "StageMetadataChecker"
    case texture = "TextureChecker"
    case primEncapsulation = "PrimEncapsulationChecker"
    case normalMapTexture = "NormalMapTextureChecker"
    case materialBindingAPIApplied = "MaterialBindingAPIAppliedChecker"
    case skelBindingAPIApplied = "SkelBindingAPIAppliedChecker"
    case shaderPropertyTypeConformance = "ShaderPropertyTypeConformanceChecker"
    case arkitLayer = "ARKitLayerChecker"
    case arkitPrimType = "ARKitPrimTypeChecker"
    case arkitShader = "ARKitShaderChecker"
    case arkitMaterialBinding = "ARKitMaterialBindingChecker"
    case arkitFileExtension = "ARKitFileExtensionChecker"
    case arkitPackageEncapsulation = "ARKitPackageEncapsulationChecker"
    /// The ARKit root-layer rule usdchecker ran before 24.11 dropped it; assetc keeps it as a warning.
    case arkitRootLayer = "ARKitRootLayerChecker"
    // assetc's own, beyond usdchecker.
    case meshTopology = "MeshTopologyChecker"
    case meshPrimvars = "MeshPrimvarChecker"
    case meshGeometry = "MeshGeometryChecker"
    case geomSubsets = "GeomSubsetChecker"
    case textureCoordinates = "TextureCoordinateChecker"
    case budget = "BudgetChecker"
    /// A material whose only surface is MaterialX: AR Quick Look reads UsdPreviewSurface only.
    case materialX = "MaterialXChecker"
    /// `validate --target usdz` on a source that is not USD: what the conversion changes or loses.
    case conversion = "ConversionChecker"
    /// ParticleField3DGaussianSplat prims whose data a renderer would drop or misdraw.
    case gaussianSplat = "GaussianSplatChecker"

    /// Whether usdchecker runs the rule; the others are assetc's own.
    public var isUSDChecker: Bool {
        switch self {
        case .meshTopology, .meshPrimvars, .meshGeometry, .geomSubsets, .textureCoordinates, .budget, .conversion, .materialX, .gaussianSplat: return false
        default: return true
        }
    }

    /// The framework validators a finding of this rule usually corresponds to; a rule that covers
    /// two framework concerns names the right one per finding.
    public var validators: [String] {
        switch self {
        case .byteAlignment, .compression: return ["usdUtilsValidators:UsdzPackageValidator"]
        case .missingReference: return ["usdUtilsValidators:MissingReferenceValidator"]
        case .stageMetadata: return ["usdGeomValidators:StageMetadataChecker"]
        case .texture, .arkitLayer, .arkitPrimType, .arkitShader, .arkitRootLayer: return []
        case .meshTopology, .meshPrimvars, .meshGeometry, .geomSubsets, .textureCoordinates, .budget, .conversion, .materialX, .gaussianSplat: return []
        case .arkitMaterialBinding: return ["usdShadeValidators:MaterialBindingCollectionValidator"]
        case .primEncapsulation: return ["usdGeomValidators:EncapsulationChecker"]
        case .normalMapTexture: return ["usdShadeValidators:NormalMapTextureValidator"]
        case .materialBindingAPIApplied: return ["usdShadeValidators:MaterialBindingApiAppliedValidator"]
        case .skelBindingAPIApplied: return ["usdSkelValidators:SkelBindingApiAppliedValidator"]
        case .shaderPropertyTypeConformance: return ["usdShadeValidators:ShaderSdrCompliance"]
        case .arkitFileExtension: return ["usdUtilsValidators:FileExtensionValidator"]
        case .arkitPackageEncapsulation: return ["usdUtilsValidators:PackageEncapsulationValidator"]
        }
    }

    /// One line on what the rule asks, for `validate --list-rules` and SARIF rule metadata.
    public var summary: String {
        switch self {
        case .byteAlignment: return "Every file in a usdz package starts at a multiple of 64 bytes."
        case .compression: return "Files in a usdz package are stored, neither compressed nor encrypted."
        case .missingReference: return "Every layer, reference, payload and asset path resolves, and the stage composes without errors."
        case .stageMetadata: return "The root layer declares upAxis (Y for ARKit), metersPerUnit and a defaultPrim that exists."
        case .texture: return "Textures are PNG, JPEG or EXR, the formats a usdz may carry."
        case .primEncapsulation: return "No boundable prim under a gprim; shading prims only inside Material or NodeGraph containers."
        case .normalMapTexture: return "An 8-bit normal map is read raw with scale (2, 2, 2, 1) and bias (-1, -1, -1, 0)."
        case .materialBindingAPIApplied: return "A prim with a material:binding relationship has MaterialBindingAPI applied."
        case .skelBindingAPIApplied: return "A prim with skel binding properties has SkelBindingAPI applied, under a SkelRoot."
        case .shaderPropertyTypeConformance: return "Shader inputs have the types the shader's definition gives them."
        case .arkitLayer: return "Every layer is a usd, usda, usdc or usdz file."
        case .arkitPrimType: return "Only prim types AR Quick Look renders: no PointInstancer, curves, NURBS or lights."
        case .arkitShader: return "Shaders use info:id from the UsdPreviewSurface family (or ND_ nodes), each input connected once to a Shader or Material."
        case .arkitMaterialBinding: return "Material binding relationships target a Material (and a collection for collection bindings)."
        case .arkitFileExtension: return "A package holds only layers (usd, usda, usdc, usdz) and textures (png, jpg, jpeg, exr)."
        case .arkitPackageEncapsulation: return "A package's stage reads nothing outside the package."
        case .arkitRootLayer: return "A usdz's root layer is a usdc crate and the stage one layer, as iOS 12 needs (a warning: usdchecker 24.11 dropped the rule)."
        case .meshTopology: return "Face vertex counts are at least 3 and add up to the face vertex indices, each of which names a point."
        case .meshPrimvars: return "Primvars hold as many elements as their interpolation asks, and their indices stay inside them."
        case .meshGeometry: return "Points are finite; meshes have faces (warning); faces have area (warning)."
        case .gaussianSplat: return "A ParticleField3DGaussianSplat has positions; every other attribute has one value per splat (the schema ignores a short one and cuts a long one) and the coefficients (degree + 1)^2 per splat for a degree of 0 to 3; values are finite, quaternions of unit length, scales not negative, opacities in [0, 1]."
        case .geomSubsets: return "GeomSubsets sit under Imageable prims and form valid families (indices in range; nonOverlapping and partition families as their type says; materialBind restricted)."
        case .textureCoordinates: return "A UsdUVTexture reads its st from a UsdPrimvarReader_float2 (through UsdTransform2d at most), as AR Quick Look needs."
        case .budget: return "Triangles, texture size, file size and animation length stay within AR Quick Look's guidance (warnings; --budget sets them)."
        case .materialX: return "A material with a MaterialX surface also has a UsdPreviewSurface one: AR Quick Look reads no MaterialX, so without it the material shows grey (a warning)."
        case .conversion: return "With --target usdz, a source that is not USD: what converting it to usdz turns, converts or leaves out, and what does not resolve."
        }
    }
}
