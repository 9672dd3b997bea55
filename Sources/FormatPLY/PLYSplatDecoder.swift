import AssetCore
import Foundation

/// Turns a 3DGS PLY's vertex records into a `SplatSet`: scales through exp, opacity through the
/// logistic function, quaternions from w-first to x, y, z, w and normalised, the channel-major
/// `f_rest` regrouped coefficient by coefficient, and every value changed from the file's axes into
/// the scene's as it is written (a separate turn afterwards was one more pass over 236 MB for a
/// million degree-3 splats). A binary body is read by column offsets within its fixed-size records,
/// both halves on two cores; an ASCII body goes through `PLYBody`.
struct PLYSplatDecoder {
    static let shC0: Float = 0.28209479177387814

    let layout: PLYSplatLayout
    let element: PLYHeader.Element
    let count: Int
    /// The convention the file's values are in (`rdf` unless `--splat-axes` says otherwise).
    let axes: SplatAxes
    /// The factors (+1 or -1) that write the file's centres, quaternions (x, y, z, w) and
    /// coefficients in the scene frame: `SplatSet.convert(from: axes, to: .rightUpBack)`'s own.
    let centerSigns: SIMD3<Float>, rotationSigns: SIMD4<Float>, shSigns: [Float]

    /// Output buffers, filled splat by splat.
    struct Columns {
        var centers: [Float]
        var rotations: [Float]
        var scales: [Float]
        var opacities: [Float]
        var sh: [Float]

        /// The set the columns hold, in the scene frame and recording `axes` as the file's, its
        /// arrays moved out (the columns are left empty): a reference left behind would make the
        /// set's first change copy every array.
        mutating func takeSet(name: String, shDegree: Int, axes: SplatAxes) -> SplatSet {
            func take(_ column: inout [Float]) -> SplatScalars {
                var out: [Float] = []
                swap(&out, &column)
                return .float(out)
            }
            return SplatSet(name: name, centers: take(&centers), rotations: take(&rotations), scales: take(&scales),
                            opacities: take(&opacities), shDegree: shDegree, sh: take(&sh), axes: axes)
        }
    }

    init(layout: PLYSplatLayout, element: PLYHeader.Element, axes: SplatAxes) {
        self.layout = layout
        self.element = element
        self.axes = axes
        count = element.count
        (centerSigns, rotationSigns, shSigns) = axes.componentSigns(to: .rightUpBack, coefficients: (layout.shDegree + 1) * (layout.shDegree + 1))
    }

    var coefficients: Int { (layout.shDegree + 1) * (layout.shDegree + 1) }

    /// Reserves the columns after charging their bytes to `budget`.
    func columns(budget: ReadBudget, file: String) throws(AssetError) -> Columns {
        let floats = count * (3 + 4 + 3 + 1 + 3 * coefficients)
        try budget.spend(bytes: floats * 4, for: "\(count) splats of SH degree \(layout.shDegree)", at: SourceLocation(file: file, line: element.line))
        // Not zeroed: `decode` writes every value of every splat, and zeroing first is one more pass
        // over 236 MB for a million degree-3 splats, on one core, before the decode's two. Backed
        // by huge pages: with 4 KB ones, faulting the columns in took a fifth of a capture's read,
        // and unmapping them again a tenth of its thumbnail.
        func column(_ size: Int) -> [Float] {
            [Float](unsafeUninitializedCapacity: size) { buffer, initialized in
                HugePages.advise(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: size * 4)
                initialized = size
            }
        }
        return Columns(centers: column(3 * count), rotations: column(4 * count), scales: column(3 * count), opacities: column(count),
                       sh: column(3 * coefficients * count))
    }

