import AssetCore
import AssetPipeline
import AssetValidate

extension ConvertOptions {
    /// The options a preset sets; options given beside it override it (`--budget web --max-texture 1024`).
    public mutating func apply(_ preset: BudgetPreset) {
        maxTriangles = preset.triangles
        maxTextureSize = preset.textureSize
        maxOutputBytes = preset.fileBytes
        if preset.prefersJPEG { textureEncoding = .jpeg }
    }
}
