import AssetCore

extension USDLayerBuilder {
    /// `customLayerData = { assetc = { clipNames, clipStarts, clipEnds, clipSourceStarts } }` for
    /// clips laid end to end, in time codes as the layer's own start and end are; nil for one clip.
    func clipMetadata() -> USDValue? {
        guard let clipTimeline else { return nil }
        let spans = clipTimeline.spans
        let clips: [USDDictionaryEntry] = [
            USDDictionaryEntry(typeName: "string[]", key: "clipNames", value: .list(spans.map { .string($0.name) })),
            USDDictionaryEntry(typeName: "double[]", key: "clipStarts", value: .numbers(spans.map { timeCode($0.start) }, components: 1)),
            USDDictionaryEntry(typeName: "double[]", key: "clipEnds", value: .numbers(spans.map { timeCode($0.end) }, components: 1)),
            USDDictionaryEntry(typeName: "double[]", key: "clipSourceStarts", value: .numbers(spans.map { timeCode($0.sourceStart) }, components: 1)),
        ]
        return .dictionary([USDDictionaryEntry(typeName: "dictionary", key: "assetc", value: .dictionary(clips))])
    }

    /// What a channel's property is when no clip moves it: the node's own transform (or its parts),
    /// its mesh instance's default blend-shape weights, its mesh's points. For `ClipTimeline`.
    static func restValues(_ scene: Scene) -> (AnimationChannel) -> [Float]? {
        let flat = FlatNodeTree(scene.root)
        var nodes: [String: Node] = [:]
        for (i, path) in flat.paths.enumerated() { nodes[path] = flat.nodes[i] }
        return { channel in
            guard let node = nodes[channel.nodePath] else { return nil }
            let parts = TransformComponents(node.transform)
            switch channel.property {
            case .translation: return [parts.translation.x, parts.translation.y, parts.translation.z].map(Float.init)
            case .rotation: return [parts.rotation.imaginary.x, parts.rotation.imaginary.y, parts.rotation.imaginary.z, parts.rotation.real].map(Float.init)
            case .scale: return [parts.scale.x, parts.scale.y, parts.scale.z].map(Float.init)
            case .matrix: return node.transform.columnMajorElements.map(Float.init)
            case .blendShapeWeights(let count):
                let given = node.meshInstances.first?.blendShapeWeights ?? []
                return (0..<count).map { $0 < given.count ? given[$0] : 0 }
            case .points(let count):
                guard let instance = node.meshInstances.first, scene.meshes.indices.contains(instance.mesh),
                      scene.meshes[instance.mesh].points.count == count else { return nil }
                return scene.meshes[instance.mesh].points.flatMap { [$0.x, $0.y, $0.z] }
            }
        }
    }
}
