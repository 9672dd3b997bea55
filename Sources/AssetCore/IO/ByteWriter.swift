/// Builds little-endian binary files (STL, PLY, glTF buffers, zip headers) into one contiguous buffer.
/// Public, like DecimalNumberParser, so the writers' per-element loops inline it.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    public var count: Int { bytes.count }

    public mutating func append(_ data: [UInt8]) { bytes.append(contentsOf: data) }
    public mutating func append(_ text: String) { bytes.append(contentsOf: Array(text.utf8)) }
    public mutating func u8(_ v: UInt8) { bytes.append(v) }

    public mutating func u16(_ v: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: v)); bytes.append(UInt8(truncatingIfNeeded: v >> 8))
    }

    public mutating func u32(_ v: UInt32) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func u64(_ v: UInt64) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    public mutating func f32(_ v: Float) { u32(v.bitPattern) }

    /// Many 32-bit floats at once: one copy of their bytes on little-endian machines.
    public mutating func f32s(_ values: [Float]) {
        #if _endian(little)
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
        for v in values { f32(v) }
        #endif
    }

    /// Many 32-bit unsigned integers at once: one copy of their bytes on little-endian machines.
    public mutating func u32s(_ values: [UInt32]) {
        #if _endian(little)
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
        for v in values { u32(v) }
        #endif
    }

    /// Room for `additional` more bytes, so that appends up to it never copy the buffer to grow it.
    /// Grows at least twofold when it must grow: a reserve per mesh of a thousand-mesh scene would
    /// otherwise copy the whole buffer each time.
    public mutating func reserve(additional: Int) {
        let needed = bytes.count + additional
        guard needed > bytes.capacity else { return }
        bytes.reserveCapacity(max(needed, 2 * bytes.capacity))
    }

    /// `count` 32-bit floats that `fill` writes in place at the end of the buffer (native order;
    /// the bytes are swapped to little-endian after on other machines). A writer's vertex streams
    /// go straight into the file's bytes this way, not through arrays of their own first.
    public mutating func f32s(count: Int, _ fill: (UnsafeMutableBufferPointer<Float>) -> Void) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count * 4))
        bytes.withUnsafeMutableBytes { raw in
            let tail = UnsafeMutableRawBufferPointer(rebasing: raw[start...])
            tail.withMemoryRebound(to: Float.self) { fill($0) }
            #if !_endian(little)
            tail.withMemoryRebound(to: UInt32.self) { for k in $0.indices { $0[k] = $0[k].littleEndian } }
            #endif
        }
    }

    /// Puts `prefix` before everything written so far: a move within the buffer when its capacity
    /// has room, so a file's header can follow its large body without copying the body out.
    public mutating func prepend(_ prefix: [UInt8]) {
        bytes.insert(contentsOf: prefix, at: 0)
    }

    /// Appends `value` until the length is a multiple of `alignment`.
    public mutating func pad(to alignment: Int, with value: UInt8 = 0) {
        while bytes.count % alignment != 0 { bytes.append(value) }
    }
}
