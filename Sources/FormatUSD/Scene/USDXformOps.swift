import AssetCore

/// Evaluates UsdGeomXformable's `xformOpOrder` into a local matrix. Every op kind is supported:
/// translate, scale, rotateX/Y/Z, the six three-axis rotation orders, orient, transform, ops
/// prefixed `!invert!`, and `!resetXformStack!`.
///
/// With column vectors the local matrix is the ops multiplied in `xformOpOrder` order: for
/// [translate, rotateXYZ, scale] a point is scaled first, then rotated, then moved.
enum USDXformOps {
    struct Result {
        var transform: Matrix4x4
        var resetsTransformStack: Bool
    }

    static let resetToken = "!resetXformStack!"
    static let invertPrefix = "!invert!"

    static func evaluate(_ prim: USDComposedPrim, values: USDAttributeValues,
                         diagnostics: inout [Diagnostic]) -> Result {
        guard let order = values.value(prim.attribute("xformOpOrder"))?.strings, !order.isEmpty else {
            return Result(transform: .identity, resetsTransformStack: false)
        }
        var matrix = Matrix4x4.identity
        var resets = false
        for (position, entry) in order.enumerated() {
            if entry == resetToken {
                // Ops before the reset are ignored; the reset cuts the parent's transform.
                resets = true
                matrix = .identity
                continue
            }
            let inverted = entry.hasPrefix(invertPrefix)
            let name = inverted ? String(entry.dropFirst(invertPrefix.count)) : entry
            guard var op = opMatrix(name: name, prim: prim, values: values, diagnostics: &diagnostics) else { continue }
            if inverted {
                guard let inverse = op.inverse else {
                    diagnostics.append(.warning("xformOpOrder[\(position)] '\(entry)' cannot be inverted (singular); ignored", at: prim.location))
                    continue
                }
                op = inverse
            }
            matrix = matrix * op
        }
        return Result(transform: matrix, resetsTransformStack: resets)
    }

    private static func opMatrix(name: String, prim: USDComposedPrim, values: USDAttributeValues,
                                 diagnostics: inout [Diagnostic]) -> Matrix4x4? {
        let parts = name.split(separator: ":")
        guard parts.count >= 2, parts[0] == "xformOp" else {
            diagnostics.append(.warning("'\(name)' in xformOpOrder is not an xformOp", at: prim.location))
            return nil
        }
        guard let attribute = prim.attribute(name), let numbers = values.numbers(attribute) else {
            // Animated ops have no value at the default time; usd-core reads them as no op, quietly.
            if prim.attribute(name)?.spec.timeSamples?.isEmpty == false && values.time == nil { return nil }
            diagnostics.append(.warning("xformOpOrder names '\(name)', which has no value; ignored", at: prim.location))
            return nil
        }
        let kind = String(parts[1])
        func need(_ count: Int) -> Bool {
            if numbers.count == count { return true }
            diagnostics.append(.warning("'\(name)' has \(numbers.count) numbers; \(kind) takes \(count); ignored", at: prim.location))
            return false
        }
        let x = SIMD3<Double>(1, 0, 0), y = SIMD3<Double>(0, 1, 0), z = SIMD3<Double>(0, 0, 1)
        func r(_ axis: SIMD3<Double>, _ degrees: Double) -> Matrix4x4 { .rotation(axis: axis, degrees: degrees) }
        switch kind {
        case "translate": return need(3) ? .translation(SIMD3(numbers[0], numbers[1], numbers[2])) : nil
        case "scale": return need(3) ? .scale(SIMD3(numbers[0], numbers[1], numbers[2])) : nil
        case "rotateX": return need(1) ? r(x, numbers[0]) : nil
        case "rotateY": return need(1) ? r(y, numbers[0]) : nil
        case "rotateZ": return need(1) ? r(z, numbers[0]) : nil
        // rotateABC turns about A first, then B, then C: with column vectors, C * B * A.
        case "rotateXYZ": return need(3) ? r(z, numbers[2]) * r(y, numbers[1]) * r(x, numbers[0]) : nil
        case "rotateXZY": return need(3) ? r(y, numbers[1]) * r(z, numbers[2]) * r(x, numbers[0]) : nil
        case "rotateYXZ": return need(3) ? r(z, numbers[2]) * r(x, numbers[0]) * r(y, numbers[1]) : nil
        case "rotateYZX": return need(3) ? r(x, numbers[0]) * r(z, numbers[2]) * r(y, numbers[1]) : nil
        case "rotateZXY": return need(3) ? r(y, numbers[1]) * r(x, numbers[0]) * r(z, numbers[2]) : nil
        case "rotateZYX": return need(3) ? r(x, numbers[0]) * r(y, numbers[1]) * r(z, numbers[2]) : nil
        case "orient":
            return need(4) ? .rotation(Quaternion(real: numbers[0], imaginary: SIMD3(numbers[1], numbers[2], numbers[3]))) : nil
        case "transform":
            // A matrix4d's 16 numbers in file order are Matrix4x4's column-major storage.
            return need(16) ? Matrix4x4(columnMajor: numbers) : nil
        default:
            diagnostics.append(.warning("unknown xformOp kind '\(kind)' in '\(name)'; ignored", at: prim.location))
            return nil
        }
    }
}
