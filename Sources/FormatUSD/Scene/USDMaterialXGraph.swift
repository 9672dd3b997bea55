import AssetCore

/// What a MaterialX input comes to once its node graph is followed: a constant, a texture lookup
/// (with the channels, scale and texture-coordinate transform the nodes between apply), or a node
/// the material model cannot express, named so the caller can warn about it.
enum MaterialXValue {
    case constant([Float])
    case texture(TextureReference, fallback: [Float]?)
    case unmapped(node: String, id: String, why: String)
}

/// Follows MaterialX node graphs in a UsdShade network (Blender 5, Houdini, Maya, Reality Composer
/// Pro and guc write them as `Shader` prims with `ND_*` ids) from a surface input back to constants
/// and images. The nodes that only route, scale or pick channels of an image are followed:
/// `image`, `tiledimage`, `gltf_image`, `gltf_normalmap`, `normalmap`, `texcoord`, `geompropvalue`,
/// `place2d`, `multiply`, `mix`, `constant`, `convert`, `swizzle`, `extract`, `combine2/3/4`,
/// `separate2/3/4`, `dot`, and USD's own `UsdUVTexture`. Anything else (noise, ramps, maths on two
/// images) is `unmapped`. Work is bounded: depth, a per-material node budget, and cycles end the walk.
struct MaterialXGraph {
    static let maxDepth = 32
    static let maxNodesPerMaterial = 4_096

    /// Nodes visited for the current material: a diamond-shaped graph would otherwise be walked once
    /// per path through it.
    var visited = 0
    /// Textures whose image node tags the file as linear (`lin_rec709`, `raw`): a colour input reading
    /// one is warned about, since colour textures are decoded as sRGB.
    var linearTextures: Set<Int> = []

    /// The node family an id names: `ND_image_color3` -> `image`, `ND_convert_color4_color3` -> `convert`.
    static func family(_ id: String) -> String {
        let name = id.hasPrefix("ND_") ? String(id.dropFirst(3)) : id
        for known in ["gltf_normalmap", "gltf_image", "tiledimage", "geompropvalue", "normalmap", "texcoord", "place2d", "multiply",
                      "constant", "convert", "swizzle", "extract", "combine2", "combine3", "combine4", "separate2", "separate3",
                      "separate4", "image", "mix", "dot"] where name == known || name.hasPrefix(known + "_") {
            return known
        }
        return name.hasPrefix("UsdUVTexture") ? "UsdUVTexture" : name
    }

    /// How many numbers an id's output holds, from its type suffix (`_color3`, `_vector2`, `_float`).
    static func components(_ id: String) -> Int? {
        let last = id.split(separator: "_").last.map(String.init) ?? ""
        for (suffix, n) in [("color4", 4), ("vector4", 4), ("color3", 3), ("vector3", 3), ("vector2", 2), ("float", 1)]
        where last.hasPrefix(suffix) {
            return n
        }
        return nil
    }

    /// The value an input of `shader` comes to.
    mutating func evaluate(_ shader: USDComposedPrim, _ input: String, builder: inout USDMaterialBuilder, depth: Int = 0,
                           path: Set<String> = []) -> MaterialXValue? {
        guard let property = shader.attribute("inputs:" + input) else { return nil }
        switch builder.follow(property, depth: 0) {
        case .value(let value, let layer):
            // An asset path is no number: only image nodes read files, through their own input.
            if property.typeName == "asset" { _ = layer; return .constant([]) }
            return value.flatNumbers.map { .constant($0.map(Float.init)) }
        case .output(let node, let output):
            return evaluateNode(node, output: output, builder: &builder, depth: depth + 1, path: path)
        case .none:
            // A connection to nothing is a broken graph, not an unauthored input.
            if let target = property.targets.first {
                return .unmapped(node: target, id: "no prim", why: "the connection leads to no shader or graph output")
            }
            return nil
        }
    }

