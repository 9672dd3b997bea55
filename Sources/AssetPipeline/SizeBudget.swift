import AssetCore
import AssetImage

/// `--max-size`: when an output is too large, the next try tightens whichever budget holds more of
/// its bytes, textures or geometry. Textures halve their longer side (down to 128 px); triangles
/// scale by the share the output must lose, with a margin, since bytes do not fall quite in step.
extension Converter {
    static let maxSizeTries = 12
    static let smallestTextureSide = 128
    static let fewestTriangles = 500

    func tightened(_ options: ConvertOptions, scene: Scene, bytes: Int, limit: Int) -> ConvertOptions? {
        let loaded = scene.textures.compactMap { TextureBytes.load($0, staged: options.readOptions.staged) }  // once each: a texture may be a file to read
        let textureBytes = loaded.reduce(0) { $0 + $1.count }
        let largestSide = loaded.compactMap { ImageDecoder.size(of: $0) }.map { max($0.width, $0.height) }.max() ?? 0
        let triangles = scene.placedMeshes().reduce(0) { $0 + scene.meshes[$1.instance.mesh].triangleCount }
        var tighter = options
        let texturesCanShrink = largestSide > Self.smallestTextureSide
        let geometryCanShrink = triangles > Self.fewestTriangles
        if texturesCanShrink && (textureBytes * 2 >= bytes || !geometryCanShrink) {
            // Before any texel is lost to resizing, photographic colour textures try JPEG.
            if options.textureEncoding == .keep, loaded.contains(where: { ImageFormat($0) != .jpeg }) {
                tighter.textureEncoding = .auto
                return tighter
            }
            tighter.maxTextureSize = max(Self.smallestTextureSide, min(options.maxTextureSize ?? largestSide, largestSide) / 2)
            return tighter
        }
        guard geometryCanShrink else { return nil }
        let geometryBytes = max(1, bytes - textureBytes)
        let share = Double(max(1, limit - textureBytes)) / Double(geometryBytes)
        let goal = Int(Double(triangles) * min(0.9, max(0.2, share * 0.9)))
        tighter.maxTriangles = max(Self.fewestTriangles, goal)
        tighter.simplifyRatio = nil
        return tighter
    }
}
