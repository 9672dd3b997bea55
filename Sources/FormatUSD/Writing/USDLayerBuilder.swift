import AssetCore
import Foundation

/// Builds the `USDLayer` document of a `Scene`: `defaultPrim`, `upAxis`, `metersPerUnit`, an Xform
/// hierarchy with `xformOp:transform`, Meshes with their primvars and GeomSubsets,
/// UsdPreviewSurface materials under `<defaultPrim>/Looks` bound through MaterialBindingAPI,
/// cameras and lights. The same document is printed as usda or encoded as usdc. Texture files are
/// collected for the caller to place at the paths the layer names.
struct USDLayerBuilder {
    let scene: Scene
    let context: WriteContext
    /// Folder of copied textures, relative to the layer: `textures` inside a package, or the
    /// output's own texture folder beside a .usda.
    let textureFolder: String
    var diagnostics: [Diagnostic] = []
    /// Files the layer refers to (`textures/wood.png`), with their bytes.
    var textureFiles: [OutputFile] = []
    var materialPaths: [Int: String] = [:]
    var texturePaths: [Int: String?] = [:]
    var usedTextureNames: Set<String> = []
    /// Skeletons, skins, blend shapes and their animation as UsdSkel; nil for a static scene.
    var rig: USDRigPlan?
    /// The rig's joint paths, for the per-node question `isRigSource` asks.
    var rigJointPaths: Set<String> = []
    var skeletonPath = ""
    /// The first clip's transform channels by node path: written as sampled xformOps.
    var channelsByPath: [String: [AnimationChannel]] = [:]
    /// Mesh prims whose material bindings change with the material variant: their paths, the
    /// names their subsets were written under, and the instance, whose changing bindings are
    /// written in the variants only (a binding on the prim itself would be stronger than any variant's).
    var variantOvers: [(path: String, subsetNames: [String], instance: MeshInstance)] = []
    /// Skeleton prims of the source: their joints are the written Skeleton's now.
    var sourceSkeletonPaths: Set<String> = []

    /// Where each clip lies when the scene has several: a stage has one timeline, so they are laid
    /// end to end on it and named in `customLayerData` (`assetc = { clipNames, clipStarts, ... }`).
    var clipTimeline: ClipTimeline?
    /// Whether materials' MaterialX networks are written beside their preview surfaces (usda, usdc);
    /// a usdz is for AR Quick Look, which reads UsdPreviewSurface only.
    var writesNetworks = true

    init(scene: Scene, context: WriteContext, textureFolder: String) {
        var scene = scene
        if scene.animations.filter({ $0.timeRange != nil }).count > 1 {
            let (clip, timeline) = ClipTimeline.laidEndToEnd(scene.animations, materials: scene.materials, lights: scene.lights, rest: Self.restValues(scene))
            scene.animations = [clip]
            clipTimeline = timeline
        }
        self.scene = scene
        self.context = context
        self.textureFolder = textureFolder
        for channel in scene.animations.first?.channels ?? [] { channelsByPath[channel.nodePath, default: []].append(channel) }
        sourceSkeletonPaths = Set(scene.skeletons.compactMap(\.skeletonPath))
    }

