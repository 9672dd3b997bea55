import AssetCatalog
import Foundation

/// How query and search results print: an aligned table, JSON, or CSV.
public enum CatalogOutput {
    static let columns = ["id", "format", "triangles", "meshes", "materials", "upAxis", "size", "missingTextures", "error"]

    static func cells(_ r: CatalogRecord) -> [String] {
        [r.id, r.format.name, r.triangles.map(String.init) ?? "-", r.meshes.map(String.init) ?? "-", r.materials.map(String.init) ?? "-",
         r.upAxis ?? "-", String(r.byteSize), String(r.missingTextures), r.error ?? ""]
    }

    public static func table(_ records: [CatalogRecord]) -> String {
        guard !records.isEmpty else { return "(no assets)" }
        let rows = [columns] + records.map { cells($0).map(TerminalText.safe) }
        let widths = columns.indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { c, cell in
                c == row.count - 1 ? cell : cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    public static func csv(_ records: [CatalogRecord]) -> String {
        func field(_ s: String) -> String {
            s.contains(where: { ",\"\n".contains($0) }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        }
        return ([columns] + records.map(cells)).map { $0.map(field).joined(separator: ",") }.joined(separator: "\n")
    }

    public static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"  // records hold only finite numbers
    }

    /// `assetc show`: one asset's record, names, textures and warnings.
    public static func show(_ entry: CatalogEntry) -> String {
        let r = entry.record
        var lines = ["\(r.id)  (\(r.kind.rawValue), \(r.format), \(r.byteSize) bytes)", "  hash        \(r.contentHash)"]
        if let error = r.error { lines.append("  error       \(error)") }
        if r.kind == .model && r.error == nil {
            lines.append("  figures     nodes \(r.nodes ?? 0), meshes \(r.meshes ?? 0), points \(r.points ?? 0), faces \(r.faces ?? 0), triangles \(r.triangles ?? 0)")
            if (r.skeletons ?? 0) + (r.blendShapes ?? 0) + (r.animations ?? 0) > 0 {
                lines.append("  animation   skeletons \(r.skeletons ?? 0), joints \(r.joints ?? 0), skinned meshes \(r.skinnedMeshes ?? 0), "
                             + "blend shapes \(r.blendShapes ?? 0), clips \(r.animations ?? 0), \(r.duration ?? 0) s, animated nodes \(r.animatedNodes ?? 0)")
            }
            if let splats = r.splats, splats > 0 { lines.append("  splats      \(splats), SH degree \(r.splatSHDegree ?? 0)") }
            lines.append("  up axis     \(r.upAxis ?? "-"), \(r.metersPerUnit.map { String($0) } ?? "-") m per unit")
            if let b = r.bounds { lines.append("  bounds      min (\(b.min.x), \(b.min.y), \(b.min.z))  max (\(b.max.x), \(b.max.y), \(b.max.z))") }
            if let errors = r.arkitErrors {
                let rules = entry.arkitRules.isEmpty ? "" : " (" + entry.arkitRules.joined(separator: ", ") + ")"
                lines.append("  ARKit       \(errors) error\(errors == 1 ? "" : "s"), \(r.arkitWarnings ?? 0) warning\((r.arkitWarnings ?? 0) == 1 ? "" : "s")\(rules)")
            }
            if let thumbnail = r.thumbnail { lines.append("  thumbnail   \(thumbnail)") }
            lines.append("  nodes")
            lines += entry.nodeNames.map { "    " + $0 }
            if !entry.materialNames.isEmpty { lines.append("  materials   " + entry.materialNames.joined(separator: ", ")) }
            for t in entry.textureReferences {
                lines.append("  texture     \(t.path)  \(t.resolves ? "ok" : "MISSING")\(t.resolvedID.map { " -> \($0)" } ?? "")")
            }
        }
        lines += entry.warnings.map { "  warning     " + $0 }
        // Every field here may hold a file's own text (names, paths, warnings).
        return lines.map(TerminalText.safe).joined(separator: "\n")
    }
}
