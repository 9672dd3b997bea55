import AssetImage

extension RenderOptions {
    /// A colour given as sRGB `#RRGGBB` (the `#` optional), in the linear light the renderer
    /// composites in; nil when it is not six hex digits.
    public static func color(hex text: String) -> SIMD3<Float>? {
        let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard hex.count == 6, hex.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16) else { return nil }
        func channel(_ shift: UInt32) -> Float { ColorSpace.toLinear(Float(value >> shift & 0xFF) / 255) }
        return SIMD3(channel(16), channel(8), channel(0))
    }
}
