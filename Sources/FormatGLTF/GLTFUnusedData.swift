import AssetCore

/// After a compressor has given primitives new accessors, the old ones and their bytes have no
/// reader left: this keeps only the accessors something refers to (primitives, skins, animation
/// samplers) and the buffer views those accessors, the images and the Draco streams use, renumbers
/// the references, and lays the kept views out again in one buffer.
enum GLTFUnusedData {
    static func pruned(_ document: inout GLTFDocument, blobs: [[UInt8]]) -> ByteWriter {
        var usedAccessors = Set<Int>()
        for primitive in document.meshes.flatMap(\.primitives) {
            usedAccessors.formUnion(primitive.attributes.values)
            if let indices = primitive.indices { usedAccessors.insert(indices) }
            for target in primitive.targets ?? [] { usedAccessors.formUnion(target.values) }
        }
        for skin in document.skins ?? [] { usedAccessors.insert(skin.inverseBindMatrices) }
        for sampler in (document.animations ?? []).flatMap(\.samplers) { usedAccessors.formUnion([sampler.input, sampler.output]) }
        var accessorIndex = [Int](repeating: -1, count: document.accessors.count)
        var accessors: [GLTFDocument.Accessor] = []
        for a in document.accessors.indices where usedAccessors.contains(a) {
            accessorIndex[a] = accessors.count
            accessors.append(document.accessors[a])
        }
        var usedViews = Set(accessors.compactMap(\.bufferView))
        usedViews.formUnion((document.images ?? []).compactMap(\.bufferView))
        usedViews.formUnion(document.meshes.flatMap(\.primitives).compactMap { $0.extensions?.KHR_draco_mesh_compression?.bufferView })
        var viewIndex = [Int](repeating: -1, count: document.bufferViews.count)
        var views: [GLTFDocument.BufferView] = []
        var out = ByteWriter(capacity: usedViews.reduce(0) { $0 + blobs[$1].count + 3 } + GLTFBuilder.headroom)
        for v in document.bufferViews.indices where usedViews.contains(v) {
            out.pad(to: 4)
            var view = document.bufferViews[v]
            view.byteOffset = out.count
            view.byteLength = blobs[v].count
            out.append(blobs[v])
            viewIndex[v] = views.count
            views.append(view)
        }
        for a in accessors.indices { accessors[a].bufferView = accessors[a].bufferView.map { viewIndex[$0] } }
        for m in document.meshes.indices {
            for p in document.meshes[m].primitives.indices {
                document.meshes[m].primitives[p].attributes = document.meshes[m].primitives[p].attributes.mapValues { accessorIndex[$0] }
                document.meshes[m].primitives[p].indices = document.meshes[m].primitives[p].indices.map { accessorIndex[$0] }
                document.meshes[m].primitives[p].targets = document.meshes[m].primitives[p].targets?.map { $0.mapValues { accessorIndex[$0] } }
                if let draco = document.meshes[m].primitives[p].extensions?.KHR_draco_mesh_compression {
                    document.meshes[m].primitives[p].extensions?.KHR_draco_mesh_compression?.bufferView = viewIndex[draco.bufferView]
                }
            }
        }
        if document.skins != nil {
            for s in document.skins!.indices { document.skins![s].inverseBindMatrices = accessorIndex[document.skins![s].inverseBindMatrices] }
        }
        if document.animations != nil {
            for a in document.animations!.indices {
                for s in document.animations![a].samplers.indices {
                    document.animations![a].samplers[s].input = accessorIndex[document.animations![a].samplers[s].input]
                    document.animations![a].samplers[s].output = accessorIndex[document.animations![a].samplers[s].output]
                }
            }
        }
        if document.images != nil {
            for i in document.images!.indices { document.images![i].bufferView = document.images![i].bufferView.map { viewIndex[$0] } }
        }
        document.accessors = accessors
        document.bufferViews = views
        document.buffers = [GLTFDocument.Buffer(byteLength: out.count)]
        return out
    }
}
