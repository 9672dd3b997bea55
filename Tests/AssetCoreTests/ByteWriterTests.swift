import Testing
@testable import AssetCore

@Suite struct ByteWriterTests {
    /// Floats written in place land little-endian after what came before, as `f32` would write them.
    @Test func floatsWrittenInPlaceMatchOneByOne() {
        var inPlace = ByteWriter(), oneByOne = ByteWriter()
        inPlace.u8(9); oneByOne.u8(9)
        inPlace.pad(to: 4); oneByOne.pad(to: 4)
        let values: [Float] = [1.5, -0, .infinity, 3e-39, 12345.678]
        inPlace.f32s(count: values.count) { out in for (i, v) in values.enumerated() { out[i] = v } }
        for v in values { oneByOne.f32(v) }
        #expect(inPlace.bytes == oneByOne.bytes)
    }

    /// A reserve per mesh must not reallocate on every call: capacity at least doubles when it grows.
    @Test func reservingGrowsGeometrically() {
        var writer = ByteWriter()
        var grew = 0
        var capacity = writer.bytes.capacity
        for _ in 0..<1000 {
            writer.reserve(additional: 100)
            if writer.bytes.capacity != capacity { grew += 1; capacity = writer.bytes.capacity }
            writer.append([UInt8](repeating: 1, count: 100))
        }
        #expect(grew < 20)
        #expect(writer.count == 100_000)
    }

    /// Prepending keeps both parts whole and in order.
    @Test func prependPutsTheHeadFirst() {
        var writer = ByteWriter()
        writer.append([4, 5, 6])
        writer.reserve(additional: 16)
        writer.prepend([1, 2, 3])
        #expect(writer.bytes == [1, 2, 3, 4, 5, 6])
    }
}
