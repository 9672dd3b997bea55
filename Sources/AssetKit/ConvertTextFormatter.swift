import AssetCore
import AssetPipeline

/// `assetc convert`'s report as text: a line per simplified mesh and per shrunk texture, a line
/// per try `--max-size` found too large, then what was written.
public enum ConvertTextFormatter {
    public static func lines(_ report: ConvertUseCase.Report) -> [String] {
        var lines = simplification(report.simplification)
        for t in report.shrunkTextures {
            lines.append("texture \(TerminalText.safe(t.texture)): \(t.widthBefore)x\(t.heightBefore) -> \(t.width)x\(t.height) \(t.format), "
                         + "\(t.bytesBefore) -> \(t.bytes) bytes (\(t.content == .color ? "sRGB colour" : t.content == .normal ? "normal map, renormalised" : "linear data"))")
        }
        if !report.shrunkTextures.isEmpty {
            let before = report.shrunkTextures.reduce(0) { $0 + $1.bytesBefore }, after = report.shrunkTextures.reduce(0) { $0 + $1.bytes }
            lines.append("textures: \(report.shrunkTextures.count) re-encoded, \(before) -> \(after) bytes")
        }
        for (k, sizeTry) in report.sizeTries.enumerated() {
            let budgets = [sizeTry.maxTriangles.map { "\($0) triangles" }, sizeTry.maxTextureSize.map { "\($0) px textures" },
                           sizeTry.textureFormat == "keep" ? nil : "textures \(sizeTry.textureFormat)"].compactMap { $0 }
            lines.append("--max-size: try \(k + 1) came to \(sizeTry.bytes) bytes\(budgets.isEmpty ? "" : " (" + budgets.joined(separator: ", ") + ")"); tightened")
        }
        lines.append("wrote \(report.writtenFiles.joined(separator: ", ")) (\(report.format.name), \(report.bytesWritten) bytes)")
        return lines
    }

    /// `simplified Body: 1000000 -> 99870 triangles (error 0.0012)`, a line a mesh, then the total.
    static func simplification(_ meshes: [ConvertUseCase.SimplifiedMesh]) -> [String] {
        guard !meshes.isEmpty else { return [] }
        var lines = meshes.map { m in
            "simplified \(TerminalText.safe(m.mesh)): \(m.trianglesBefore) -> \(m.trianglesAfter) triangles (error \(m.error)\(m.bordersMoved ? ", borders moved" : ""))"
        }
        lines.append("simplified \(meshes.count) mesh\(meshes.count == 1 ? "" : "es"): \(meshes.reduce(0) { $0 + $1.trianglesBefore }) -> \(meshes.reduce(0) { $0 + $1.trianglesAfter }) triangles")
        return lines
    }
}
