import AssetCore
import Foundation

/// Turns a 3DGS PLY's vertex records into a `SplatSet`: scales through exp, opacity through the
/// logistic function, quaternions from w-first to x, y, z, w and normalised, the channel-major
/// `f_rest` regrouped coefficient by coefficient. A binary body is read by column offsets within
/// its fixed-size records, both halves on two cores; an ASCII body goes through `PLYBody`.
struct PLYSplatDecoder {
    static let shC0: Float = 0.28209479177387814

    let layout: PLYSplatLayout
    let element: PLYHeader.Element
    let count: Int

    /// Output buffers, filled splat by splat.
    struct Columns {
        var centers: [Float]
        var rotations: [Float]
        var scales: [Float]
        var opacities: [Float]
        var sh: [Float]

        /// The set the columns hold, in the file's axes, its arrays moved out (the columns are left
        /// empty): a reference left behind would make the set's first change, the turn into the
        /// scene's axes, copy every array.
        mutating func takeSet(name: String, shDegree: Int) -> SplatSet {
            func take(_ column: inout [Float]) -> SplatScalars {
                var out: [Float] = []
                swap(&out, &column)
                return .float(out)
            }
            return SplatSet(name: name, centers: take(&centers), rotations: take(&rotations), scales: take(&scales),
                            opacities: take(&opacities), shDegree: shDegree, sh: take(&sh), axes: .rightDownForward)
        }
    }

    init(layout: PLYSplatLayout, element: PLYHeader.Element) {
        self.layout = layout
        self.element = element
        count = element.count
    }

    var coefficients: Int { (layout.shDegree + 1) * (layout.shDegree + 1) }

    /// Reserves the columns after charging their bytes to `budget`.
    func columns(budget: ReadBudget, file: String) throws(AssetError) -> Columns {
        let floats = count * (3 + 4 + 3 + 1 + 3 * coefficients)
        try budget.spend(bytes: floats * 4, for: "\(count) splats of SH degree \(layout.shDegree)", at: SourceLocation(file: file, line: element.line))
        // Not zeroed: `decode` writes every value of every splat, and zeroing first is one more pass
        // over 236 MB for a million degree-3 splats, on one core, before the decode's two.
        func column(_ size: Int) -> [Float] { [Float](unsafeUninitializedCapacity: size) { _, initialized in initialized = size } }
        return Columns(centers: column(3 * count), rotations: column(4 * count), scales: column(3 * count), opacities: column(count),
                       sh: column(3 * coefficients * count))
    }

    /// Decodes splat `i` from `value(property index)`, the property's number as stored.
    @inline(__always)
    func decode(_ i: Int, into out: UnsafeColumns, _ value: (Int) -> Float) {
        let l = layout
        out.centers[3 * i] = value(l.position.0)
        out.centers[3 * i + 1] = value(l.position.1)
        out.centers[3 * i + 2] = value(l.position.2)
        var q = SIMD4<Float>(value(l.rotation.1), value(l.rotation.2), value(l.rotation.3), value(l.rotation.0))
        let length = (q * q).sum().squareRoot()
        q = length > 0 && length.isFinite ? q / length : SIMD4(0, 0, 0, 1)
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
        for k in 0..<perChannel {
            for channel in 0..<3 { out.sh[base + 3 * (k + 1) + channel] = value(l.rest[channel * perChannel + k]) }
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
                    if allFloat && !bigEndian {
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
