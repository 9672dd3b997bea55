import AssetCore

/// Binary STL: an 80-byte header, a triangle count, then per triangle its facet normal and three
/// corners as Float32. World space (the converter flattens first), scene units (STL has none).
public struct STLWriter: SceneWriter {
    public let format = AssetFormat.stl
    public let requirements = WriterRequirements(triangles: true, flattened: true)

    public init() {}

    public func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult {
        let triangles = scene.meshes.reduce(0) { $0 + $1.faceVertexCounts.count }
        guard triangles <= Int(UInt32.max) else { throw AssetError(.limitExceeded("\(triangles) triangles do not fit an STL count")) }
        var out = ByteWriter(capacity: 84 + 50 * triangles)
        var header = Array("binary STL written by assetc".utf8)
        header += [UInt8](repeating: 0x20, count: 80 - header.count)
        out.append(header)
        out.u32(UInt32(triangles))
        for mesh in scene.meshes {
            mesh.points.withUnsafeBufferPointer { points in
                mesh.faceVertexIndices.withUnsafeBufferPointer { fvi in
                    for t in stride(from: 0, to: fvi.count, by: 3) {
                        let a = points[Int(fvi[t])], b = points[Int(fvi[t + 1])], c = points[Int(fvi[t + 2])]
                        let n = Vector.normalize(Vector.cross(b.double - a.double, c.double - a.double))
                        for v in [SIMD3(Float(n.x), Float(n.y), Float(n.z)), a, b, c] { out.f32(v.x); out.f32(v.y); out.f32(v.z) }
                        out.u16(0)
                    }
                }
            }
        }
        let warnings = scene.droppedContentWarnings(format: "STL", keepsMaterials: false, keepsTexcoordSets: 0,
                                                    keepsNormals: false, keepsColors: false, keepsPointClouds: false)
        return WriteResult(files: [OutputFile(relativePath: context.outputName, bytes: out.bytes)], diagnostics: warnings)
    }
}
