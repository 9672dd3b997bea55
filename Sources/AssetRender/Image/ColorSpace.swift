import AssetCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// sRGB transfer functions: textures and output are sRGB, lighting happens in linear light.
enum ColorSpace {
    /// 8-bit sRGB -> linear, one entry per code value.
    static let linearFromSRGB8: [Float] = (0..<256).map { toLinear(Float($0) / 255) }

    static func toLinear(_ c: Float) -> Float {
        c <= 0.04045 ? c / 12.92 : Float(pow(Double((c + 0.055) / 1.055), 2.4))
    }

    static func toSRGB(_ c: Float) -> Float {
        let x = min(max(c, 0), 1)
        return x <= 0.0031308 ? x * 12.92 : Float(1.055 * pow(Double(x), 1 / 2.4) - 0.055)
    }

    /// Linear [0, 1] -> 8-bit sRGB through a 4096-entry table (finer than 8 bits in the darks).
    static let srgb8FromLinear: [UInt8] = (0...4095).map { UInt8((toSRGB(Float($0) / 4095) * 255).rounded()) }

    @inline(__always) static func encode(_ linear: Float) -> UInt8 {
        srgb8FromLinear[Int((min(max(linear, 0), 1) * 4095).rounded())]
    }
}

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
