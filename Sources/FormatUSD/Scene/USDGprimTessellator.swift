import AssetCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tessellates UsdGeom's intrinsic shapes (Cube, Sphere, Cylinder, Cone, Capsule, Plane) with their
/// schema fallbacks. Segment counts are multiples of four so the tessellation reaches the exact
/// extent on every axis and bounds equal the shape's own extent.
enum USDGprimTessellator {
    static let types: Set<String> = ["Cube", "Sphere", "Cylinder", "Cone", "Capsule", "Plane"]
    static let slices = 32
    static let stacks = 16

    static func tessellate(_ prim: USDComposedPrim, values: USDAttributeValues) -> Mesh? {
        let axis = values.string(prim.attribute("axis")) ?? "Z"
        var mesh: Mesh
        switch prim.typeName {
        case "Cube":
            mesh = cube(size: values.double(prim.attribute("size")) ?? 2)
        case "Sphere":
            mesh = sphere(radius: values.double(prim.attribute("radius")) ?? 1)
        case "Cylinder":
            let r = values.double(prim.attribute("radius")) ?? 1, h = values.double(prim.attribute("height")) ?? 2
            mesh = revolve(profile: [(0, -h / 2), (r, -h / 2), (r, h / 2), (0, h / 2)])
        case "Cone":
            let r = values.double(prim.attribute("radius")) ?? 1, h = values.double(prim.attribute("height")) ?? 2
            mesh = revolve(profile: [(0, -h / 2), (r, -h / 2), (0, h / 2)])
        case "Capsule":
            let r = values.double(prim.attribute("radius")) ?? 0.5, h = values.double(prim.attribute("height")) ?? 1
            var profile: [(Double, Double)] = []
            let quarter = stacks / 2
            for i in 0...quarter {  // bottom hemisphere, pole to equator
                let a = -Double.pi / 2 + Double(i) * (Double.pi / 2) / Double(quarter)
                profile.append((r * cos(a), -h / 2 + r * sin(a)))
            }
            for i in 0...quarter {  // top hemisphere, equator to pole
                let a = Double(i) * (Double.pi / 2) / Double(quarter)
                profile.append((r * cos(a), h / 2 + r * sin(a)))
            }
            profile[0].0 = 0; profile[profile.count - 1].0 = 0
            mesh = revolve(profile: profile)
        case "Plane":
            let w = (values.double(prim.attribute("width")) ?? 2) / 2, l = (values.double(prim.attribute("length")) ?? 2) / 2
            mesh = Mesh(name: "", points: [[Float(-w), Float(-l), 0], [Float(w), Float(-l), 0], [Float(w), Float(l), 0], [Float(-w), Float(l), 0]],
                        faceVertexCounts: [4], faceVertexIndices: [0, 1, 2, 3])
            mesh.isDoubleSided = true
        default:
            return nil
        }
        // Shapes are built around Z; a cyclic permutation of coordinates moves that axis to X or Y.
        if prim.typeName != "Cube" && prim.typeName != "Sphere" {
            switch axis {
            case "X": mesh.points = mesh.points.map { SIMD3($0.z, $0.x, $0.y) }
            case "Y": mesh.points = mesh.points.map { SIMD3($0.y, $0.z, $0.x) }
            default: break
            }
        }
        mesh.name = prim.name
        mesh.origin = .primitive(prim.typeName)
        if values.bool(prim.attribute("doubleSided")) == true { mesh.isDoubleSided = true }
        return mesh
    }

    static func cube(size: Double) -> Mesh {
        let s = Float(size / 2)
        var points: [SIMD3<Float>] = []
        for i in 0..<8 { points.append(SIMD3(i & 1 == 0 ? -s : s, i & 2 == 0 ? -s : s, i & 4 == 0 ? -s : s)) }
        // Counter-clockwise seen from outside.
        let faces: [Int32] = [0, 2, 3, 1, 4, 5, 7, 6, 0, 1, 5, 4, 2, 6, 7, 3, 0, 4, 6, 2, 1, 3, 7, 5]
        return Mesh(name: "", points: points, faceVertexCounts: Array(repeating: 4, count: 6), faceVertexIndices: faces)
    }

    static func sphere(radius r: Double) -> Mesh {
        var profile: [(Double, Double)] = []
        for i in 0...stacks {
            let a = -Double.pi / 2 + Double(i) * Double.pi / Double(stacks)
            profile.append((r * cos(a), r * sin(a)))
        }
        profile[0].0 = 0; profile[stacks].0 = 0
        return revolve(profile: profile)
    }

    /// Sweeps a profile of (radius, z) pairs around Z. Profile ends on the axis (radius 0) become
    /// single points with triangle fans; a flat end (radius > 0 beside a point on the axis at the
    /// same z) becomes a cap.
    static func revolve(profile: [(Double, Double)]) -> Mesh {
        var points: [SIMD3<Float>] = []
        var counts: [Int32] = []
        var indices: [Int32] = []
        var rings: [[Int32]] = []
        for (radius, z) in profile {
            if radius == 0 {
                rings.append([Int32(points.count)])
                points.append(SIMD3(0, 0, Float(z)))
            } else {
                var ring: [Int32] = []
                for s in 0..<slices {
                    let a = Double(s) * 2 * .pi / Double(slices)
                    // Exact values at quarter turns keep the extent exact.
                    let (c, sn): (Double, Double) = s % (slices / 4) == 0
                        ? [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][s / (slices / 4)] : (cos(a), sin(a))
                    ring.append(Int32(points.count))
                    points.append(SIMD3(Float(radius * c), Float(radius * sn), Float(z)))
                }
                rings.append(ring)
            }
        }
        for k in 0..<(rings.count - 1) {
            let lower = rings[k], upper = rings[k + 1]
            for s in 0..<slices {
                let t = (s + 1) % slices
                if lower.count == 1 && upper.count == 1 { break }
                if lower.count == 1 {
                    counts.append(3); indices += [lower[0], upper[t], upper[s]]  // bottom fan faces -Z
                } else if upper.count == 1 {
                    counts.append(3); indices += [lower[s], lower[t], upper[0]]
                } else {
                    counts.append(4); indices += [lower[s], lower[t], upper[t], upper[s]]
                }
            }
        }
        return Mesh(name: "", points: points, faceVertexCounts: counts, faceVertexIndices: indices)
    }
}
