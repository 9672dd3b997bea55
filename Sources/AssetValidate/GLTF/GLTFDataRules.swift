import AssetCore
import FormatGLTF

/// The checks on what accessors hold: each accessor decoded once into one contiguous buffer of
/// its raw component values (sparse substitutions applied), then scanned for NaN and infinity,
/// declared bounds, and what its use asks (indices within the vertex count, unit normals and
/// tangents, clamped colours, skin weights that sum to one over joints the skin has, increasing
/// key times, unit rotation keys, inverse bind matrices that are affine).
struct GLTFDataRules {
    let root: JSONValue
    let buffers: [ArraySlice<UInt8>?]
    let usage: GLTFUsage
    var findings: GLTFFindings
    let budget: ReadBudget
    let accessors: [JSONValue]
    let views: [JSONValue]
    /// EXT_meshopt_compression views, decoded (`decodeStreams`), by buffer view index.
    var meshopt: [Int: ArraySlice<UInt8>] = [:]
    /// The accessor being checked, decoded: one buffer reused for every accessor, grown to the
    /// largest, so a million-triangle file allocates (and faults in) its values once, not per accessor.
    private var scratch: [Double] = []

    typealias Values = ArraySlice<Double>

    /// How far a unit vector's length may stray: the Khronos validator's tolerance, about what
    /// 8-bit normalized storage loses.
    static let unitTolerance = 0.00465
    static let weightSumTolerance = 0.002

    init(root: JSONValue, buffers: [ArraySlice<UInt8>?], usage: GLTFUsage, findings: GLTFFindings, budget: ReadBudget) {
        self.root = root
        self.buffers = buffers
        self.usage = usage
        self.findings = findings
        self.budget = budget
        accessors = root["accessors"]?.elements ?? []
        views = root["bufferViews"]?.elements ?? []
    }

    mutating func run() {
        var decoded: [Int: [Double]] = [:]
        for index in accessors.indices where !usage.compressed.contains(index) && (!inMeshoptView(index) || meshoptStream(index) != nil) {
            guard let count = decode(index) else { continue }
            let values = scratch[0..<count]
            findings.note = meshoptStream(index) != nil ? "in the meshopt stream of bufferView \(accessors[index]["bufferView"]?.integer ?? 0)" : nil
            check(index, values)
            findings.note = nil
            // Kept only where a check across accessors needs them (skin joints and weights).
            if usage.skinSets.contains(where: { $0.joints.contains(index) || $0.weights.contains(index) }) { decoded[index] = Array(values) }
        }
        for set in usage.skinSets { skinning(set, decoded) }
    }

    // MARK: decoding

    /// The decoded meshopt stream of the accessor's view and its element stride, when it has one.
    func meshoptStream(_ index: Int) -> (bytes: ArraySlice<UInt8>, stride: Int)? {
        guard let view = accessors[index]["bufferView"]?.integer, let bytes = meshopt[view],
              let stride = views[view]["extensions"]?["EXT_meshopt_compression"]?["byteStride"]?.integer else { return nil }
        return (bytes, stride)
    }

    /// Whether the accessor's view is EXT_meshopt_compression's: its plain bytes are a fallback
    /// (often absent or zero), the real data is in the compressed stream.
    func inMeshoptView(_ index: Int) -> Bool {
        guard let view = accessors[index]["bufferView"]?.integer, views.indices.contains(view) else { return false }
        return views[view]["extensions"]?["EXT_meshopt_compression"] != nil
    }