    /// Decodes splat `i` from `value(property index)`, the property's number as stored.
    @inline(__always)
    func decode(_ i: Int, into out: UnsafeColumns, _ value: (Int) -> Float) {
        let l = layout
        out.centers[3 * i] = value(l.position.0) * centerSigns.x
        out.centers[3 * i + 1] = value(l.position.1) * centerSigns.y
        out.centers[3 * i + 2] = value(l.position.2) * centerSigns.z
        var q = SIMD4<Float>(value(l.rotation.1), value(l.rotation.2), value(l.rotation.3), value(l.rotation.0))
        let length = (q * q).sum().squareRoot()
        q = length > 0 && length.isFinite ? q / length : SIMD4(0, 0, 0, 1)
        q *= rotationSigns
        for k in 0..<4 { out.rotations[4 * i + k] = q[k] }
        out.scales[3 * i] = exp(value(l.scale.0))
        out.scales[3 * i + 1] = exp(value(l.scale.1))
        out.scales[3 * i + 2] = l.scale.2.map { exp(value($0)) } ?? 0
        out.opacities[i] = 1 / (1 + exp(-value(l.opacity)))
        let base = 3 * coefficients * i
        if l.kind == .colouredGaussians {
            out.sh[base] = (value(l.colour.0) - 0.5) / Self.shC0
            out.sh[base + 1] = (value(l.colour.1) - 0.5) / Self.shC0
            out.sh[base + 2] = (value(l.colour.2) - 0.5) / Self.shC0
            return
        }
        out.sh[base] = value(l.colour.0)
        out.sh[base + 1] = value(l.colour.1)
        out.sh[base + 2] = value(l.colour.2)
        let perChannel = l.restPerChannel
        shSigns.withUnsafeBufferPointer { signs in
            for k in 0..<perChannel {
                let sign = signs[k + 1]
                for channel in 0..<3 { out.sh[base + 3 * (k + 1) + channel] = value(l.rest[channel * perChannel + k]) * sign }
            }
        }
    }

    /// Raw pointers into `Columns` that the two halves write disjoint parts of.
    struct UnsafeColumns: @unchecked Sendable {
        var centers, rotations, scales, opacities, sh: UnsafeMutablePointer<Float>
    }

    /// Records decoded between two calls of `decodeBinary`'s `release`: about 4 MB of a 3DGS file.
    static let releaseEvery = 16384

    /// Decodes a binary body starting at `start`; the caller has checked it holds every record.
    func decodeBinary(_ bytes: [UInt8], start: Int, bigEndian: Bool, into columns: inout Columns) {
        bytes.withUnsafeBytes { raw in decodeBinary(raw, start: start, bigEndian: bigEndian, into: &columns) }
    }

    /// `decodeBinary` over raw bytes (a mapped file's), telling `release` of each run of records
    /// (their byte range) once they are decoded, so a mapping's pages can go as the read moves on.
    func decodeBinary(_ raw: UnsafeRawBufferPointer, start: Int, bigEndian: Bool, into columns: inout Columns,
                      release: (@Sendable (Range<Int>) -> Void)? = nil) {
        var running: [Int] = [], size = 0
        for property in element.properties { running.append(size); size += property.type.size }
        let offsets = running, stride = size
        let types = element.properties.map(\.type)
        let allFloat = types.allSatisfy { $0 == .float32 }
        // The colour of coloured splats is a fraction of its integer range, as the mesh reader reads it.
        let scales = types.map { Float(1 / $0.colourRange) }
        let colourSlots: Set<Int> = layout.kind == .colouredGaussians ? [layout.colour.0, layout.colour.1, layout.colour.2] : []
        let count = count
        let fast = allFloat && !bigEndian && layout.kind != .colouredGaussians ? FloatRecords(self, offsets: offsets) : nil
        columns.centers.withUnsafeMutableBufferPointer { c in
        columns.rotations.withUnsafeMutableBufferPointer { r in
        columns.scales.withUnsafeMutableBufferPointer { s in
        columns.opacities.withUnsafeMutableBufferPointer { o in
        columns.sh.withUnsafeMutableBufferPointer { h in
            let out = UnsafeColumns(centers: c.baseAddress!, rotations: r.baseAddress!, scales: s.baseAddress!, opacities: o.baseAddress!, sh: h.baseAddress!)
            nonisolated(unsafe) let raw = raw
            SplitReduction.forEachHalf(count: count) { range in
                var released = range.lowerBound
                for i in range {
                    if let release, i - released == Self.releaseEvery {
                        release((start + released * stride)..<(start + i * stride))
                        released = i
                    }
                    let record = start + i * stride
                    if let fast {
                        fast.decode(raw.baseAddress! + record, i, into: out)
                    } else if allFloat && !bigEndian {
                        decode(i, into: out) { k in Float(bitPattern: raw.loadUnaligned(fromByteOffset: record + offsets[k], as: UInt32.self)) }
                    } else {
                        decode(i, into: out) { k in
                            let value = Self.scalar(raw, at: record + offsets[k], type: types[k], bigEndian: bigEndian)
                            return colourSlots.contains(k) ? value * scales[k] : value
                        }
                    }
                }
                release?((start + released * stride)..<(start + range.upperBound * stride))
            }
        }}}}}
    }

