import AssetImage
import CStudioTables

/// The built-in studio's prefiltered environment and the split-sum table, as
/// Scripts/generate-studio-tables computed them ahead of time (CStudioTables), so the default look
/// costs nothing to set up: the prefilter took about 45 ms of every process that lit a model, the
/// table a few more. Each is taken only when its sizes are the ones the runtime computation makes;
/// otherwise (tables not generated, or generated for other sizes) it is computed as before.
/// AssetRenderTests holds them equal to the runtime computation.
enum BuiltInTables {
    static func studio() -> PrefilteredEnvironment? {
        let irradiance = floats(assetc_studio_irradiance), widths = words(assetc_studio_level_widths).map(Int.init)
        let expected = EnvironmentPrefilter.levelWidths.map { min($0, EnvironmentPrefilter.sourceWidth) }
        let texelCount = expected.reduce(0) { $0 + $1 * max($1 / 2, 1) }
        var greyCount = 0
        guard irradiance.count == 27, widths == expected, let grey = assetc_studio_texels(&greyCount), greyCount == texelCount else { return nil }
        // Grey levels widened to RGB straight into the one packed buffer the shader samples.
        var levels: [SIMD3<Int32>] = []
        var at = 0
        for width in expected {
            let height = max(width / 2, 1)
            levels.append(SIMD3(Int32(3 * at), Int32(width), Int32(height)))
            at += width * height
        }
        let texels = [Float](unsafeUninitializedCapacity: 3 * texelCount) { out, initialized in
            for i in 0..<texelCount {
                let v = Float(bitPattern: grey[i])
                out[3 * i] = v; out[3 * i + 1] = v; out[3 * i + 2] = v
            }
            initialized = 3 * texelCount
        }
        let coefficients = (0..<9).map { SIMD3(irradiance[3 * $0], irradiance[3 * $0 + 1], irradiance[3 * $0 + 2]) }
        return PrefilteredEnvironment(irradiance: coefficients, packed: PackedLevels(texels: texels, levels: levels), key: StudioEnvironment.key)
    }

    static func brdf() -> [SIMD2<Float>]? {
        let values = floats(assetc_brdf_table)
        guard values.count == 2 * BRDFTable.size * BRDFTable.size else { return nil }
        return (0..<(values.count / 2)).map { SIMD2(values[2 * $0], values[2 * $0 + 1]) }
    }

    private static func floats(_ table: (UnsafeMutablePointer<Int>?) -> UnsafePointer<UInt32>?) -> [Float] {
        words(table).map { Float(bitPattern: $0) }
    }

    private static func words(_ table: (UnsafeMutablePointer<Int>?) -> UnsafePointer<UInt32>?) -> [UInt32] {
        var count = 0
        guard let base = table(&count), count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: count))
    }
}
