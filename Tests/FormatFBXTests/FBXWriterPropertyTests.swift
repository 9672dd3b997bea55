import AssetCore
import AssetTestSupport
import Foundation
import Testing
@testable import FormatFBX

/// Random scenes (polygon meshes under a hierarchy, skins, blend shapes, clips of translation,
/// rotation and weights with every interpolation) written as FBX and read back with assetc's
/// reader: the same polygons, the same world-space points at rest and posed at times inside every
/// clip, the same shape names and clip spans. Seeded, so a failing scene can be run again.
@Suite struct FBXWriterPropertyTests {
    @Test(arguments: 0..<24)
    func aRandomSceneReadsBackTheSame(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &* 7919 &+ 61)
        let scene = Self.randomScene(&rng)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fbx-property-\(seed)-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only: the assertions are on the read
        let written = try FBXWriter().write(scene, context: WriteContext(outputName: "scene.fbx", textureBytes: { _ in nil }))
        let url = folder.appendingPathComponent("scene.fbx")
        try Data(written.files[0].bytes).write(to: url)
        let back = try FBXReader().read(from: url, options: ReadOptions()).scene

        #expect(back.meshes.count == scene.meshes.count)
        for mesh in scene.meshes {
            let read = try #require(back.meshes.first { $0.name == mesh.name }, "mesh \(mesh.name) read back")
            #expect(read.faceVertexCounts == mesh.faceVertexCounts)
            #expect(read.faceVertexIndices == mesh.faceVertexIndices)
            #expect(read.blendShapes.map(\.name) == mesh.blendShapes.map(\.name))
        }
        #expect(back.animations.map(\.name) == scene.animations.map(\.name))
        for (a, b) in zip(scene.animations, back.animations) {
            let (ra, rb) = (try #require(a.timeRange), try #require(b.timeRange))
            #expect(abs(ra.lowerBound - rb.lowerBound) < 1e-6 && abs(ra.upperBound - rb.upperBound) < 1e-6, "clip \(a.name) spans")
        }
        try Self.expectSamePoints(scene, back, seed: seed, what: "at rest")
        for clip in scene.animations.indices {
            let range = try #require(scene.animations[clip].timeRange)
            for f in [0.0, 0.37, 0.5, 1.0] {
                let t = range.lowerBound + f * (range.upperBound - range.lowerBound)
                try Self.expectSamePoints(scene.posed(at: t, clip: clip), back.posed(at: t, clip: clip), seed: seed, what: "clip \(clip) at \(t)")
            }
        }
    }

    /// Every mesh's points placed in the world, by mesh name, compared within a tolerance of the
    /// scene's size (rotations are resampled as Euler angles at 30 per second, so poses between
    /// keys may differ by a little).
    static func expectSamePoints(_ a: Scene, _ b: Scene, seed: Int, what: String) throws {
        func world(_ scene: Scene) -> [String: [SIMD3<Double>]] {
            let posed = scene.posed(at: 0, clip: Int.max)
            var out: [String: [SIMD3<Double>]] = [:]
            for placed in posed.placedMeshes() {
                let mesh = posed.meshes[placed.instance.mesh]
                out[mesh.name, default: []] += mesh.points.map { placed.worldTransform.transformPoint(SIMD3(Double($0.x), Double($0.y), Double($0.z))) }
            }
            return out
        }
        let (wa, wb) = (world(a), world(b))
        #expect(Set(wa.keys) == Set(wb.keys), "seed \(seed) \(what): meshes placed")
        for (name, points) in wa {
            let other = try #require(wb[name])
            #expect(points.count == other.count)
            let worst = zip(points, other).map { Vector.length($0 - $1) }.max() ?? 0
            #expect(worst < 2e-2, "seed \(seed) \(what): mesh \(name) off by \(worst)")
        }
    }

