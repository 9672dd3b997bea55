import AssetCore
import AssetTestSupport
import Foundation
import Testing
@testable import FormatPLY

@Suite struct PLYReaderTests {
    let temporary = TemporaryFolder("assetc-ply")

    func read(_ bytes: [UInt8]) throws -> Scene {
        try FileManager.default.createDirectory(at: temporary.url, withIntermediateDirectories: true)
        let url = temporary.appendingPathComponent("t.ply")
        try Data(bytes).write(to: url)
        return try PLYReader().read(from: url, options: ReadOptions()).scene
    }

    static func header(_ format: String) -> String {
        "ply\nformat \(format) 1.0\nelement vertex 3\nproperty double x\nproperty double y\nproperty double z\nproperty uchar red\n"
            + "property uchar green\nproperty uchar blue\nelement face 1\nproperty list ushort uint vertex_index\nend_header\n"
    }

    @Test func bigEndianReadsLikeLittleEndian() throws {
        func body(bigEndian: Bool) -> [UInt8] {
            var out = Array(Self.header(bigEndian ? "binary_big_endian" : "binary_little_endian").utf8)
            for (p, c) in [([0.0, 0, 0], [255, 0, 0]), ([2.0, 0, 0], [0, 255, 0]), ([0.0, 3, 0], [0, 0, 51])] {
                for v in p { withUnsafeBytes(of: bigEndian ? v.bitPattern.bigEndian : v.bitPattern.littleEndian) { out += $0 } }
                out += c.map(UInt8.init)
            }
            withUnsafeBytes(of: bigEndian ? UInt16(3).bigEndian : UInt16(3).littleEndian) { out += $0 }
            for i: UInt32 in [0, 1, 2] { withUnsafeBytes(of: bigEndian ? i.bigEndian : i.littleEndian) { out += $0 } }
            return out
        }
        let little = try read(body(bigEndian: false)), big = try read(body(bigEndian: true))
        #expect(little.meshes[0] == big.meshes[0])
        #expect(little.meshes[0].points == [SIMD3(0, 0, 0), SIMD3(2, 0, 0), SIMD3(0, 3, 0)])
        #expect(little.meshes[0].primvar(named: Primvar.displayColorName)?.values == .float3([SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 0.2)]))
    }

    @Test func aListRunningPastTheEndIsRefused() {
        var bytes = Array(Self.header("binary_little_endian").utf8)
        bytes += [UInt8](repeating: 0, count: 3 * 27)
        bytes += [0xFF, 0xFF]  // a list of 65535 indices, none of them present
        #expect(throws: AssetError.self) { try read(bytes) }
    }
}
