/// Builds little-endian binary files (STL, PLY, glTF buffers, zip headers) into one contiguous buffer.
package struct ByteWriter: Sendable {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    package var count: Int { bytes.count }

    package mutating func append(_ data: [UInt8]) { bytes.append(contentsOf: data) }
    package mutating func append(_ text: String) { bytes.append(contentsOf: Array(text.utf8)) }
    package mutating func u8(_ v: UInt8) { bytes.append(v) }

    package mutating func u16(_ v: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: v)); bytes.append(UInt8(truncatingIfNeeded: v >> 8))
    }

    package mutating func u32(_ v: UInt32) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    package mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    package mutating func f32(_ v: Float) { u32(v.bitPattern) }

    /// Appends `value` until the length is a multiple of `alignment`.
    package mutating func pad(to alignment: Int, with value: UInt8 = 0) {
        while bytes.count % alignment != 0 { bytes.append(value) }
    }
}