    static func randomScene(_ rng: inout SeededGenerator) -> Scene {
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &rng) }
        func trs() -> Matrix4x4 {
            let axis = SIMD3(r(-1...1), r(-1...1), r(-1...1) + 0.01)
            return .translation(SIMD3(r(-2...2), r(-2...2), r(-2...2))) * .rotation(axis: axis, degrees: r(-170...170))
                * .scale(SIMD3(r(0.5...2), r(0.5...2), r(0.5...2)))
        }
        var scene = Scene()
        scene.metadata.timeCodesPerSecond = 30
        let meshCount = Int.random(in: 1...3, using: &rng)
        for m in 0..<meshCount {
            var mesh = Mesh(name: "mesh\(m)")
            let pointCount = Int.random(in: 6...20, using: &rng)
            mesh.points = (0..<pointCount).map { _ in SIMD3(Float(r(-1...1)), Float(r(-1...1)), Float(r(-1...1))) }
            for _ in 0..<Int.random(in: 2...8, using: &rng) {
                let n = Int.random(in: 3...5, using: &rng)
                let corners = (0..<pointCount).shuffled(using: &rng).prefix(n)
                mesh.faceVertexCounts.append(Int32(n))
                mesh.faceVertexIndices += corners.map { Int32($0) }
            }
            if Bool.random(using: &rng) {
                let shapes = Int.random(in: 1...2, using: &rng)
                mesh.blendShapes = (0..<shapes).map { s in
                    BlendShape(name: "shape\(m)_\(s)", offsets: (0..<pointCount).map { k in k % 2 == 0 ? SIMD3(Float(r(-0.3...0.3)), 0.2, 0) : .zero })
                }
            }
            scene.meshes.append(mesh)
            var node = Node(name: "node\(m)", transform: trs())
            var instance = MeshInstance(mesh: m)
            instance.blendShapeWeights = mesh.blendShapes.map { _ in Float(r(0...1)) }
            node.meshInstances = [instance]
            scene.root.children.append(node)
        }
        // A chain of joints skinning the first mesh, with binds away from the rest pose.
        if Bool.random(using: &rng) {
            var joints: [Node] = []
            for j in 0..<Int.random(in: 2...4, using: &rng) { joints.append(Node(name: "joint\(j)", transform: trs())) }
            var chain = joints.removeLast()
            while let parent = joints.popLast() { var p = parent; p.children = [chain]; chain = p }
            var rig = Node(name: "rig", transform: trs())
            rig.children = [chain]
            scene.root.children.append(rig)
            var paths: [String] = [], path = "/rig", cursor: Node? = chain
            while let node = cursor { path += "/" + node.name; paths.append(path); cursor = node.children.first }
            scene.skeletons = [Skeleton(name: "skin", jointPaths: paths, jointNames: paths.map { String($0.split(separator: "/").last!) },
                                        inverseBindMatrices: paths.map { _ in trs().inverse! })]
            let points = scene.meshes[0].points.count
            var jointsOf: [Int32] = [], weights: [Float] = []
            for _ in 0..<points {
                let a = Int32.random(in: 0..<Int32(paths.count), using: &rng), w = Float(r(0.2...0.8))
                jointsOf += [a, (a + 1) % Int32(paths.count)]
                weights += [w, 1 - w]
            }
            scene.meshes[0].skinWeights = SkinWeights(influencesPerPoint: 2, joints: jointsOf, weights: weights)
            scene.root.children[0].meshInstances[0].skin = SkinBinding(skeleton: 0, geomBindTransform: trs())
        }
        for c in 0..<Int.random(in: 0...2, using: &rng) {
            var clip = AnimationClip(name: "clip\(c)")
            let start = r(0...0.5), keys = Int.random(in: 2...5, using: &rng)
            var times = [start]
            for _ in 1..<keys { times.append(times[times.count - 1] + r(0.2...0.6)) }
            let target = "/node\(Int.random(in: 0..<meshCount, using: &rng))"
            let style: [AnimationChannel.Interpolation] = [.step, .linear, .cubic]
            let interpolation = style[Int.random(in: 0..<3, using: &rng)]
            var translation: [Float] = []
            for _ in times {
                let value = [Float(r(-2...2)), Float(r(-2...2)), Float(r(-2...2))]
                translation += interpolation == .cubic ? [Float(r(-1...1)), 0, 0] + value + [0, Float(r(-1...1)), 0] : value
            }
            clip.channels.append(AnimationChannel(nodePath: target, property: .translation, interpolation: interpolation, times: times, values: translation))
            var rotation: [Float] = []
            var angle = r(-40...40)
            for _ in times {
                angle += r(-50...50)
                let half = angle * .pi / 360
                rotation += [0, Float(sin(half)), 0, Float(cos(half))]
            }
            clip.channels.append(AnimationChannel(nodePath: target, property: .rotation, times: times, values: rotation))
            let meshIndex = Int(target.dropFirst("/node".count))!
            let shapes = scene.meshes[meshIndex].blendShapes.count
            if shapes > 0 {
                clip.channels.append(AnimationChannel(nodePath: target, property: .blendShapeWeights(count: shapes), times: times,
                                                      values: times.flatMap { _ in (0..<shapes).map { _ in Float(r(0...1)) } }))
            }
            scene.animations.append(clip)
        }
        return scene
    }
}