    private mutating func evaluateNode(_ node: USDComposedPrim, output: String, builder: inout USDMaterialBuilder, depth: Int,
                                       path: Set<String>) -> MaterialXValue {
        let id = builder.values.string(node.attribute("info:id")) ?? ""
        guard depth <= Self.maxDepth else { return .unmapped(node: node.name, id: id, why: "the graph is deeper than \(Self.maxDepth) nodes") }
        guard !path.contains(node.path) else { return .unmapped(node: node.name, id: id, why: "the graph loops back to it") }
        visited += 1
        guard visited <= Self.maxNodesPerMaterial else {
            return .unmapped(node: node.name, id: id, why: "the material's graph has more than \(Self.maxNodesPerMaterial) node visits")
        }
        let path = path.union([node.path])
        func input(_ name: String) -> MaterialXValue? { evaluate(node, name, builder: &builder, depth: depth, path: path) }
        func constant(_ name: String) -> [Float]? { if case .constant(let v)? = input(name) { return v }; return nil }
        let family = Self.family(id)
        switch family {
        case "image", "tiledimage", "gltf_image", "gltf_normalmap":
            return image(node, id: id, family: family, builder: &builder, depth: depth, path: path)
        case "UsdUVTexture":
            guard let (reference, fallback) = builder.textureReference(node, output: output) else {
                return .unmapped(node: node.name, id: id, why: "its file does not lead to a texture")
            }
            return .texture(reference, fallback: fallback)
        case "constant", "dot":
            return (family == "constant" ? input("value") : input("in")) ?? .constant([])
        case "convert":
            guard let value = input("in") else { return .unmapped(node: node.name, id: id, why: "it has no input") }
            return Self.resized(value, to: Self.components(id) ?? 3)
        case "normalmap":
            // The tangent-space map is the image behind it; its strength is the reader's usual one.
            return input("in") ?? .unmapped(node: node.name, id: id, why: "it has no input")
        case "multiply":
            return Self.product(input("in1"), input("in2"), node: node, id: id)
        case "mix":
            let amount = constant("mix")?.first ?? 0
            if amount >= 1 { return input("fg") ?? .constant([]) }
            if amount <= 0 { return input("bg") ?? .constant([]) }
            if case .constant(let fg)? = input("fg"), case .constant(let bg)? = input("bg"), fg.count == bg.count {
                return .constant(zip(fg, bg).map { f, b in b + (f - b) * amount })
            }
            return .unmapped(node: node.name, id: id, why: "it blends two inputs that are not both constants")
        case "swizzle":
            guard let channels = builder.values.string(node.attribute("inputs:channels")), let value = input("in") else {
                return .unmapped(node: node.name, id: id, why: "it has no input or channels")
            }
            return Self.picked(value, channels: Array(channels), node: node, id: id)
        case "extract":
            let index = Int(constant("index")?.first ?? 0)
            guard let value = input("in"), (0..<4).contains(index) else { return .unmapped(node: node.name, id: id, why: "it has no input") }
            return Self.picked(value, channels: [Array("rgba")[index]], node: node, id: id)
        case "separate2", "separate3", "separate4":
            guard let value = input("in"), let channel = output.last, "rgbaxyzw".contains(channel) else {
                return .unmapped(node: node.name, id: id, why: "it has no input")
            }
            return Self.picked(value, channels: [channel], node: node, id: id)
        case "combine2", "combine3", "combine4":
            let count = Int(String(family.last!))!
            let parts = (1...count).map { input("in\($0)") }
            if parts.allSatisfy({ if case .constant(let v)? = $0, v.count == 1 { return true }; return false }) {
                return .constant(parts.compactMap { if case .constant(let v)? = $0 { return v[0] }; return nil })
            }
            // Channels of one image put back in order are that image.
            let picked = parts.compactMap { part -> (TextureReference, [Float]?)? in
                if case .texture(let r, let f)? = part { return (r, f) }
                return nil
            }
            if picked.count == count, Set(picked.map(\.0.texture)).count == 1,
               picked.map(\.0.channels.rawValue).joined() == String("rgba".prefix(count)) {
                var reference = picked[0].0
                reference.channels = count == 4 ? .rgba : .rgb
                return .texture(reference, fallback: picked[0].1)
            }
            return .unmapped(node: node.name, id: id, why: "it combines channels that are not one image's in order")
        default:
            return .unmapped(node: node.name, id: id.isEmpty ? "no info:id" : id, why: "assetc does not map that node")
        }
    }