    mutating func build() -> USDLayer {
        let tops = scene.root.children
        // A single group becomes the default prim; otherwise (several top nodes, or one that is a
        // mesh itself) they are wrapped in an Xform named after the file.
        let single = tops.count == 1 && !isMeshPrim(tops[0], scenePath: "/" + tops[0].name)
        var rootNames = USDName.Uniquer()
        let rootName = single ? rootNames.name(tops[0].name) : rootNames.name(context.outputStem)
        var layer = USDLayer(location: .file(path: context.outputName))
        layer.metadata = [
            "defaultPrim": .string(rootName),
            "doc": .string("Written by assetc"),
            "metersPerUnit": .number(scene.metadata.metersPerUnit),
            "upAxis": .string(scene.metadata.upAxis == .z ? "Z" : "Y"),
        ]
        rig = USDRigPlan(scene: scene, rootWorld: single ? tops[0].transform : .identity, diagnostics: &diagnostics)
        rigJointPaths = Set(rig?.jointPaths ?? [])
        layer.metadata.merge(timeMetadata()) { $1 }
        if let clips = clipMetadata() { layer.metadata["customLayerData"] = clips }
        if scene.metadata.upAxis == .x {
            diagnostics.append(.warning("USD has no X up axis; the layer says Y and keeps the geometry as it is"))
        }
        var looksNames = USDName.Uniquer()
        let looksPath = "/\(rootName)/" + looksNames.name("Looks")
        // Materials keep their names, made distinct only where two collide, so a layer read and
        // written again names them as it did before.
        var materialNames = USDName.Uniquer()
        for (i, material) in scene.materials.enumerated() {
            materialPaths[i] = looksPath + "/" + materialNames.name(material.name.isEmpty ? "Material" : material.name)
        }
        // With a rig the default prim is the SkelRoot (AR Quick Look plays one per asset).
        var root = USDPrimSpec(specifier: .def, typeName: rig == nil ? "Xform" : "SkelRoot", name: rootName, line: 0)
        root.metadata["kind"] = .string("component")
        var names = USDName.Uniquer()
        // The materials' scope owns the name; without materials a node of the scene may have it.
        if !scene.materials.isEmpty { _ = names.name("Looks") }
        let skeletonName = rig == nil ? "" : names.name("Skeleton")
        skeletonPath = "/\(rootName)/\(skeletonName)"
        if single {
            root.properties = transformProperties(tops[0], scenePath: "/" + tops[0].name)
            addContents(of: tops[0], to: &root, path: "/\(rootName)", scenePath: "/" + tops[0].name, names: &names, isDefaultPrim: true)
        } else {
            for node in tops where !isMaterialScope(node) && !isRigSource(node, scenePath: "/" + node.name) {
                root.children.append(nodePrim(for: node, parentPath: "/\(rootName)", scenePath: "/" + node.name, names: &names))
            }
        }
        if let rig { root.children.append(skeletonPrim(rig, name: skeletonName, path: skeletonPath)) }
        if !scene.materials.isEmpty { root.children.append(looksScope(path: looksPath)) }
        addMaterialVariants(to: &root, rootPath: "/\(rootName)")
        layer.rootPrims = [root]
        return layer
    }

    /// The empty `Looks` scope a USD source kept its materials in: the layer writes its materials
    /// into a `Looks` of its own, so writing this one too would add an empty `Looks_2` each round.
    func isMaterialScope(_ node: Node) -> Bool {
        !scene.materials.isEmpty && node.name == "Looks" && node.meshInstances.isEmpty && node.children.isEmpty
            && node.camera == nil && node.light == nil && node.transform.isIdentity
    }

    /// A node that is one mesh and nothing else is written as that Mesh prim, not an Xform
    /// around it. Its BlendShape children (a USD source's) count as nothing here: the mesh prim
    /// writes its targets anew, and an Xform kept for them would read back as one more node and
    /// wrap the mesh once more at every round trip.
    func isMeshPrim(_ node: Node, scenePath: String) -> Bool {
        node.meshInstances.count == 1 && node.curvesInstances.isEmpty && node.splatInstances.isEmpty && node.camera == nil && node.light == nil
            && hasOnlyRigChildren(node, scenePath: scenePath)
    }

    /// No child that is written as a prim of its own: the rig writes them anew, or they are none.
    func hasOnlyRigChildren(_ node: Node, scenePath: String) -> Bool {
        node.children.allSatisfy { isRigSource($0, scenePath: scenePath + "/" + $0.name) }
    }

    /// The stage's time range. A USD source keeps its own (or none: a stage without `startTimeCode`
    /// is read at the default time, and adding one would change what every reader sees); other
    /// sources get the span of their keys, which AR Quick Look plays.
    private func timeMetadata() -> [String: USDValue] {
        var metadata: [String: USDValue] = [:]
        // A USD source with one clip keeps its range; clips laid end to end span their keys.
        let isUSD = scene.metadata.sourceFormat?.isUSD == true && clipTimeline == nil
        if isUSD {
            guard let start = scene.metadata.startTimeCode else { return [:] }
            metadata["startTimeCode"] = .number(start)
            if let end = scene.metadata.endTimeCode { metadata["endTimeCode"] = .number(end) }
        } else {
            let materialTimes = (scene.animations.first?.materialChannels.flatMap(\.times) ?? [])
                + (scene.animations.first?.lightChannels.flatMap(\.times) ?? [])
            let keyTimes = ((rig?.times ?? []) + channelsByPath.values.flatMap { $0.flatMap(\.times) } + materialTimes).filter(\.isFinite)
            guard let first = keyTimes.min(), let last = keyTimes.max(), last > first else { return [:] }
            metadata["startTimeCode"] = .number(timeCode(first))
            metadata["endTimeCode"] = .number(timeCode(last))
        }
        metadata["timeCodesPerSecond"] = .number(timeCodesPerSecond)
        return metadata
    }

