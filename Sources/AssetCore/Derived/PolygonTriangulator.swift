/// Splits one polygon of four or more vertices into triangles: a fan when the polygon is convex,
/// ear clipping otherwise. Keeps its scratch buffers between faces so a mesh of many n-gons does not
/// allocate per face.
///
/// Ear clipping works in 2D: the polygon is projected onto the coordinate plane most facing its
/// Newell normal, with axes ordered so the polygon winds counter-clockwise there. A polygon of `n`
/// vertices gives at most `n - 2` triangles, which is what `CornerWriter`'s room is counted by.
struct PolygonTriangulator {
    private var u: [Double] = []
    private var v: [Double] = []
    private var remaining: [Int] = []

    mutating func triangulate(
        face corners: Range<Int>, indices: UnsafeBufferPointer<Int32>,
        points: UnsafeBufferPointer<SIMD3<Float>>, into out: inout CornerWriter
    ) {
        let n = corners.count
        @inline(__always) func point(_ k: Int) -> SIMD3<Double> {
            points[Int(indices[corners.lowerBound + k])].double
        }
        // Newell's method: robust for non-planar and concave polygons.
        var normal = SIMD3<Double>.zero
        for k in 0..<n {
            let p = point(k), q = point((k + 1) % n)
            normal += SIMD3((p.y - q.y) * (p.z + q.z), (p.z - q.z) * (p.x + q.x), (p.x - q.x) * (p.y + q.y))
        }
        let normalLength = Vector.length(normal)
        guard normalLength > 0, normalLength.isFinite else { return }

        if isConvex(n: n, normal: normal, point: point) {
            let first = UInt32(corners.lowerBound)
            for k in 1..<(n - 1) {
                // Separate appends: an array literal would allocate per triangle.
                out.append(first)
                out.append(UInt32(corners.lowerBound + k))
                out.append(UInt32(corners.lowerBound + k + 1))
            }
            return
        }
        project(n: n, normal: normal, point: point)
        clipEars(n: n, base: corners.lowerBound, into: &out)
    }

    private func isConvex(n: Int, normal: SIMD3<Double>, point: (Int) -> SIMD3<Double>) -> Bool {
        for k in 0..<n {
            let a = point(k), b = point((k + 1) % n), c = point((k + 2) % n)
            let turn = Vector.dot(Vector.cross(b - a, c - b), normal)
            // A tiny negative turn is float noise on a collinear vertex, not a reflex corner.
            if turn < -1e-12 * Vector.dot(normal, normal) { return false }
        }
        return true
    }

    private mutating func project(n: Int, normal: SIMD3<Double>, point: (Int) -> SIMD3<Double>) {
        let a = SIMD3(abs(normal.x), abs(normal.y), abs(normal.z))
        // Drop the dominant axis; order the other two so the polygon winds counter-clockwise.
        let (iu, iv, flip): (Int, Int, Bool)
        if a.x >= a.y && a.x >= a.z {
            (iu, iv, flip) = (1, 2, normal.x < 0)
        } else if a.y >= a.z {
            (iu, iv, flip) = (2, 0, normal.y < 0)
        } else {
            (iu, iv, flip) = (0, 1, normal.z < 0)
        }
        u.removeAll(keepingCapacity: true)
        v.removeAll(keepingCapacity: true)
        for k in 0..<n {
            let p = point(k)
            u.append(flip ? p[iv] : p[iu])
            v.append(flip ? p[iu] : p[iv])
        }
    }

    private mutating func clipEars(n: Int, base: Int, into out: inout CornerWriter) {
        remaining.removeAll(keepingCapacity: true)
        remaining.append(contentsOf: 0..<n)
        var misses = 0
        var i = 0
        while remaining.count > 3 {
            let m = remaining.count
            let prev = remaining[(i + m - 1) % m], cur = remaining[i % m], next = remaining[(i + 1) % m]
            if isEar(prev, cur, next) {
                out.append(UInt32(base + prev))
                out.append(UInt32(base + cur))
                out.append(UInt32(base + next))
                remaining.remove(at: i % m)
                misses = 0
                i = i % remaining.count
            } else {
                misses += 1
                i = (i + 1) % m
                // A whole lap without an ear: the polygon self-intersects. Fan what is left rather
                // than loop forever or lose the face.
                if misses > m {
                    for k in 1..<(remaining.count - 1) {
                        out.append(UInt32(base + remaining[0]))
                        out.append(UInt32(base + remaining[k]))
                        out.append(UInt32(base + remaining[k + 1]))
                    }
                    return
                }
            }
        }
        for k in remaining { out.append(UInt32(base + k)) }
    }

    private func cross2(_ a: Int, _ b: Int, _ c: Int) -> Double {
        (u[b] - u[a]) * (v[c] - v[a]) - (v[b] - v[a]) * (u[c] - u[a])
    }

    private func isEar(_ a: Int, _ b: Int, _ c: Int) -> Bool {
        guard cross2(a, b, c) > 0 else { return false }
        for k in remaining where k != a && k != b && k != c {
            // Points on the ear's edges count as inside, so a vertex touching the diagonal blocks it.
            if cross2(a, b, k) >= 0 && cross2(b, c, k) >= 0 && cross2(c, a, k) >= 0 { return false }
        }
        return true
    }
}

/// Where triangle corners are written: room counted beforehand (at most `n - 2` triangles a face),
/// so the two halves of a large mesh write straight into the one array they share.
struct CornerWriter {
    let base: UnsafeMutablePointer<UInt32>
    private(set) var count = 0

    init(base: UnsafeMutablePointer<UInt32>) { self.base = base }

    @inline(__always) mutating func append(_ corner: UInt32) {
        (base + count).initialize(to: corner)
        count += 1
    }
}
