import AssetCore
import Foundation

/// Wavefront MTL materials in UsdPreviewSurface's terms: `Kd` and `map_Kd` the base colour, `d`
/// (or 1 - `Tr`) and `map_d` opacity, `Ke`/`map_Ke` emission, `Ns` roughness (sqrt(2 / (Ns + 2)),
/// as for Collada's shininess) unless the PBR extension's `Pr`/`map_Pr` says, `Pm`/`map_Pm`
/// metallic, `map_Bump`/`bump`/`norm` the normal map, `Ni` the index of refraction. Texture options
/// (`-bm 1.5`, `-s u v w`, `-clamp on`...) are read past to the file name. A statement that cannot be
/// read (a word where a number belongs, a map naming no file) is left out with a located warning
/// and the rest is read, as Blender does. `Ks`, `map_Ks`, `Tf`, sheen (`Ps`, `map_Ps`), clearcoat
/// (`Pc`, `Pcr`), anisotropy and displacement have no place in the material and are named once per
/// library; `Ka` and `illum`, lighting-model hints without a PBR meaning, are passed over.
struct MTLParser {
    struct Parsed {
        var material: Material
        /// Per texture slot, the path as written and the line it is on.
        var maps: [(slot: Slot, path: String, line: Int)] = []
    }

    enum Slot { case baseColor, opacity, emissive, roughness, metallic, normal }

    let file: String

    /// Options that take this many values before the file name.
    static let optionArity: [String: Int] = ["-bm": 1, "-blendu": 1, "-blendv": 1, "-boost": 1, "-cc": 1, "-clamp": 1, "-imfchan": 1,
                                             "-mm": 2, "-o": 3, "-s": 3, "-t": 3, "-texres": 1, "-type": 1]

    /// Statements with no place in the material, named in one warning per library when set.
    static let unkept: Set<String> = ["ks", "map_ks", "tf", "ps", "map_ps", "pc", "pcr", "aniso", "anisor", "disp", "decal", "refl", "map_ka"]

    func parse(_ text: String) -> (materials: [String: Parsed], diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var unkept: [String: Int] = [:]
        var materials: [String: Parsed] = [:]
        var current: String?
        var shininess: Float?, explicitRoughness = false
        func finish() {
            guard let name = current, var parsed = materials[name] else { return }
            if !explicitRoughness, let ns = shininess { parsed.material.roughness.value = (2 / (max(ns, 0) + 2)).squareRoot() }
            materials[name] = parsed
        }
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = offset + 1
            let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let keyword = words.first, !keyword.hasPrefix("#") else { continue }
            let here = SourceLocation(file: file, line: line)
            func numbers(_ count: Int) throws(AssetError) -> [Float] {
                let values = words.dropFirst().prefix(count).compactMap { DecimalNumberParser.float($0) }
                guard values.count == count || (count == 3 && values.count == 1) else {
                    throw AssetError(.malformed("'\(keyword)' needs \(count) numbers"), at: here)
                }
                return values.count == 1 && count == 3 ? [values[0], values[0], values[0]] : values
            }
            if keyword == "newmtl" {
                finish()
                let name = words.dropFirst().joined(separator: " ")
                current = name
                shininess = nil
                explicitRoughness = false
                var material = Material(name: name)
                material.shadingSource = "MTL"
                material.baseColor.value = SIMD3(repeating: 0.8)  // MTL's customary default diffuse
                material.roughness.value = 1
                materials[name] = Parsed(material: material)
                continue
            }
            guard let name = current else {
                diagnostics.append(.warning("'\(keyword)' before any 'newmtl'; left out", at: here))
                continue
            }
            do throws(AssetError) {
            switch keyword.lowercased() {
            case "kd": let v = try numbers(3); materials[name]!.material.baseColor.value = SIMD3(v[0], v[1], v[2])
            case "ke": let v = try numbers(3); materials[name]!.material.emissive.value = SIMD3(v[0], v[1], v[2])
            case "d": materials[name]!.material.opacity.value = try numbers(1)[0]
            case "tr": materials[name]!.material.opacity.value = 1 - (try numbers(1)[0])
            case "ns": shininess = try numbers(1)[0]
            case "pr": materials[name]!.material.roughness.value = try numbers(1)[0]; explicitRoughness = true
            case "pm": materials[name]!.material.metallic.value = try numbers(1)[0]
            case "map_kd": materials[name]!.maps.append((.baseColor, try mapPath(words, at: here), line))
            case "map_d": materials[name]!.maps.append((.opacity, try mapPath(words, at: here), line))
            case "map_ke": materials[name]!.maps.append((.emissive, try mapPath(words, at: here), line))
            case "map_pr": materials[name]!.maps.append((.roughness, try mapPath(words, at: here), line)); explicitRoughness = true
            case "map_pm": materials[name]!.maps.append((.metallic, try mapPath(words, at: here), line))
            case "map_bump", "bump", "norm": materials[name]!.maps.append((.normal, try mapPath(words, at: here), line))
            case "ni":
                let ior = try numbers(1)[0]
                if ior >= 1 { materials[name]!.material.ior = ior }
            case "ks":
                // A black specular colour says there is none: nothing is lost.
                if try numbers(3) != [0, 0, 0] { unkept["Ks", default: 0] += 1 }
            case let other where Self.unkept.contains(other): unkept[keyword, default: 0] += 1
            default: continue  // Ka, illum: lighting-model hints
            }
            } catch {
                diagnostics.append(.warning("\(error.message); the statement is left out", at: here))
            }
        }
        finish()
        if !unkept.isEmpty {
            let list = unkept.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
            diagnostics.append(.warning("statements with no place in a metallic-roughness material are not kept: \(list)", at: SourceLocation(file: file)))
        }
        return (materials, diagnostics)
    }

    /// The file name after a map statement's options.
    func mapPath(_ words: [String], at here: SourceLocation) throws(AssetError) -> String {
        var k = 1
        while k < words.count, let arity = Self.optionArity[words[k]] {
            k += 1
            // -o, -s and -t take one to three numbers: stop at the first word that is not one.
            var taken = 0
            while taken < arity, k < words.count, DecimalNumberParser.double(words[k]) != nil || ["on", "off"].contains(words[k]) || words[k].count == 1 {
                k += 1
                taken += 1
            }
        }
        guard k < words.count else { throw AssetError(.malformed("'\(words[0])' names no file"), at: here) }
        return words[k...].joined(separator: " ")
    }
}