    /// What the source's own UsdSkel left as nodes (joints, its Skeleton, SkelAnimation and
    /// BlendShape prims), and joint nodes of other formats with nothing but joints below them (a
    /// Collada or glTF skeleton): the rig writes them anew, so they are not written as Xforms, which
    /// would play the joints' animation a second time and read back as animated nodes. A joint
    /// holding an attachment (a mesh, a camera, a light, another node) stays an Xform, so what it
    /// holds still follows it.
    func isRigSource(_ node: Node, scenePath: String) -> Bool {
        node.isJoint || node.typeName == "SkelAnimation" || node.typeName == "BlendShape"
            || (node.typeName == "Skeleton" && sourceSkeletonPaths.contains(scenePath))
            || isBareJointTree(node, scenePath: scenePath)
    }

    /// A joint, or a group that does not move (a glTF or Collada skeleton's parent node, a USD
    /// Skeleton read back from another format), with nothing but joints below it. The rig places each joint by its world
    /// transform, so such a group's transform lives on in the joints; kept as an Xform, it was
    /// one more empty prim beside the rig at every conversion.
    private func isBareJointTree(_ node: Node, scenePath: String) -> Bool {
        guard node.meshInstances.isEmpty, node.curvesInstances.isEmpty, node.splatInstances.isEmpty, node.camera == nil, node.light == nil else { return false }
        let childrenBare = node.children.allSatisfy { isBareJointTree($0, scenePath: scenePath + "/" + $0.name) }
        if rigJointPaths.contains(scenePath) { return childrenBare }
        // A group that moves stays, its animation its own.
        return childrenBare && !node.children.isEmpty && channelsByPath[scenePath] == nil
    }

    private mutating func nodePrim(for node: Node, parentPath: String, scenePath: String, names: inout USDName.Uniquer) -> USDPrimSpec {
        let name = names.name(node.name)
        let path = parentPath + "/" + name
        if isMeshPrim(node, scenePath: scenePath), let instance = node.meshInstances.first, scene.meshes.indices.contains(instance.mesh) {
            return meshPrim(scene.meshes[instance.mesh], instance: instance, name: name, path: path, node: node, scenePath: scenePath)
        }
        // A node that is one camera or one light and nothing else is that prim (both are
        // xformable), as a USD source's Camera or light prim was read: an Xform around it read
        // back as one more node at every round trip.
        if node.meshInstances.isEmpty, node.curvesInstances.isEmpty, hasOnlyRigChildren(node, scenePath: scenePath) {
            var prim: USDPrimSpec?
            if node.splatInstances.count == 1, node.camera == nil, node.light == nil, scene.splats.indices.contains(node.splatInstances[0].splats) {
                prim = splatPrim(scene.splats[node.splatInstances[0].splats], name: name)
            } else if !node.splatInstances.isEmpty {
                prim = nil
            } else if let c = node.camera, node.light == nil, scene.cameras.indices.contains(c) {
                prim = Self.cameraPrim(scene.cameras[c], name: name)
            } else if let l = node.light, node.camera == nil, scene.lights.indices.contains(l) {
                prim = lightPrim(l, name: name)
            }
            if var prim {
                prim.properties = transformProperties(node, scenePath: scenePath) + prim.properties
                return prim
            }
        }
        var xform = USDPrimSpec(specifier: .def, typeName: "Xform", name: name, line: 0)
        xform.properties = transformProperties(node, scenePath: scenePath)
        var childNames = USDName.Uniquer()
        addContents(of: node, to: &xform, path: path, scenePath: scenePath, names: &childNames)
        return xform
    }

