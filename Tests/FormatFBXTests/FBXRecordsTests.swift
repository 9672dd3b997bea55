import AssetCore
import AssetTestSupport
import Foundation
import Testing
@testable import FormatFBX

/// records_7500.fbx (Tests/Fixtures/fbx/make_binary_fixtures.py): a binary FBX 7.5 file with 64-bit
/// record fields, every property type, deflated arrays, an animated pivot with pre-rotation and
/// rotation order ZXY, a camera, a light and an embedded texture.
@Suite struct FBXRecordsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fbx")
    static let records = fixtures.appendingPathComponent("records_7500.fbx")

    static func document() throws -> FBXDocument {
        let bytes = Array(try Data(contentsOf: records))
        return try FBXBinaryParser.parse(bytes, file: "records_7500.fbx", budget: ReadBudget(ReadLimits()))
    }

    @Test func everyPropertyTypeReadsAsWritten() throws {
        let document = try Self.document()
        #expect(document.version == 7500 && document.isBinary)
        let values = try #require(document.root.child("Objects")?.child("Values")?.values)
        #expect(values.count == 13)
        #expect(values[0].int == -7 && values[1].int == 1 && values[2].int == -123456 && values[3].int == 1 << 40)
        #expect(values[4].double == 1.5 && values[5].double == -2.25 && values[6].string == "text")
        guard case .bytes(let raw) = values[7] else { Issue.record("R is not bytes: \(values[7])"); return }
        #expect(raw == [0, 1, 2])
        guard case .floats(let f) = values[8], case .doubles(let d) = values[9], case .int32s(let i) = values[10],
              case .int64s(let l) = values[11], case .bools(let b) = values[12] else { Issue.record("arrays: \(values[8...])"); return }
        #expect(f == [1.5, 2.5] && d == [0.125, 4] && i == [-1, 2, 3] && l == [1 << 33, -5] && b == [1, 0, 1])
    }

    @Test func binaryNamesReadAsASCIINamesDo() throws {
        let objects = FBXObjects(try Self.document())
        #expect(objects.objects["200"]?.name == "Spinner" && objects.objects["200"]?.kind == "Model")
        #expect(objects.objects["100"]?.subclass == "Mesh")
    }

    static func scene() throws -> Scene {
        try FBXReader().read(from: records, options: ReadOptions()).scene
    }

    /// The animation runs through the whole transform stack: at each key the sampled transform is
    /// the stack's with that key's rotation, pre-rotation, pivot and ZXY order included.
    @Test func rotationCurvesGoThroughTheTransformStack() throws {
        let scene = try Self.scene()
        let objects = FBXObjects(try Self.document())
        let stack = FBXTransform(try #require(objects.objects["200"]))
        let clip = try #require(scene.animations.first)
        #expect(clip.name == "Spin" && clip.timeRange == 0...2)
        // Linear X 10 -> 40, constant Y 20 then 50 at t=1, cubic Z 30 -> 60 with flat tangents
    // (at a quarter: 30 + 30 · (3 · 0.25² - 2 · 0.25³) = 34.6875).
        for (t, rotation) in [(0.0, SIMD3<Double>(10, 20, 30)), (0.5, SIMD3(25, 20, 45)), (1.0, SIMD3(40, 50, 60)), (0.25, SIMD3(17.5, 20, 34.6875))] {
            let expected = stack.matrix(rotation: rotation)
            let posed = Self.local(clip, "/Spinner", at: t)
            #expect(posed.isApproximatelyEqual(to: expected, tolerance: 1e-4), "at \(t): \(posed) is not \(expected)")
        }
        #expect(scene.root.children[0].transform.isApproximatelyEqual(to: stack.matrix(), tolerance: 1e-9))
    }

    static func local(_ clip: AnimationClip, _ path: String, at t: Double) -> Matrix4x4 {
        func sample(_ property: AnimationChannel.Property) -> [Double] {
            let channel = clip.channels.first { $0.nodePath == path && $0.property == property }!
            let k = channel.times.firstIndex { $0 >= t - 1e-9 }!
            let n = property.components
            if abs(channel.times[k] - t) < 1e-9 { return (0..<n).map { Double(channel.values[k * n + $0]) } }
            let f = (t - channel.times[k - 1]) / (channel.times[k] - channel.times[k - 1])
            return (0..<n).map { Double(channel.values[(k - 1) * n + $0]) * (1 - f) + Double(channel.values[k * n + $0]) * f }
        }
        let t3 = sample(.translation), r = sample(.rotation), s3 = sample(.scale)
        let q = Quaternion(real: r[3], imaginary: SIMD3(r[0], r[1], r[2])).normalized
        return TransformComponents(translation: SIMD3(t3[0], t3[1], t3[2]), rotation: q, scale: SIMD3(s3[0], s3[1], s3[2])).matrix
    }

    @Test func camerasLookDownTheirModelsXAndLightsDownItsY() throws {
        let scene = try Self.scene()
        let eye = try #require(scene.root.children.first { $0.name == "Eye" }?.children.first)
        let camera = try #require(eye.camera.map { scene.cameras[$0] })
        #expect(camera.verticalFieldOfView == 40 && camera.near == 0.5 && camera.far == 500)
        let looks = eye.transform.transformDirection(SIMD3(0, 0, -1))
        #expect(Vector.length(looks - SIMD3(1, 0, 0)) < 1e-9, "the camera looks along \(looks)")
        let lamp = try #require(scene.root.children.first { $0.name == "Lamp" }?.children.first)
        let light = try #require(lamp.light.map { scene.lights[$0] })
        #expect(light.kind == .directional && light.color == SIMD3(1, 0.5, 0.25) && light.intensity == 2)
        #expect(Vector.length(lamp.transform.transformDirection(SIMD3(0, 0, -1)) - SIMD3(0, -1, 0)) < 1e-9)
    }

    @Test func anEmbeddedTextureIsTheVideosContent() throws {
        let scene = try Self.scene()
        let material = try #require(scene.materials.first)
        #expect(material.baseColor.texture?.texcoordSet == "st")
        // Phong exponent 98 -> roughness sqrt(2 / 100).
        #expect(abs(material.roughness.value - Float((0.02).squareRoot())) < 1e-6)
        let texture = try #require(material.baseColor.texture.map { scene.textures[$0.texture] })
        guard case .embedded(let bytes, let mime) = texture.source else { Issue.record("not embedded: \(texture.source)"); return }
        #expect(mime == "image/png" && bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && texture.name == "paint.png")
    }

    @Test func objectsOfKindsNotReadAreCounted() throws {
        let result = try FBXReader().read(from: Self.records, options: ReadOptions())
        #expect(result.diagnostics.map(\.message) == ["objects assetc does not read: Values (1)"])
    }

    @Test func framesPerSecondComeFromTimeMode() throws {
        #expect(try Self.scene().metadata.timeCodesPerSecond == 24)  // TimeMode 11, eFrames24
    }
}