    /// Decodes the accessor's raw component values, element after element (matrix columns
    /// unpadded), into the first `count x components` of `scratch`, and returns that count; nil
    /// when its layout was already found wrong or its bytes cannot be had.
    mutating func decode(_ index: Int) -> Int? {
        let accessor = accessors[index]
        guard let component = accessor["componentType"]?.integer, let size = GLTFDocumentRules.componentSize[component],
              let type = accessor["type"]?.string, let per = GLTFSchema.componentsPerType[type],
              let count = accessor["count"]?.integer, count >= 1 else { return nil }
        let total = count * per
        // Refused before allocating: the count is the file's word, the budget the user's.
        if total > scratch.count {
            do throws(AssetError) { try budget.spend(bytes: (total - scratch.count) * 8, for: "accessor \(index)", at: SourceLocation()) } catch { return nil }
            scratch = [Double](repeating: 0, count: total)
        }
        if let viewIndex = accessor["bufferView"]?.integer {
            let stream = meshoptStream(index)
            guard views.indices.contains(viewIndex), let bytes = stream?.bytes ?? GLTFBytes.view(views[viewIndex], buffers: buffers) else { return nil }
            let element = GLTFDocumentRules.elementSize(type: type, componentSize: size)
            let stride = views[viewIndex]["byteStride"]?.integer ?? stream?.stride ?? element
            let offset = accessor["byteOffset"]?.integer ?? 0
            let last = GLTFDocumentRules.elementSize(type: type, componentSize: size, paddingLastColumn: false)
            guard offset >= 0, offset + stride * (count - 1) + last <= bytes.count else { return nil }
            let rows = type.hasPrefix("MAT") ? Int(Double(per).squareRoot()) : per
            let columnStride = type.hasPrefix("MAT") ? (rows * size + 3) & ~3 : rows * size
            scratch.withUnsafeMutableBufferPointer { buffer in
                Self.read(bytes, component: component, count: count, per: per, rows: rows, offset: offset, stride: stride,
                          columnStride: columnStride, into: UnsafeMutableBufferPointer(rebasing: buffer[0..<total]))
            }
        } else if accessor["sparse"] != nil {
            scratch.withUnsafeMutableBufferPointer { UnsafeMutableBufferPointer(rebasing: $0[0..<total]).update(repeating: 0) }  // sparse over zeros
        } else {
            // No bufferView and no sparse: the data is the application's to supply, as the validator reads it.
            return nil
        }
        if let sparse = accessor["sparse"], !applySparse(sparse, accessor: index, count: count, per: per, component: component) { return nil }
        return total
    }