    private mutating func addContents(of node: Node, to prim: inout USDPrimSpec, path: String, scenePath: String, names: inout USDName.Uniquer,
                                      isDefaultPrim: Bool = false) {
        for instance in node.meshInstances where scene.meshes.indices.contains(instance.mesh) {
            let mesh = scene.meshes[instance.mesh]
            let name = names.name(mesh.name.isEmpty ? "Mesh" : mesh.name)
            prim.children.append(meshPrim(mesh, instance: instance, name: name, path: path + "/" + name, node: nil, scenePath: scenePath))
        }
        for instance in node.curvesInstances where scene.curves.indices.contains(instance.curves) {
            let curves = scene.curves[instance.curves]
            let name = names.name(curves.name.isEmpty ? "Curves" : curves.name)
            prim.children.append(curvesPrim(curves, instance: instance, name: name))
        }
        for instance in node.splatInstances where scene.splats.indices.contains(instance.splats) {
            let set = scene.splats[instance.splats]
            prim.children.append(splatPrim(set, name: names.name(set.name.isEmpty ? "Splats" : set.name)))
        }
        if let c = node.camera, scene.cameras.indices.contains(c) {
            prim.children.append(Self.cameraPrim(scene.cameras[c], name: names.name(scene.cameras[c].name)))
        }
        if let l = node.light, scene.lights.indices.contains(l) {
            prim.children.append(lightPrim(l, name: names.name(scene.lights[l].name)))
        }
        for child in node.children where !(isDefaultPrim && isMaterialScope(child)) && !isRigSource(child, scenePath: scenePath + "/" + child.name) {
            prim.children.append(nodePrim(for: child, parentPath: path, scenePath: scenePath + "/" + child.name, names: &names))
        }
    }

    func transformProperties(_ node: Node, scenePath: String) -> [USDPropertySpec] {
        var properties: [USDPropertySpec] = []
        if let purpose = node.purpose, purpose != .default {
            properties.append(.attribute("purpose", "token", .string(purpose.rawValue), uniform: true))
        }
        if node.isInvisible { properties.append(.attribute("visibility", "token", .string("invisible"))) }
        if let channels = channelsByPath[scenePath], let animated = animatedTransformProperties(node, channels: channels) {
            return properties + animated
        }
        guard !node.transform.isIdentity || node.resetsTransformStack else { return properties }
        properties.append(.attribute("xformOp:transform", "matrix4d", .tuple(node.transform.columnMajorElements)))
        let order = (node.resetsTransformStack ? ["!resetXformStack!"] : []) + ["xformOp:transform"]
        properties.append(.attribute("xformOpOrder", "token[]", .list(order.map { .string($0) }), uniform: true))
        return properties
    }

    private static func cameraPrim(_ camera: Camera, name: String) -> USDPrimSpec {
        var prim = USDPrimSpec(specifier: .def, typeName: "Camera", name: name, line: 0)
        // UsdGeomCamera apertures are in tenths of a scene unit; keep the default film back and
        // derive the focal length that gives the camera's vertical field of view.
        let aperture = 20.955
        let focal = aperture / (2 * tan(camera.verticalFieldOfView * .pi / 360))
        prim.properties = [
            .attribute("focalLength", "float", .number(focal)),
            .attribute("verticalAperture", "float", .number(aperture)),
            .attribute("projection", "token", .string(camera.projection == .orthographic ? "orthographic" : "perspective")),
            .attribute("clippingRange", "float2", .tuple([camera.near, camera.far])),
        ]
        return prim
    }
}

extension USDPropertySpec {
    /// An attribute whose value comes from another's (`inputs:st.connect = <…>`).
    static func connection(_ name: String, _ typeName: String, to target: String) -> USDPropertySpec {
        var spec = attribute(name, typeName, nil)
        spec.targets = [target]
        return spec
    }

    static func relationship(_ name: String, to target: String) -> USDPropertySpec {
        var spec = USDPropertySpec(name: name, typeName: "rel", isRelationship: true, isUniform: true, line: 0)
        spec.targets = [target]
        return spec
    }
}

extension USDValue {
    /// A float vector as the layer holds it: its components widened to Double, exactly.
    static func floats(_ v: SIMD2<Float>) -> USDValue { .tuple([Double(v.x), Double(v.y)]) }
    static func floats(_ v: SIMD3<Float>) -> USDValue { .tuple([Double(v.x), Double(v.y), Double(v.z)]) }
    static func floats(_ v: SIMD4<Float>) -> USDValue { .tuple([Double(v.x), Double(v.y), Double(v.z), Double(v.w)]) }
}