    /// An image node: its file resolved like any texture, the texture coordinates behind `texcoord`
    /// (set name and placement), its address modes, and glTF's factor and transform where it has them.
    private mutating func image(_ node: USDComposedPrim, id: String, family: String, builder: inout USDMaterialBuilder, depth: Int,
                                path: Set<String>) -> MaterialXValue {
        guard let fileProperty = node.attribute("inputs:file"), case .value(let value, let layer) = builder.follow(fileProperty, depth: 0),
              let file = value.stringValue, !file.isEmpty else {
            return .unmapped(node: node.name, id: id, why: "it has no file")
        }
        let index = builder.textureIndex(for: file, layer: layer, shader: node)
        let space = fileProperty.metadata["colorSpace"]?.stringValue ?? builder.values.string(node.attribute("inputs:filecolorspace"))
        if let space, space.hasPrefix("lin_") || space == "raw" || space == "linear" { linearTextures.insert(index) }
        for (input, axis) in [("uaddressmode", 0), ("vaddressmode", 1)] {
            guard let mode = builder.values.string(node.attribute("inputs:" + input)) else { continue }
            let wrap: Texture.WrapMode? = ["periodic": .repeat, "mirror": .mirror, "clamp": .clamp, "constant": .black][mode]
            if let wrap { if axis == 0 { builder.textures[index].wrapS = wrap } else { builder.textures[index].wrapT = wrap } }
        }
        let n = Self.components(id) ?? 3
        var reference = TextureReference(texture: index, channels: n == 1 ? .r : n == 4 ? .rgba : .rgb)
        var transform = TextureTransform()
        if let coordinates = node.attribute("inputs:texcoord"), case .output(let source, _) = builder.follow(coordinates, depth: 0) {
            switch texcoord(source, builder: &builder, depth: depth + 1, path: path.union([node.path])) {
            case .success(let (set, placed)):
                reference.texcoordSet = set
                transform = placed
            case .failure(let unmapped):
                return unmapped.value
            }
        }
        func numbers(_ name: String) -> [Float]? { Self.constant(node, name, builder: builder) }
        if family == "tiledimage" {
            // uvtiling repeats the image that many times; uvoffset moves it.
            let tiling = numbers("uvtiling") ?? [1, 1], offset = numbers("uvoffset") ?? [0, 0]
            if tiling.count == 2, offset.count == 2 {
                transform = TextureTransform(scale: SIMD2(tiling[0], tiling[1]) * transform.scale, rotation: transform.rotation,
                                             translation: transform.translation * SIMD2(tiling[0], tiling[1]) + SIMD2(offset[0], offset[1]))
            }
        }
        if family == "gltf_image" {
            if let factor = numbers("factor"), !factor.isEmpty {
                let f = factor + [Float](repeating: factor.last!, count: max(0, 4 - factor.count))
                reference.scale = SIMD4(f[0], f[1], f[2], n == 4 ? f[3] : 1)
            }
        }
        if !transform.isIdentity { reference.transform = transform }
        var fallback = numbers("default")
        if fallback?.isEmpty == true { fallback = nil }
        return .texture(reference, fallback: fallback)
    }

    private struct Unmapped: Error { var value: MaterialXValue }

    /// The set a `texcoord` input reads and the placement between: `texcoord` (index 0 is `st`,
    /// others `st1`...), `geompropvalue` (its primvar), `place2d` (its pivot, scale, rotate and
    /// offset, in SRT order, or TRS with a uniform scale).
    private mutating func texcoord(_ node: USDComposedPrim, builder: inout USDMaterialBuilder, depth: Int,
                                   path: Set<String>) -> Result<(String, TextureTransform), Unmapped> {
        let id = builder.values.string(node.attribute("info:id")) ?? ""
        guard depth <= Self.maxDepth, !path.contains(node.path) else {
            return .failure(Unmapped(value: .unmapped(node: node.name, id: id, why: "the texture coordinates loop or nest too deep")))
        }
        visited += 1
        func numbers(_ name: String) -> [Float]? { Self.constant(node, name, builder: builder) }
        switch Self.family(id) {
        case "texcoord":
            let index = Int(numbers("index")?.first ?? 0)
            return .success((index == 0 ? "st" : "st\(index)", TextureTransform()))
        case "geompropvalue":
            let name = builder.values.string(node.attribute("inputs:geomprop")) ?? "st"
            return .success((name, TextureTransform()))
        case "place2d":
            var inner: (String, TextureTransform) = ("st", TextureTransform())
            if let coordinates = node.attribute("inputs:texcoord"), case .output(let source, _) = builder.follow(coordinates, depth: 0) {
                switch texcoord(source, builder: &builder, depth: depth + 1, path: path.union([node.path])) {
                case .success(let found): inner = found
                case .failure(let unmapped): return .failure(unmapped)
                }
            }
            let pivot = SIMD2(numbers("pivot") ?? [0, 0]), scale = SIMD2(numbers("scale") ?? [1, 1]), offset = SIMD2(numbers("offset") ?? [0, 0])
            let rotate = numbers("rotate")?.first ?? 0
            let trs = (numbers("operationorder")?.first ?? 0) == 1
            guard scale.x != 0, scale.y != 0, !trs || scale.x == scale.y || rotate == 0 else {
                return .failure(Unmapped(value: .unmapped(node: node.name, id: id, why: "its scale of 0, or a non-uniform scale after a rotation, has no texture transform")))
            }
            // SRT: rotate((st - pivot) / scale) - offset + pivot; TRS: rotate(st - pivot - offset) / scale + pivot.
            let placed = Self.place2d(pivot: pivot, scale: scale, rotate: rotate, offset: offset, trs: trs)
            return .success((inner.0, Self.compose(inner.1, then: placed)))
        default:
            return .failure(Unmapped(value: .unmapped(node: node.name, id: id, why: "its texture coordinates come from a node assetc does not map")))
        }
    }