/// InheritType 2 (Rrs), as Maya writes joints with segment scale compensation: the child's position
/// scales with its parent, its rotation and size do not.
@Suite struct FBXInheritTypeTests {
    let temporary = TemporaryFolder("assetc-fbx")

    @Test func segmentScaleCompensationKeepsTheChildsSize() throws {
        let text = """
        ; FBX 7.4.0 project file
        FBXHeaderExtension:  {
            FBXVersion: 7400
        }
        Objects:  {
            Model: 1, "Model::Parent", "Null" {
                Properties70:  {
                    P: "Lcl Scaling", "Lcl Scaling", "", "A",2,2,2
                }
            }
            Model: 2, "Model::Child", "Null" {
                Properties70:  {
                    P: "InheritType", "enum", "", "",2
                    P: "Lcl Translation", "Lcl Translation", "", "A",1,0,0
                    P: "Lcl Scaling", "Lcl Scaling", "", "A",3,3,3
                }
            }
        }
        Connections:  {
            C: "OO",1,0
            C: "OO",2,1
        }
        """
        let url = try temporary.writing(text, to: "rrs.fbx")
        let scene = try FBXReader().read(from: url, options: ReadOptions()).scene
        let parent = scene.root.children[0], child = parent.children[0]
        let world = parent.transform * child.transform
        let parts = TransformComponents(world)
        #expect(Vector.length(parts.translation - SIMD3(2, 0, 0)) < 1e-9, "the position scales with the parent: \(parts.translation)")
        #expect(Vector.length(parts.scale - SIMD3(3, 3, 3)) < 1e-9, "the size is the child's own: \(parts.scale)")
    }
}

/// What the reader does not carry is named, never dropped in silence.
@Suite struct FBXWarningsTests {
    let temporary = TemporaryFolder("assetc-fbx")

    @Test func aCurveGeometryIsNamedNotDropped() throws {
        let text = """
        ; FBX 7.4.0 project file
        Objects:  {
            Geometry: 5, "Geometry::Rail", "NurbsCurve" {
            }
            Model: 6, "Model::Track", "NurbsCurve" {
            }
        }
        Connections:  {
            C: "OO",6,0
            C: "OO",5,6
        }
        """
        let url = try temporary.writing(text, to: "curve.fbx")
        let result = try FBXReader().read(from: url, options: ReadOptions())
        #expect(result.scene.root.children.map(\.name) == ["Track"])
        #expect(result.diagnostics.map(\.message) == ["model Track: its NurbsCurve geometry Rail is not read (assetc reads FBX meshes)"])
    }
}

/// v61.fbx (make_ascii_fixtures.py): the FBX 6.1 grammar, which neither assimp (it refuses FBX
/// before 2011) nor Blender (it reads no ASCII FBX) reads, so the expected figures are worked out
/// here: a 2 x 2 x 2 cube scaled 2 along x, turned 90 degrees about y, moved to (1, 2, 3).
@Suite struct FBXVersion61Tests {
    @Test func namedObjectsPropertiesSixtyAndWrappedListsRead() throws {
        let url = FBXRecordsTests.fixtures.appendingPathComponent("ascii/v61.fbx")
        let result = try FBXReader().read(from: url, options: ReadOptions())
        let scene = result.scene
        #expect(scene.meshes.count == 1 && scene.meshes[0].points.count == 8 && scene.meshes[0].faceVertexCounts == [4, 4, 4, 4, 4, 4])
        let bounds = scene.worldBounds
        #expect(Vector.length(bounds.min - SIMD3(0, 1, 1)) < 1e-6 && Vector.length(bounds.max - SIMD3(2, 3, 5)) < 1e-6, "\(bounds)")
        #expect(scene.materials.map(\.name) == ["Steel"] && scene.materials[0].roughness.value == 1)  // Lambert
        #expect(result.diagnostics.map(\.message) == ["the FBX 6.1 animation is not read (takes: 1); re-export as FBX 7 to keep it"])
    }
}

extension TemporaryFolder {
    /// `text` written to `name` in this folder, made if need be: a hand-written FBX for one test.
    func writing(_ text: String, to name: String) throws -> URL {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let file = appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }
}
