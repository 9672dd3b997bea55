import AssetCore
import CZlib

/// Writes a usdz package by the USDZ rules: entries stored uncompressed, each entry's data starting
/// at a multiple of 64 bytes (padding goes in the local header's extra field), the root layer
/// first, fixed timestamps so the same files give the same bytes.
///
/// Written by hand because libzip, used for reading, cannot place entry data at chosen offsets;
/// the format written here (no compression, no zip64, no encryption) is small. CRC-32 is zlib's.
public enum USDZPackageWriter {
    static let alignment = 64
    /// An extra-field id no reader interprets: it only carries padding.
    static let paddingFieldID: UInt16 = 0x4153

    public static func package(_ files: [OutputFile]) throws(AssetError) -> [UInt8] {
        var out = ByteWriter()
        var central = ByteWriter()
        for file in files {
            let name = Array(file.relativePath.utf8)
            guard file.bytes.count < Int(UInt32.max), out.count < Int(UInt32.max) else {
                throw AssetError(.limitExceeded("usdz entries and packages over 4 GiB need zip64, which assetc does not write"))
            }
            let crc = file.bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            let headerOffset = UInt32(out.count)
            let beforeData = out.count + 30 + name.count + 4
            let padding = (alignment - beforeData % alignment) % alignment
            // Local file header.
            out.u32(0x0403_4B50)
            out.u16(20); out.u16(0); out.u16(0)   // version needed, flags, method: stored
            out.u16(0); out.u16(0x21)             // time 00:00:00, date 1980-01-01
            out.u32(crc); out.u32(UInt32(file.bytes.count)); out.u32(UInt32(file.bytes.count))
            out.u16(UInt16(name.count)); out.u16(UInt16(4 + padding))
            out.append(name)
            out.u16(paddingFieldID); out.u16(UInt16(padding))
            out.append([UInt8](repeating: 0, count: padding))
            out.append(file.bytes)
            // Central directory record.
            central.u32(0x0201_4B50)
            central.u16(20); central.u16(20); central.u16(0); central.u16(0)
            central.u16(0); central.u16(0x21)
            central.u32(crc); central.u32(UInt32(file.bytes.count)); central.u32(UInt32(file.bytes.count))
            central.u16(UInt16(name.count)); central.u16(0); central.u16(0)
            central.u16(0); central.u16(0); central.u32(0)
            central.u32(headerOffset)
            central.append(name)
        }
        let centralOffset = UInt32(out.count)
        out.append(central.bytes)
        // End of central directory.
        out.u32(0x0605_4B50)
        out.u16(0); out.u16(0)
        out.u16(UInt16(files.count)); out.u16(UInt16(files.count))
        out.u32(UInt32(central.count)); out.u32(centralOffset)
        out.u16(0)
        return out.bytes
    }
}
