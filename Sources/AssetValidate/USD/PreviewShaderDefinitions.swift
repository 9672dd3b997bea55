/// The input types of the UsdPreviewSurface family as OpenUSD's shader registry (Sdr) defines them
/// (usdShade's shaderDefs, usd-core 26.11), for ShaderPropertyTypeConformanceChecker. Ids Sdr does
/// not know here (MaterialX `ND_` nodes among them) have no definition, as in usd-core's wheel.
enum PreviewShaderDefinitions {
    static func inputTypes(of shaderId: String) -> [String: String]? {
        if shaderId.hasPrefix("UsdPrimvarReader_") {
            let fallback = primvarReaderFallbacks[String(shaderId.dropFirst("UsdPrimvarReader_".count))]
            return fallback.map { ["fallback": $0, "varname": "string"] }
        }
        return definitions[shaderId]
    }

    private static let definitions: [String: [String: String]] = [
        "UsdPreviewSurface": [
            "clearcoat": "float", "clearcoatRoughness": "float", "diffuseColor": "color3f", "displacement": "float",
            "emissiveColor": "color3f", "ior": "float", "metallic": "float", "normal": "normal3f", "occlusion": "float",
            "opacity": "float", "opacityMode": "token", "opacityThreshold": "float", "roughness": "float",
            "specularColor": "color3f", "useSpecularWorkflow": "int",
        ],
        "UsdUVTexture": [
            "bias": "float4", "fallback": "float4", "file": "asset", "scale": "float4", "sourceColorSpace": "token",
            "st": "float2", "wrapS": "token", "wrapT": "token",
        ],
        "UsdTransform2d": ["in": "float2", "rotation": "float", "scale": "float2", "translation": "float2"],
    ]

    private static let primvarReaderFallbacks: [String: String] = [
        "float": "float", "float2": "float2", "float3": "float3", "float4": "float4", "int": "int", "string": "string",
        "normal": "normal3f", "point": "point3f", "vector": "vector3f", "matrix": "matrix4d",
    ]
}
