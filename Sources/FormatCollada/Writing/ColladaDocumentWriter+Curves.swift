import AssetCore

extension ColladaDocumentWriter {
    /// A `<geometry>` of lines: two-point curves as one `<lines>` element, the rest each a `<p>`
    /// of one `<linestrips>`, all over one position source.
    func curvesGeometry(_ index: Int) -> String {
        let curves = scene.curves[index]
        let id = "curves\(index)"
        let values = curves.points.flatMap { [$0.x, $0.y, $0.z] }
        var x = "    <geometry id=\"\(id)\" name=\"\(MarkupText.escape(curves.name))\"><mesh>\n"
        x += "      <source id=\"\(id)-positions\"><float_array id=\"\(id)-positions-array\" count=\"\(values.count)\">"
            + values.map(NumberText.float).joined(separator: " ")
            + "</float_array><technique_common><accessor source=\"#\(id)-positions-array\" count=\"\(curves.points.count)\" stride=\"3\">"
            + "<param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/></accessor></technique_common></source>\n"
        x += "      <vertices id=\"\(id)-vertices\"><input semantic=\"POSITION\" source=\"#\(id)-positions\"/></vertices>\n"
        var pairs: [String] = []
        var strips: [String] = []
        var start = 0
        for count in curves.curveVertexCounts.map(Int.init) {
            let run = (start..<(start + count)).map(String.init).joined(separator: " ")
            if count == 2 { pairs.append(run) } else { strips.append(run) }
            start += count
        }
        let input = "        <input semantic=\"VERTEX\" source=\"#\(id)-vertices\" offset=\"0\"/>\n"
        if !pairs.isEmpty {
            x += "      <lines count=\"\(pairs.count)\" material=\"lines\">\n" + input + "        <p>" + pairs.joined(separator: " ") + "</p>\n      </lines>\n"
        }
        if !strips.isEmpty {
            x += "      <linestrips count=\"\(strips.count)\" material=\"lines\">\n" + input
                + strips.map { "        <p>\($0)</p>\n" }.joined() + "      </linestrips>\n"
        }
        return x + "    </mesh></geometry>\n"
    }
}
