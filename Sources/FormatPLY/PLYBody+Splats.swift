import AssetCore

extension PLYBody {
    /// Reads the body of a 3DGS PLY: the vertex element (at `vertexIndex`) as splats, every other
    /// element read past. The values are given in `axes` and come out in the scene frame.
    mutating func readSplats(layout: PLYSplatLayout, vertexIndex: Int, name: String, axes: SplatAxes) throws(AssetError) -> SplatSet {
        var set: SplatSet?
        for (index, element) in header.elements.enumerated() {
            guard element.count <= bytes.count - cursor || element.properties.isEmpty else {
                throw AssetError(.malformed("element \(element.name) claims \(element.count) records; \(bytes.count - cursor) bytes are left"),
                                 at: SourceLocation(file: file, line: element.line))
            }
            try budget.spend(work: element.count * max(element.properties.count, 1), for: "\(element.count) \(element.name) records",
                             at: SourceLocation(file: file, line: element.line))
            var values = [Double](repeating: 0, count: element.properties.count)
            var unused: [Int64] = []
            guard index == vertexIndex else {
                for _ in 0..<element.count { try record(element, into: &values, list: &unused, listSlot: nil) }
                continue
            }
            let decoder = PLYSplatDecoder(layout: layout, element: element, axes: axes)
            var columns = try decoder.columns(budget: budget, file: file)
            if header.encoding == .ascii {
                let divisors = element.properties.map(\.type.colourRange)
                let colourSlots: Set<Int> = layout.kind == .colouredGaussians ? [layout.colour.0, layout.colour.1, layout.colour.2] : []
                var asciiFailure: AssetError?
                columns.centers.withUnsafeMutableBufferPointer { c in
                columns.rotations.withUnsafeMutableBufferPointer { r in
                columns.scales.withUnsafeMutableBufferPointer { s in
                columns.opacities.withUnsafeMutableBufferPointer { o in
                columns.sh.withUnsafeMutableBufferPointer { h in
                    let out = PLYSplatDecoder.UnsafeColumns(centers: c.baseAddress!, rotations: r.baseAddress!, scales: s.baseAddress!,
                                                            opacities: o.baseAddress!, sh: h.baseAddress!)
                    for i in 0..<element.count {
                        do throws(AssetError) { try record(element, into: &values, list: &unused, listSlot: nil) } catch { asciiFailure = error; return }
                        decoder.decode(i, into: out) { k in Float(colourSlots.contains(k) ? values[k] / divisors[k] : values[k]) }
                    }
                }}}}}
                if let failure = asciiFailure { throw failure }
            } else {
                let stride = element.properties.reduce(0) { $0 + $1.type.size }
                guard element.count <= (bytes.count - cursor) / max(stride, 1) else {
                    throw AssetError(.malformed("\(element.count) splats of \(stride) bytes run past the end of the file (\(bytes.count - cursor) bytes are left)"), at: here)
                }
                decoder.decodeBinary(bytes, start: cursor, bigEndian: header.encoding == .binaryBigEndian, into: &columns)
                cursor += element.count * stride
            }
            set = columns.takeSet(name: name, shDegree: layout.shDegree, axes: axes)
        }
        return set!
    }
}
