import AssetCore
import Dispatch

/// Reads composed attribute values at the time the scene is built for: the root layer's
/// `startTimeCode` when authored (the frame usdview opens on), else USD's default time. At the
/// default time usd-core reads default values only: an attribute with time samples and no default
/// is unauthored there and takes its fallback (`visibility` sampled only is visible, a sampled-only
/// xformOp is no op), so the same file gives the same figures as usd-core's `Get()`.
struct USDAttributeValues {
    let time: Double?

    func value(_ property: USDComposedProperty?) -> USDValue? {
        guard let property else { return nil }
        guard let time else { return property.spec.defaultValue }
        guard let samples = property.spec.timeSamples, !samples.isEmpty else { return property.spec.defaultValue }
        if time <= samples[0].time { return samples[0].value }
        if time >= samples[samples.count - 1].time { return samples[samples.count - 1].value }
        // Samples are sorted; find the bracketing pair and interpolate linearly, as usd-core does
        // for numeric types (others hold the earlier value).
        var upper = 1
        while samples[upper].time < time { upper += 1 }
        let (t0, v0) = samples[upper - 1], (t1, v1) = samples[upper]
        if samples[upper].time == time { return v1 }
        let fraction = (time - t0) / (t1 - t0)
        if property.spec.typeName.hasPrefix("quat"), let turned = Self.slerp(v0, v1, fraction: fraction) { return turned }
        return Self.interpolate(v0, v1, fraction: fraction) ?? v0
    }

    /// Quaternions turn on the sphere between samples, as usd-core interpolates them (GfSlerp):
    /// blended component by component, a turn of 135° between two samples was 30.6° a quarter of
    /// the way, not 33.75°. USD writes the real part first.
    static func slerp(_ a: USDValue, _ b: USDValue, fraction f: Double) -> USDValue? {
        guard let x = a.flatNumbers, let y = b.flatNumbers, x.count == 4, y.count == 4 else { return nil }
        let q = Quaternion.slerp(Quaternion(real: x[0], imaginary: SIMD3(x[1], x[2], x[3])),
                                 Quaternion(real: y[0], imaginary: SIMD3(y[1], y[2], y[3])), f)
        return .tuple([q.real, q.imaginary.x, q.imaginary.y, q.imaginary.z])
    }

    static func interpolate(_ a: USDValue, _ b: USDValue, fraction f: Double) -> USDValue? {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(x + (y - x) * f)
        case (.tuple(let x), .tuple(let y)) where x.count == y.count:
            return .tuple(zip(x, y).map { $0 + ($1 - $0) * f })
        case (.numbers(let x, let c), .numbers(let y, _)) where x.count == y.count:
            return .numbers(zip(x, y).map { $0 + ($1 - $0) * f }, components: c)
        case (.floats(let x), .floats(let y)):
            return x.interpolated(to: y, fraction: f).map(USDValue.floats)
        default: return nil
        }
    }

    func double(_ property: USDComposedProperty?) -> Double? { value(property)?.doubleValue }

    func string(_ property: USDComposedProperty?) -> String? { value(property)?.stringValue }

    func bool(_ property: USDComposedProperty?) -> Bool? { value(property)?.boolValue }

    func numbers(_ property: USDComposedProperty?) -> [Double]? { value(property)?.flatNumbers }

    /// Single precision as read (`USDValue.floats`), or any numbers narrowed.
    func floats(_ property: USDComposedProperty?) -> [Float]? {
        guard let value = value(property) else { return nil }
        if case .floats(.scalars(let floats)) = value { return floats }
        return value.flatNumbers?.map(Float.init)
    }

    /// Triples as read (`USDValue.floats`, taken without a copy), or any numbers in threes
    /// narrowed; `.failure` when the numbers are not in threes, nil when there are none.
    func float3s(_ property: USDComposedProperty?) -> Result<[SIMD3<Float>], USDArrayConversion.NotInThrees>? {
        guard let value = value(property) else { return nil }
        if case .floats(.triples(let triples)) = value { return .success(triples) }
        guard let numbers = value.flatNumbers else { return nil }
        guard let triples = USDArrayConversion.float3(numbers) else { return .failure(USDArrayConversion.NotInThrees(count: numbers.count)) }
        return .success(triples)
    }

    func int32s(_ property: USDComposedProperty?) -> Result<[Int32], USDArrayConversion.ConversionFailure>? {
        value(property)?.int32Array
    }

    func vector3(_ property: USDComposedProperty?) -> SIMD3<Double>? {
        guard let n = numbers(property), n.count == 3 else { return nil }
        return SIMD3(n[0], n[1], n[2])
    }
}

