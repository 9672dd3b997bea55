import AssetCore

/// Builds `Curves` from a geometry's `<lines>` (every index pair one two-point curve) and
/// `<linestrips>` (every `<p>` one polyline), one `Curves` per element so each keeps its material
/// symbol. Positions come from `<vertices>` through the VERTEX input; other inputs are not kept.
struct ColladaCurvesBuilder {
    let document: ColladaDocument

    struct Built {
        var curves: Curves
        var symbol: String?
    }

    func build(_ geometry: ColladaGeometry, diagnostics: inout [Diagnostic]) -> [Built] {
        let lineElements = geometry.primitives.filter { $0.kind == .lines || $0.kind == .linestrips }
        guard !lineElements.isEmpty else { return [] }
        let here = document.location(line: geometry.line, element: "geometry[@id=\(geometry.id)]")
        guard let positionInput = geometry.vertexInputs.first(where: { $0.semantic == "POSITION" }),
              let source = geometry.sources[positionInput.source] else {
            diagnostics.append(.warning("lines dropped: no usable POSITION source in <vertices>", at: here))
            return []
        }
        let positions = ColladaMeshBuilder.vectors3(source)
        var built: [Built] = []
        for primitive in lineElements {
            let pHere = document.location(line: primitive.line, element: "geometry[@id=\(geometry.id)]/\(primitive.kind.rawValue)")
            guard let vertexInput = primitive.inputs.first(where: { $0.semantic == "VERTEX" }) else {
                diagnostics.append(.warning("<\(primitive.kind.rawValue)> without a VERTEX input skipped", at: pHere))
                continue
            }
            if let bad = primitive.inputs.first(where: { !(0..<ColladaMeshBuilder.maxInputOffset).contains($0.offset) }) {
                diagnostics.append(.warning("input \(bad.semantic) has offset \(bad.offset), outside 0..<\(ColladaMeshBuilder.maxInputOffset); <\(primitive.kind.rawValue)> skipped", at: pHere))
                continue
            }
            let stride = (primitive.inputs.map(\.offset).max() ?? 0) + 1
            // Per curve, its vertices' position indices.
            var polylines: [ArraySlice<Int32>] = []
            var vertexIndices: [Int32] = []
            switch primitive.kind {
            case .lines:
                let list = primitive.lists.first ?? []
                let usable = list.count / stride / 2
                if list.count % (2 * stride) != 0 || primitive.count > usable {
                    diagnostics.append(.warning("count=\(primitive.count) lines but <p> holds \(usable) whole ones; those are used", at: pHere))
                }
                vertexIndices = (0..<(2 * usable)).map { list[$0 * stride + vertexInput.offset] }
                polylines = (0..<usable).map { vertexIndices[(2 * $0)..<(2 * $0 + 2)] }
            default:
                for list in primitive.lists {
                    let n = list.count / stride
                    guard n >= 2, list.count % stride == 0 else {
                        diagnostics.append(.warning("a <p> of \(list.count) indices is not a strip of 2 or more vertices; skipped", at: pHere))
                        continue
                    }
                    let start = vertexIndices.count
                    vertexIndices.append(contentsOf: (0..<n).map { list[$0 * stride + vertexInput.offset] })
                    polylines.append(vertexIndices[start..<(start + n)])
                }
            }
            if let bad = vertexIndices.first(where: { $0 < 0 || Int($0) >= positions.count }) {
                diagnostics.append(.warning("<\(primitive.kind.rawValue)> index \(bad) is outside the \(positions.count) positions; skipped", at: pHere))
                continue
            }
            guard !polylines.isEmpty else { continue }
            var curves = Curves(name: geometry.name)
            curves.points = vertexIndices.map { positions[Int($0)] }
            curves.curveVertexCounts = polylines.map { Int32($0.count) }
            built.append(Built(curves: curves, symbol: primitive.material))
        }
        return built
    }
}