    /// The hot loop: one pass over the bytes, widening each component as its type says. The type
    /// is switched on once, outside the loops, and each element's component offsets are worked
    /// out once (matrix columns are padded to 4 bytes).
    static func read(_ bytes: ArraySlice<UInt8>, component: Int, count: Int, per: Int, rows: Int, offset: Int, stride: Int, columnStride: Int,
                     into out: UnsafeMutableBufferPointer<Double>) {
        let size = GLTFDocumentRules.componentSize[component] ?? 4
        let offsets = (0..<per).map { c in (c / rows) * columnStride + (c % rows) * size }
        bytes.withUnsafeBytes { raw in
            offsets.withUnsafeBufferPointer { within in
                func each(_ load: (Int) -> Double) {
                    var o = 0
                    for e in 0..<count {
                        let base = offset + e * stride
                        for c in 0..<per {
                            out[o] = load(base + within[c])
                            o += 1
                        }
                    }
                }
                switch component {
                case 5126: each { Double(Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0, as: UInt32.self)))) }
                case 5125: each { Double(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0, as: UInt32.self))) }
                case 5123: each { Double(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: $0, as: UInt16.self))) }
                case 5122: each { Double(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0, as: Int16.self))) }
                case 5121: each { Double(raw[$0]) }
                default: each { Double(Int8(bitPattern: raw[$0])) }
                }
            }
        }
    }

    private mutating func applySparse(_ sparse: JSONValue, accessor index: Int, count: Int, per: Int, component: Int) -> Bool {
        let here = "/accessors/\(index)/sparse"
        guard let replaced = sparse["count"]?.integer, replaced >= 1, replaced <= count,
              let indexView = sparse["indices"]?["bufferView"]?.integer, views.indices.contains(indexView),
              let indexType = sparse["indices"]?["componentType"]?.integer, let indexSize = GLTFDocumentRules.componentSize[indexType],
              let valueView = sparse["values"]?["bufferView"]?.integer, views.indices.contains(valueView),
              let indexBytes = GLTFBytes.view(views[indexView], buffers: buffers), let valueBytes = GLTFBytes.view(views[valueView], buffers: buffers) else { return false }
        let indexOffset = sparse["indices"]?["byteOffset"]?.integer ?? 0, valueOffset = sparse["values"]?["byteOffset"]?.integer ?? 0
        let valueSize = GLTFDocumentRules.componentSize[component] ?? 4
        guard indexOffset >= 0, indexOffset + replaced * indexSize <= indexBytes.count,
              valueOffset >= 0, valueOffset + replaced * per * valueSize <= valueBytes.count else { return false }
        var positions = [Double](repeating: 0, count: replaced)
        positions.withUnsafeMutableBufferPointer {
            Self.read(indexBytes, component: indexType, count: replaced, per: 1, rows: 1, offset: indexOffset, stride: indexSize, columnStride: indexSize, into: $0)
        }
        var replacements = [Double](repeating: 0, count: replaced * per)
        replacements.withUnsafeMutableBufferPointer {
            Self.read(valueBytes, component: component, count: replaced, per: per, rows: per, offset: valueOffset, stride: per * valueSize,
                      columnStride: per * valueSize, into: $0)
        }
        var previous = -1.0
        for (k, position) in positions.enumerated() {
            if position <= previous {
                findings.add("ACCESSOR_SPARSE_INDICES_NON_INCREASING", "sparse index \(k) is \(Int(position)), after \(Int(previous))", at: here + "/indices")
            }
            previous = position
            guard position < Double(count) else {
                findings.add("ACCESSOR_SPARSE_INDEX_OOB", "sparse index \(k) is \(Int(position)); the accessor has \(count) elements", at: here + "/indices")
                continue
            }
            for c in 0..<per { scratch[Int(position) * per + c] = replacements[k * per + c] }
        }
        return true
    }

    // MARK: checks

    private mutating func check(_ index: Int, _ values: Values) {
        let accessor = accessors[index]
        let here = "/accessors/\(index)"
        let per = GLTFSchema.componentsPerType[accessor["type"]?.string ?? ""] ?? 1
        let isFloat = accessor["componentType"]?.integer == 5126
        let count = values.count / per
        var low = [Double](repeating: .infinity, count: per), high = [Double](repeating: -.infinity, count: per)
        var firstBad = -1
        values.withUnsafeBufferPointer { v in
            low.withUnsafeMutableBufferPointer { low in
                high.withUnsafeMutableBufferPointer { high in
                    var k = 0
                    for _ in 0..<count {
                        for c in 0..<per {
                            let x = v[k]
                            // NaN compares false both ways, so it moves neither bound; infinity does.
                            low[c] = x < low[c] ? x : low[c]
                            high[c] = x > high[c] ? x : high[c]
                            if !x.isFinite && firstBad < 0 { firstBad = k }
                            k += 1
                        }
                    }
                }
            }
        }
        if isFloat && firstBad >= 0 {
            findings.add("ACCESSOR_INVALID_FLOAT", "element \(firstBad / per) is \(values[firstBad])", at: here)
        }
        bounds(accessor, low: low, high: high, values: values, per: per, at: here)
        switch usage.accessorUse[index] {
        case .index?: indices(index, values, at: here)
        case .animationInput?: keyTimes(values, at: here)
        case .animationOutput? where usage.rotationOutputs.contains(index) && isFloat && per == 4: unitVectors(values, per: 4, length: 4, code: "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", at: here)
        case .inverseBindMatrices? where per == 16: inverseBindMatrices(values, at: here)
        case .vertex?: vertexData(index, values, per: per, isFloat: isFloat, at: here)
        default: break
        }
    }

    private mutating func bounds(_ accessor: JSONValue, low: [Double], high: [Double], values: Values, per: Int, at here: String) {
        let isFloat = accessor["componentType"]?.integer == 5126
        // Declared bounds of a float accessor are compared at float precision, as stored.
        func same(_ a: Double, _ b: Double) -> Bool { isFloat ? Float(a) == Float(b) : a == b }
        for (key, actual, code, outCode) in [("min", low, "ACCESSOR_MIN_MISMATCH", "ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND"),
                                              ("max", high, "ACCESSOR_MAX_MISMATCH", "ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND")] {
            guard let declared = accessor[key]?.elements?.compactMap(\.number), declared.count == per else { continue }
            for c in 0..<per where actual[c].isFinite && !same(declared[c], actual[c]) {
                findings.add(code, "declared \(key) \(GLTFSchemaWalk.format(declared[c])) but the data's is \(GLTFSchemaWalk.format(actual[c]))", at: "\(here)/\(key)/\(c)")
                // As the Khronos validator does: also how many elements lie past the declared bound.
                let outside = stride(from: c, to: values.count, by: per).count {
                    key == "min" ? !same(values[$0], declared[c]) && values[$0] < declared[c] : !same(values[$0], declared[c]) && values[$0] > declared[c]
                }
                if outside > 0 {
                    findings.add(outCode, "\(outside) elements' component \(c) lie beyond the declared \(key) \(GLTFSchemaWalk.format(declared[c]))", at: "\(here)/\(key)/\(c)")
                }
            }
        }
    }

    private mutating func indices(_ index: Int, _ values: Values, at here: String) {
        let component = accessors[index]["componentType"]?.integer ?? 5125
        let restart = component == 5121 ? 255.0 : component == 5123 ? 65535.0 : 4294967295.0
        let vertices = Double(usage.vertexCount[index] ?? Int.max)
        var firstOOB: Int?, outOfBounds = 0, firstRestart: Int?
        for (k, v) in values.enumerated() {
            if v == restart {
                if firstRestart == nil { firstRestart = k }
            } else if v >= vertices {
                outOfBounds += 1
                if firstOOB == nil { firstOOB = k }
            }
        }
        if let k = firstRestart { findings.add("ACCESSOR_INDEX_PRIMITIVE_RESTART", "element \(k) is \(Int(restart)), the primitive restart value", at: here) }
        if let k = firstOOB {
            findings.add("ACCESSOR_INDEX_OOB", "\(outOfBounds) indices name vertices past the \(Int(vertices)) there are; the first is element \(k), \(Int(values[k]))", at: here)
        }
        if usage.indexMode[index] ?? 4 == 4 {
            var degenerate = 0
            for t in stride(from: 0, to: values.count - 2, by: 3) where values[t] == values[t + 1] || values[t + 1] == values[t + 2] || values[t] == values[t + 2] {
                degenerate += 1
            }
            if degenerate > 0 { findings.add("ACCESSOR_INDEX_TRIANGLE_DEGENERATE", "\(degenerate) of \(values.count / 3) triangles repeat a vertex", at: here) }
        }
    }

    private mutating func keyTimes(_ values: Values, at here: String) {
        if let k = values.firstIndex(where: { $0 < 0 }) { findings.add("ACCESSOR_ANIMATION_INPUT_NEGATIVE", "key \(k) is at \(values[k]) s", at: here) }
        for k in values.indices.dropFirst() where values[k] <= values[k - 1] {
            findings.add("ACCESSOR_ANIMATION_INPUT_NON_INCREASING", "key \(k) at \(values[k]) s does not follow key \(k - 1) at \(values[k - 1]) s", at: here)
            break
        }
    }

    mutating func unitVectors(_ values: Values, per: Int, length: Int, code: String, at here: String, note: String? = nil,
                              tolerance: Double = unitTolerance) {
        var bad = 0, first = -1, firstLength = 0.0
        for e in 0..<(values.count / per) {
            var sum = 0.0
            for c in 0..<length { sum += values[e * per + c] * values[e * per + c] }
            let norm = sum.squareRoot()
            if abs(norm - 1) > tolerance {
                if first < 0 { (first, firstLength) = (e, norm) }
                bad += 1
            }
        }
        if bad > 0 { findings.add(code, (note.map { $0 + ": " } ?? "") + "\(bad) elements are not of unit length; element \(first)'s is \(firstLength)", at: here) }
    }

    private mutating func inverseBindMatrices(_ values: Values, at here: String) {
        for m in 0..<(values.count / 16) where values[m * 16 + 3] != 0 || values[m * 16 + 7] != 0 || values[m * 16 + 11] != 0 || values[m * 16 + 15] != 1 {
            findings.add("ACCESSOR_INVALID_IBM", "matrix \(m)'s last row is (\(values[m * 16 + 3]), \(values[m * 16 + 7]), \(values[m * 16 + 11]), \(values[m * 16 + 15]))", at: here)
        }
    }

    mutating func vertexData(_ index: Int, _ values: Values, per: Int, isFloat: Bool, at here: String) {
        if let semantic = usage.semantic[index], semantic.hasPrefix(GLTFSplatNames.prefix) {
            return splatData(index, String(semantic.dropFirst(GLTFSplatNames.prefix.count)), values, per: per, at: here)
        }
        guard let semantic = usage.semantic[index], isFloat else { return }
        switch semantic {
        case "NORMAL" where per == 3: unitVectors(values, per: 3, length: 3, code: "ACCESSOR_VECTOR3_NON_UNIT", at: here)
        case "TANGENT" where per == 4:
            unitVectors(values, per: 4, length: 3, code: "ACCESSOR_VECTOR3_NON_UNIT", at: here)
            if let e = stride(from: 3, to: values.count, by: 4).first(where: { values[$0] != 1 && values[$0] != -1 }) {
                findings.add("ACCESSOR_INVALID_SIGN", "tangent \(e / 4)'s w is \(values[e]), not 1 or -1", at: here)
            }
        default:
            let weights = semantic.hasPrefix("WEIGHTS_")
            if weights, let k = values.firstIndex(where: { $0 < 0 }) {
                findings.add("ACCESSOR_WEIGHTS_NEGATIVE", "element \(k / per) component \(k % per) is \(values[k])", at: here)
            } else if weights || semantic.hasPrefix("COLOR_"), let k = values.firstIndex(where: { $0 < 0 || $0 > 1 }) {
                findings.add("ACCESSOR_NON_CLAMPED", "element \(k / per) component \(k % per) is \(values[k])", at: here)
            }
        }
    }

    /// KHR_gaussian_splatting's values by their meaning: unit rotations (x, y, z, w), opacities in
    /// 0..1 and scales (linear) not below 0. Normalised integers are read as the extension's table
    /// says (c / 127 or c / 32767, at least -1), and a rotation's length may then stray by what one
    /// step of that storage loses.
    mutating func splatData(_ index: Int, _ semantic: String, _ values: Values, per: Int, at here: String) {
        let accessor = accessors[index]
        let normalized = accessor["normalized"]?.bool == true
        let steps: Double = switch accessor["componentType"]?.integer {
        case 5120?: 127
        case 5121?: 255
        case 5122?: 32767
        case 5123?: 65535
        default: 1
        }
        let scale = normalized && steps > 1 ? 1 / steps : 1
        switch semantic {
        case "ROTATION" where per == 4:
            let unit = normalized ? values.lazy.map { Swift.max($0 * scale, -1) } : values.lazy.map { $0 }
            unitVectors(Values(unit), per: 4, length: 4, code: "ASSETC_SPLAT_VALUE", at: here, note: "ROTATION",
                        tolerance: Self.unitTolerance + (normalized ? 1 / steps : 0))
        case "OPACITY" where !normalized:
            if let k = values.firstIndex(where: { $0 < 0 || $0 > 1 }) {
                findings.add("ASSETC_SPLAT_VALUE", "OPACITY: splat \(k) is \(values[k]), outside 0..1", at: here)
            }
        case "SCALE":
            if let k = values.firstIndex(where: { $0 < 0 }) {
                findings.add("ASSETC_SPLAT_VALUE", "SCALE: splat \(k / per) component \(k % per) is \(values[k] * scale), below 0", at: here)
            }
        default: break
        }
    }

    /// Per vertex over all of a primitive's JOINTS_n and WEIGHTS_n: weights summing to one, joint
    /// indices within the skin, and no joint named twice with weight.
    mutating func skinning(_ set: GLTFUsage.SkinSets, _ decoded: [Int: [Double]], valuesAreScaled: Bool = false) {
        let joints = set.joints.compactMap { decoded[$0] }, weights = set.weights.compactMap { decoded[$0] }
        guard joints.count == set.joints.count, weights.count == set.weights.count, !weights.isEmpty else { return }
        let scales = set.weights.map { index -> Double in
            let a = accessors[index]
            guard a["normalized"]?.bool == true, !valuesAreScaled else { return 1 }
            return a["componentType"]?.integer == 5121 ? 1 / 255 : 1 / 65535
        }
        let vertices = weights.map { $0.count / 4 }.min() ?? 0
        let weightsAt = "/accessors/\(set.weights[0])"
        var unnormalized = 0, firstUnnormalized = (0, 0.0)
        for v in 0..<vertices {
            var sum = 0.0, negative = false
            var seen: [Double] = []
            for s in 0..<weights.count {
                for c in 0..<4 {
                    let w = weights[s][v * 4 + c] * scales[s]
                    sum += w
                    if w < 0 { negative = true }
                    guard joints.indices.contains(s), v * 4 + c < joints[s].count else { continue }
                    let j = joints[s][v * 4 + c]
                    if let limit = set.jointCount, j >= Double(limit) {
                        findings.add("ACCESSOR_JOINTS_INDEX_OOB", "vertex \(v) names joint \(Int(j)); skin \(set.skin ?? 0) has \(limit)", at: "/accessors/\(set.joints[s])")
                    }
                    if w != 0 {
                        if seen.contains(j) { findings.add("ACCESSOR_JOINTS_INDEX_DUPLICATE", "vertex \(v) names joint \(Int(j)) twice", at: "/accessors/\(set.joints[s])") }
                        seen.append(j)
                    } else if j != 0 {
                        findings.add("ACCESSOR_JOINTS_USED_ZERO_WEIGHT", "vertex \(v) names joint \(Int(j)) with weight 0", at: "/accessors/\(set.joints[s])")
                    }
                }
            }
            // A negative weight (ACCESSOR_WEIGHTS_NEGATIVE) leaves no normalized set, whatever the
            // sum: the validator grades such a vertex so too.
            if abs(sum - 1) > Self.weightSumTolerance || negative {
                if unnormalized == 0 { firstUnnormalized = (v, sum) }
                unnormalized += 1
            }
        }
        if unnormalized > 0 {
            findings.add("ACCESSOR_WEIGHTS_NON_NORMALIZED", "\(unnormalized) vertices' weights do not sum to 1; vertex \(firstUnnormalized.0)'s sum to \(firstUnnormalized.1)", at: weightsAt)
        }
    }
}