/// Conversions from the parser's flat Double buffers to the scene model's buffers.
package enum USDArrayConversion {
    /// Flat triples to points; nil when the count is not a multiple of three.
    static func float3(_ values: [Double]) -> [SIMD3<Float>]? {
        guard values.count % 3 == 0 else { return nil }
        return values.withUnsafeBufferPointer { v in
            nonisolated(unsafe) let v = v
            return filled(values.count / 3) { range, out in
                for i in range { out[i] = SIMD3(Float(v[3 * i]), Float(v[3 * i + 1]), Float(v[3 * i + 2])) }
            }
        }
    }

    static func float2(_ values: [Double]) -> [SIMD2<Float>]? {
        guard values.count % 2 == 0 else { return nil }
        return values.withUnsafeBufferPointer { v in
            nonisolated(unsafe) let v = v
            return filled(values.count / 2) { range, out in
                for i in range { out[i] = SIMD2(Float(v[2 * i]), Float(v[2 * i + 1])) }
            }
        }
    }

    static func float4(_ values: [Double]) -> [SIMD4<Float>]? {
        guard values.count % 4 == 0 else { return nil }
        return values.withUnsafeBufferPointer { v in
            nonisolated(unsafe) let v = v
            return filled(values.count / 4) { range, out in
                for i in range { out[i] = SIMD4(Float(v[4 * i]), Float(v[4 * i + 1]), Float(v[4 * i + 2]), Float(v[4 * i + 3])) }
            }
        }
    }

    package struct NotInThrees: Error {
        package var count: Int
    }

    /// An array of `count` elements, each written once by `fill(range, storage)`. Big ones are
    /// filled in stretches on every core: most of a big conversion's time is the kernel clearing
    /// the fresh pages it writes (a 1M-vertex mesh's three primvars took 10-14 ms on one core,
    /// nearly all `clear_page`), and the cores clear theirs at once.
    static func filled<T>(_ count: Int, _ fill: @Sendable (Range<Int>, UnsafeMutablePointer<T>) -> Void) -> [T] {
        [T](unsafeUninitializedCapacity: count) { out, initialized in
            guard let base = out.baseAddress else { initialized = 0; return }
            HugePages.advise(UnsafeMutableRawPointer(base), byteCount: count * MemoryLayout<T>.stride)
            let stretches = count >= parallelElements ? 8 : 1
            nonisolated(unsafe) let storage = base
            DispatchQueue.concurrentPerform(iterations: stretches) { k in
                fill((count * k / stretches)..<(count * (k + 1) / stretches), storage)
            }
            initialized = count
        }
    }

    /// From this many elements a conversion is split over the cores.
    static let parallelElements = 1 << 18

    /// Whole numbers that fit Int32; the index of the first that does not, on failure.
    static func int32(_ values: [Double]) -> Result<[Int32], ConversionFailure> {
        var bad: Int?
        let result = values.withUnsafeBufferPointer { v in
            [Int32](unsafeUninitializedCapacity: v.count) { out, count in
                for i in 0..<v.count {
                    let x = v[i]
                    guard x == x.rounded(), x >= -2_147_483_648, x <= 2_147_483_647 else { bad = i; break }
                    out[i] = Int32(x)
                    count = i + 1
                }
            }
        }
        if let bad { return .failure(ConversionFailure(index: bad, value: values[bad])) }
        return .success(result)
    }

    package struct ConversionFailure: Error {
        package var index: Int
        package var value: Double
    }
}
