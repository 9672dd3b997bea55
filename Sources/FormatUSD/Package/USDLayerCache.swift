import AssetCore

/// Loads each layer once and gives it a stable id, so composition arcs can name layers cheaply.
final class USDLayerCache {
    let resolver: USDAssetResolver
    private(set) var layers: [USDLayer] = []
    private var ids: [AssetLocation: Int] = [:]
    /// Layer stacks (a layer and its sublayers, strongest first) by root layer id.
    private var stacks: [Int: [Int]] = [:]

    init(resolver: USDAssetResolver) {
        self.resolver = resolver
    }

    func layer(_ id: Int) -> USDLayer { layers[id] }

    /// Parses the layer at `location` (a `.usdz` stands for its root layer) or returns it from cache.
    func load(_ location: AssetLocation) throws(AssetError) -> Int {
        let location = try resolver.layerLocation(for: location)
        if let id = ids[location] { return id }
        let name = resolver.name(of: location)
        guard layers.count < resolver.limits.maxLayers else {
            throw AssetError(.limitExceeded("more than \(resolver.limits.maxLayers) layers"), at: SourceLocation(file: name))
        }
        // Layers are told apart by content, not name: `.usd` may be either, and usdz entries are
        // named by whoever wrote the package.
        let layer: USDLayer
        // Big text layers are parsed in their mapping; a crate's parser reads from an array, so a
        // crate is read as before (mapped and copied, it was resident twice).
        if case .file(let path) = location, MappedFile.isLarge(path: path),
           case let head = try resolver.readBytes(location, upTo: 512),
           !head.starts(with: CrateFormat.magic), !MaterialXLayerReader.isMaterialX(head),
           let mapped = try MappedFile.mapIfLarge(path: path, display: name, budget: resolver.budget, staged: resolver.staged) {
            layer = try USDAParser.parse(mapped, location: location, name: name, budget: resolver.budget)
        } else {
            let bytes = try resolver.readBytes(location)
            if bytes.starts(with: CrateFormat.magic) {
                layer = try USDCrateParser.parse(bytes, location: location, name: name, budget: resolver.budget)
            } else if MaterialXLayerReader.isMaterialX(bytes) {
                // A .mtlx document referenced as a layer (usdMtlx's file format).
                layer = try MaterialXLayerReader.parse(bytes, location: location, name: name)
            } else {
                layer = try USDAParser.parse(bytes, location: location, name: name, budget: resolver.budget)
            }
        }
        layers.append(layer)
        ids[location] = layers.count - 1
        return layers.count - 1
    }

    /// The layer and its sublayers, depth first, strongest first. Sublayers that cannot be found or
    /// are refused are left out with a warning; a sublayer cycle is cut.
    func stack(root: Int, diagnostics: inout [Diagnostic]) -> [Int] {
        if let known = stacks[root] { return known }
        var result: [Int] = []
        var visiting: Set<Int> = []
        func visit(_ id: Int) {
            guard !visiting.contains(id), !result.contains(id) else { return }
            visiting.insert(id)
            result.append(id)
            let layer = layers[id]
            for subLayer in layer.subLayers {
                let here = SourceLocation(file: layer.name)
                switch resolver.resolve(subLayer, anchor: layer.location) {
                case .refused(let why):
                    diagnostics.append(.warning("sublayer refused: \(why)", at: here))
                case .found(let location):
                    do throws(AssetError) {
                        visit(try load(location))
                    } catch {
                        diagnostics.append(.warning("sublayer @\(subLayer)@ skipped: \(error)", at: here))
                    }
                }
            }
            visiting.remove(id)
        }
        visit(root)
        stacks[root] = result
        return result
    }
}
