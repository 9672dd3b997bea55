import AssetCore

/// The human-readable form of `assetc info` (the JSON form is `AssetInfo` itself).
public enum InfoTextFormatter {
    public static func format(_ info: AssetInfo) -> String {
        var lines = ["\(TerminalText.safe(info.file))  (\(info.format?.name ?? "in memory"))"]
        func row(_ label: String, _ value: String) {
            lines.append("  " + label.padding(toLength: 12, withPad: " ", startingAt: 0) + value)
        }
        row("up axis", "\(info.upAxis.rawValue), " + (info.metersPerUnit.map { "\(NumberText.display($0)) m per unit" } ?? "unit unknown (metres assumed)"))
        if let generator = info.generator { row("generator", TerminalText.safe(generator)) }
        if let defaultPrim = info.defaultPrim { row("default", TerminalText.safe(defaultPrim)) }
        row("nodes", grouped(info.nodes))
        row("meshes", "\(grouped(info.meshes))  (points \(grouped(info.points)), faces \(grouped(info.faces)), triangles \(grouped(info.triangles)))")
        if info.primitives > 0 { row("primitives", grouped(info.primitives)) }
        if info.curves > 0 { row("curves", "\(grouped(info.curves))  (segments \(grouped(info.segments)))") }
        if info.splats > 0 { row("splats", "\(grouped(info.splats))  (SH degree \(info.splatSHDegree))") }
        row("materials", "\(grouped(info.materials)), textures \(grouped(info.textures))")
        if !info.materialVariants.isEmpty { row("variants", info.materialVariants.joined(separator: ", ")) }
        if info.cameras + info.lights > 0 { row("cameras", "\(info.cameras), lights \(info.lights)") }
        if info.skeletons > 0 {
            row("skeletons", "\(grouped(info.skeletons))  (joints \(grouped(info.joints)), skinned meshes \(grouped(info.skinnedMeshes)))")
        }
        if info.blendShapes > 0 { row("blendshapes", grouped(info.blendShapes)) }
        if info.animations > 0 {
            row("animations", "\(grouped(info.animations)), \(NumberText.display(info.duration)) s, animated nodes \(grouped(info.animatedNodes))"
                + (info.animatedMaterials > 0 ? ", animated materials \(grouped(info.animatedMaterials))" : "")
                + (info.animatedLights > 0 ? ", animated lights \(grouped(info.animatedLights))" : ""))
        }
        if let time = info.time { row("posed at", "\(NumberText.display(time)) s") }
        if let b = info.bounds {
            row("bounds", "min \(vector(b.min))  max \(vector(b.max))")
            let size = zip(b.max, b.min).map { $0 - $1 }
            row("size", size.map(NumberText.display).joined(separator: " x ") + " units")
        } else {
            row("bounds", "none (no geometry)")
        }
        row("warnings", info.warnings.isEmpty ? "none" : String(info.warnings.count))
        for warning in info.warnings { lines.append("    - " + TerminalText.safe(warning)) }
        return lines.joined(separator: "\n")
    }

    static func vector(_ v: [Double]) -> String { "(" + v.map(NumberText.display).joined(separator: ", ") + ")" }

    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return (n < 0 ? "-" : "") + out
    }
}