    /// `decode` for the layout nearly every capture has, little-endian floats with SH: each output
    /// value's byte offset in the record and its axis sign looked up once, so a splat's 59 values
    /// are copied through two flat tables instead of a closure and a layout lookup each (the read
    /// of a million degree-3 splats spent most of its time there). The values are `decode`'s.
    struct FloatRecords: @unchecked Sendable {
        let position: (Int, Int, Int), rotation: (Int, Int, Int, Int), scale: (Int, Int, Int?), opacity: Int
        let centerSigns: SIMD3<Float>, rotationSigns: SIMD4<Float>
        /// For each of the splat's 3 x (degree + 1)^2 coefficient values in output order: its byte
        /// offset in the record and its sign.
        let shOffsets: [Int], shFactors: [Float]

        init(_ decoder: PLYSplatDecoder, offsets: [Int]) {
            let l = decoder.layout
            position = (offsets[l.position.0], offsets[l.position.1], offsets[l.position.2])
            rotation = (offsets[l.rotation.0], offsets[l.rotation.1], offsets[l.rotation.2], offsets[l.rotation.3])
            scale = (offsets[l.scale.0], offsets[l.scale.1], l.scale.2.map { offsets[$0] })
            opacity = offsets[l.opacity]
            (centerSigns, rotationSigns) = (decoder.centerSigns, decoder.rotationSigns)
            var shOffsets = [offsets[l.colour.0], offsets[l.colour.1], offsets[l.colour.2]], shFactors: [Float] = [1, 1, 1]
            let perChannel = l.restPerChannel
            for k in 0..<perChannel {
                for channel in 0..<3 {
                    shOffsets.append(offsets[l.rest[channel * perChannel + k]])
                    shFactors.append(decoder.shSigns[k + 1])
                }
            }
            (self.shOffsets, self.shFactors) = (shOffsets, shFactors)
        }

        @inline(__always)
        func decode(_ record: UnsafeRawPointer, _ i: Int, into out: UnsafeColumns) {
            @inline(__always) func value(_ offset: Int) -> Float { Float(bitPattern: record.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
            out.centers[3 * i] = value(position.0) * centerSigns.x
            out.centers[3 * i + 1] = value(position.1) * centerSigns.y
            out.centers[3 * i + 2] = value(position.2) * centerSigns.z
            var q = SIMD4<Float>(value(rotation.1), value(rotation.2), value(rotation.3), value(rotation.0))
            let length = (q * q).sum().squareRoot()
            q = length > 0 && length.isFinite ? q / length : SIMD4(0, 0, 0, 1)
            q *= rotationSigns
            for k in 0..<4 { out.rotations[4 * i + k] = q[k] }
            out.scales[3 * i] = exp(value(scale.0))
            out.scales[3 * i + 1] = exp(value(scale.1))
            out.scales[3 * i + 2] = scale.2.map { exp(value($0)) } ?? 0
            out.opacities[i] = 1 / (1 + exp(-value(opacity)))
            let values = shOffsets.count, sh = out.sh + values * i
            shOffsets.withUnsafeBufferPointer { offsets in
                shFactors.withUnsafeBufferPointer { factors in
                    for j in 0..<values { sh[j] = value(offsets[j]) * factors[j] }
                }
            }
        }
    }

    /// One stored number as a float.
    @inline(__always)
    static func scalar(_ raw: UnsafeRawBufferPointer, at offset: Int, type: PLYHeader.ScalarType, bigEndian: Bool) -> Float {
        func load<T: FixedWidthInteger>(_: T.Type) -> T {
            let v = raw.loadUnaligned(fromByteOffset: offset, as: T.self)
            return bigEndian ? T(bigEndian: v) : T(littleEndian: v)
        }
        switch type {
        case .int8: return Float(Int8(bitPattern: raw[offset]))
        case .uint8: return Float(raw[offset])
        case .int16: return Float(load(Int16.self))
        case .uint16: return Float(load(UInt16.self))
        case .int32: return Float(load(Int32.self))
        case .uint32: return Float(load(UInt32.self))
        case .float32: return Float(bitPattern: load(UInt32.self))
        case .float64: return Float(Double(bitPattern: load(UInt64.self)))
        }
    }
}
