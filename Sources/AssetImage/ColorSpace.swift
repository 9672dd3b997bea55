import AssetCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// sRGB transfer functions: textures and output are sRGB, lighting happens in linear light.
package enum ColorSpace {
    /// 8-bit sRGB -> linear, one entry per code value.
    package static let linearFromSRGB8: [Float] = (0..<256).map { toLinear(Float($0) / 255) }

    package static func toLinear(_ c: Float) -> Float {
        c <= 0.04045 ? c / 12.92 : Float(pow(Double((c + 0.055) / 1.055), 2.4))
    }

    package static func toSRGB(_ c: Float) -> Float {
        let x = min(max(c, 0), 1)
        return x <= 0.0031308 ? x * 12.92 : Float(1.055 * pow(Double(x), 1 / 2.4) - 0.055)
    }

    /// Linear [0, 1] -> 8-bit sRGB through a 4096-entry table (finer than 8 bits in the darks).
    package static let srgb8FromLinear: [UInt8] = (0...4095).map { UInt8((toSRGB(Float($0) / 4095) * 255).rounded()) }

    /// Linear [0, 1] -> 8-bit sRGB through a 65,536-entry table, for textures stored back into an
    /// asset (`ImageResampler`): the 4096-entry table above rounds 1.5% of values in [0, 1] to the
    /// neighbouring level (this one 0.1%), which a picture on screen hides and a stored texture keeps.
    package static let srgb16FromLinear: [UInt8] = (0...65535).map { UInt8((toSRGB(Float($0) / 65535) * 255).rounded()) }

    @inlinable @inline(__always) package static func encode(_ linear: Float) -> UInt8 {
        srgb8FromLinear[Int(min(max(linear, 0), 1) * 4095 + 0.5)]  // not `rounded()`, a libm call here (Framebuffer.resolve)
    }
}
