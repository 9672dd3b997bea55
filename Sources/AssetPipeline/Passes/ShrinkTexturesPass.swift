import AssetCore
import AssetImage
import Foundation

/// Brings textures under a size (`--max-texture PX`) and into a storage format
/// (`--texture-format keep|png|jpeg|auto`): each is filtered in its own colour space (see
/// `TextureContent`) to fit the size on its longer side, aspect kept, and re-encoded. JPEG is
/// used only where no texel is transparent; `auto` uses it only for colour whose JPEG is at most
/// half its PNG. Textures are decoded and encoded on all cores; what
/// happened to each is reported.
public struct ShrinkTexturesPass: ScenePass {
    public struct TextureReport: Sendable, Equatable, Encodable {
        public var texture: String
        public var content: TextureContent
        public var widthBefore: Int
        public var heightBefore: Int
        public var width: Int
        public var height: Int
        public var bytesBefore: Int
        public var bytes: Int
        /// "png" or "jpeg".
        public var format: String
    }

    public var name: String { "shrink textures" }
    let maxSize: Int?
    let encoding: TextureEncoding
    let quality: Int
    /// The read's staged folders, for textures inside a package read by ranges.
    var staged = StagedFiles.none
    private let reports = Locked<[TextureReport]>([])

    public init(maxSize: Int?, encoding: TextureEncoding, quality: Int) {
        self.maxSize = maxSize
        self.encoding = encoding
        self.quality = quality
    }

    /// What the last run changed, texture by texture, in the scene's order.
    public var report: [TextureReport] { reports.value }

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        let contents = TextureContent.of(scene)
        let textures = scene.textures
        let outcomes = Locked([Result<(Texture, TextureReport)?, AssetError>](repeating: .success(nil), count: textures.count))
        DispatchQueue.concurrentPerform(iterations: textures.count) { index in
            let outcome: Result<(Texture, TextureReport)?, AssetError>
            do throws(AssetError) { outcome = .success(try shrink(textures[index], content: contents[index])) } catch { outcome = .failure(error) }
            outcomes.withLock { $0[index] = outcome }
        }
        var done: [TextureReport] = []
        for (index, outcome) in outcomes.value.enumerated() {
            switch outcome {
            case .success(let changed?):
                scene.textures[index] = changed.0
                done.append(changed.1)
            case .success(nil):
                break
            case .failure(let error):
                diagnostics.append(.warning("texture \(textures[index].name) was left as it is: \(error.message)"))
            }
        }
        reports.withLock { $0 = done }
    }

    /// The texture as it should be stored, or nil when it already is.
    private func shrink(_ texture: Texture, content: TextureContent) throws(AssetError) -> (Texture, TextureReport)? {
        guard let bytes = TextureBytes.load(texture, staged: staged) else { return nil }  // unresolved: the writers warn about it
        let source = ImageFormat(bytes)
        let size = ImageDecoder.size(of: bytes)
        let oversized = maxSize.map { limit in size.map { max($0.width, $0.height) > limit } ?? true } ?? false
        let wanted: ImageFormat? = switch encoding {
        case .keep: source == .other ? .png : nil
        case .png: .png
        case .jpeg: .jpeg
        // Colour that is not JPEG yet is tried as JPEG; normal maps and data keep exact texels.
        case .auto: content == .color && source != .jpeg ? .jpeg : (source == .other ? .png : nil)
        }
        guard oversized || (wanted != nil && wanted != source) else { return nil }
        var image = try ImageDecoder.decode(bytes)
        let before = (image.width, image.height)
        if let maxSize {
            let fitted = Self.fitted(width: image.width, height: image.height, maxSide: maxSize)
            if fitted != (image.width, image.height) {
                image = ImageResampler.resized(image, width: fitted.width, height: fitted.height, content: content.resampling,
                                               wrapsX: texture.wrapS == .repeat || texture.wrapS == .mirror,
                                               wrapsY: texture.wrapT == .repeat || texture.wrapT == .mirror)
            }
        }
        var format = wanted ?? source
        if format == .jpeg && !Self.isOpaque(image) { format = .png }
        if format == .other { format = .png }
        if !oversized && format == source { return nil }  // asked for JPEG, but it needs its alpha
        var encoded = format == .jpeg ? try JPEGEncoder.encode(image, quality: quality, fullChroma: content != .color) : try PNGCodec.encode(image)
        if encoding == .auto && format == .jpeg {
            // Photographic content: JPEG at most half the PNG. Flat art (logos, UI, pixel art) rings under
            // JPEG for little gain, so it stays lossless; an unresized PNG source is then kept as it is.
            let png = source == .png && !oversized ? bytes : try PNGCodec.encode(image)
            if encoded.count * 2 > png.count {
                if source == .png && !oversized { return nil }
                (format, encoded) = (.png, png)
            }
        }
        var shrunk = texture
        let stem = ((texture.name as NSString).lastPathComponent as NSString).deletingPathExtension
        shrunk.name = (stem.isEmpty ? "texture" : stem) + (format == .jpeg ? ".jpg" : ".png")
        shrunk.source = .embedded(bytes: encoded, mimeType: format == .jpeg ? "image/jpeg" : "image/png")
        shrunk.fallbackPNG = nil  // the new encoding is one every reader takes
        return (shrunk, TextureReport(texture: texture.name, content: content, widthBefore: before.0, heightBefore: before.1,
                                      width: image.width, height: image.height, bytesBefore: bytes.count, bytes: encoded.count,
                                      format: format == .jpeg ? "jpeg" : "png"))
    }

    /// The size that fits within `maxSide` on the longer side, aspect kept, at least a pixel.
    static func fitted(width: Int, height: Int, maxSide: Int) -> (width: Int, height: Int) {
        let longer = max(width, height)
        guard longer > maxSide else { return (width, height) }
        let scale = Double(maxSide) / Double(longer)
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    static func isOpaque(_ image: RGBAImage) -> Bool {
        image.pixels.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }
}