    /// An input's authored numbers, when it is a constant rather than a connection.
    static func constant(_ node: USDComposedPrim, _ name: String, builder: USDMaterialBuilder) -> [Float]? {
        guard let p = node.attribute("inputs:" + name), case .value(let v, _) = builder.follow(p, depth: 0) else { return nil }
        return v.flatNumbers?.map(Float.init)
    }

    /// place2d as a UsdTransform2d (scale, then rotate counter-clockwise, then translate).
    static func place2d(pivot: SIMD2<Float>, scale: SIMD2<Float>, rotate: Float, offset: SIMD2<Float>, trs: Bool) -> TextureTransform {
        let turn = TextureTransform(rotation: rotate)
        if trs {
            let inverse = 1 / scale.x
            return TextureTransform(scale: SIMD2(repeating: inverse), rotation: rotate, translation: pivot - turn.apply(pivot + offset) * inverse)
        }
        return TextureTransform(scale: 1 / scale, rotation: rotate, translation: pivot - offset - turn.apply(pivot / scale))
    }

    /// `first`, then `second`, as one transform; exact when `first` has no rotation or a uniform scale.
    static func compose(_ first: TextureTransform, then second: TextureTransform) -> TextureTransform {
        if first.isIdentity { return second }
        if second.isIdentity { return first }
        let origin = second.apply(first.apply(.zero))
        return TextureTransform(scale: first.scale * second.scale, rotation: first.rotation + second.rotation, translation: origin)
    }

    /// A value with `n` components: colour4 -> colour3 keeps RGB, a float spreads to three.
    static func resized(_ value: MaterialXValue, to n: Int) -> MaterialXValue {
        switch value {
        case .constant(let v) where !v.isEmpty:
            if v.count >= n { return .constant(Array(v.prefix(n))) }
            return .constant(v.count == 1 ? [Float](repeating: v[0], count: n) : v + [Float](repeating: 1, count: n - v.count))
        case .texture(var reference, let fallback):
            if n == 3, reference.channels == .rgba { reference.channels = .rgb }
            if n == 4, reference.channels == .rgb { reference.channels = .rgba }
            return .texture(reference, fallback: fallback)
        default:
            return value
        }
    }

    /// Channels picked from a value (`swizzle`'s string, `extract`'s index, `separate`'s outputs).
    static func picked(_ value: MaterialXValue, channels: [Character], node: USDComposedPrim, id: String) -> MaterialXValue {
        let index: [Character: Int] = ["r": 0, "g": 1, "b": 2, "a": 3, "x": 0, "y": 1, "z": 2, "w": 3]
        switch value {
        case .constant(let v):
            return .constant(channels.compactMap { index[$0].flatMap { v.indices.contains($0) ? v[$0] : nil } })
        case .texture(var reference, let fallback):
            let names = String(channels.compactMap { index[$0].map { Array("rgba")[$0] } })
            switch names {
            case "r", "g", "b", "a": reference.channels = TextureReference.Channels(rawValue: names)!
            case "rgb": reference.channels = .rgb
            case "rgba": reference.channels = .rgba
            default: return .unmapped(node: node.name, id: id, why: "it reorders an image's channels (\(String(channels)))")
            }
            return .texture(reference, fallback: fallback)
        case .unmapped:
            return value
        }
    }

    /// `multiply`: constants multiply; a constant times an image scales the image's lookups.
    static func product(_ a: MaterialXValue?, _ b: MaterialXValue?, node: USDComposedPrim, id: String) -> MaterialXValue {
        switch (a, b) {
        case (.constant(let x)?, .constant(let y)?):
            if x.count == y.count { return .constant(zip(x, y).map(*)) }
            if x.count == 1 { return .constant(y.map { $0 * x[0] }) }
            if y.count == 1 { return .constant(x.map { $0 * y[0] }) }
            return .unmapped(node: node.name, id: id, why: "it multiplies values of different sizes")
        case (.texture(var reference, let fallback)?, .constant(let k)?), (.constant(let k)?, .texture(var reference, let fallback)?):
            guard !k.isEmpty else { return .texture(reference, fallback: fallback) }
            let f = k.count == 1 ? [k[0], k[0], k[0], k[0]] : k + [Float](repeating: 1, count: max(0, 4 - k.count))
            reference.scale = (reference.scale ?? .one) * SIMD4(f[0], f[1], f[2], f[3])
            return .texture(reference, fallback: fallback.map { zip($0, f).map(*) })
        case (let value?, nil), (nil, let value?):
            return value
        case (.unmapped?, _):
            return a!
        case (_, .unmapped?):
            return b!
        default:
            return .unmapped(node: node.name, id: id, why: "it multiplies two images")
        }
    }
}
