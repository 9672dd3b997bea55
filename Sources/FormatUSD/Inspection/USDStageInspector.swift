import AssetCore

/// Opens a USD stage the way a read does (same sandbox, same caps) and gathers `USDStageFacts`
/// for validation. Packages with compressed entries are opened rather than refused, so their
/// compression can be reported as the rule breach it is.
public enum USDStageInspector {
    /// Gathers the facts and hands them to `body`, on the large stack deep USD files need.
    /// `contents`: the file's bytes, when the caller has read all of them already.
    public static func inspect<T: Sendable>(path: String, options: ReadOptions, contents: [UInt8]? = nil,
                                             _ body: @escaping @Sendable (USDStageFacts) -> T) throws(AssetError) -> T {
        try LargeStack.run { () throws(AssetError) -> T in
            let budget = ReadBudget(options.limits)
            let resolver = USDAssetResolver(rootFile: path, options: options, budget: budget)
            if let contents { resolver.preload(path: path, contents) }
            resolver.allowsCompressedEntries = true
            resolver.allowsAbsolutePathsInPackages = true
            let cache = USDLayerCache(resolver: resolver)
            let root = try cache.load(.file(path: path))
            let composer = USDStageComposer(cache: cache, budget: budget)
            let stage = try composer.composeStage(rootLayer: root)
            var walk = DependencyWalk(cache: cache)
            walk.visit(layer: root)
            let layers = walk.layerOrder.map(cache.layer)
            return body(USDStageFacts(
                rootFile: path, rootLayerLocation: cache.layer(root).location, stage: stage, layers: layers,
                compositionProblems: composer.diagnostics, dependencies: walk.dependencies,
                packages: packages(of: layers, resolver: resolver),
                locate: { assetPath, anchor in
                    guard case .found(let location) = resolver.resolve(assetPath, anchor: anchor), resolver.exists(location) else { return nil }
                    return location
                },
                readBytes: { location throws(AssetError) in try resolver.readBytes(location) },
                readPrefix: { location, count throws(AssetError) in try resolver.readBytes(location, upTo: count) },
                name: { location in resolver.name(of: location) }))
        }
    }

    /// The packages the layers were read from, each once, outer packages of nested ones too.
    private static func packages(of layers: [USDLayer], resolver: USDAssetResolver) -> [USDPackageFacts] {
        var seen: Set<AssetLocation> = []
        var order: [AssetLocation] = []
        func add(_ location: AssetLocation) {
            guard case .packageEntry(let package, _) = location else { return }
            add(package)
            if seen.insert(package).inserted { order.append(package) }
        }
        for layer in layers { add(layer.location) }
        return order.map { package in
            // Read as a layer is: the size cap and the read's budget apply to the package's bytes.
            let layout = Result { () throws(AssetError) -> USDZPackageLayout in
                let bytes: [UInt8]
                if let read = resolver.packageBytes[package] { bytes = read } else { bytes = try resolver.readBytes(package) }
                return try USDZPackageLayout(bytes: bytes, location: package.description, maxEntries: resolver.limits.maxPackageEntries)
            }
            return USDPackageFacts(location: package, layout: layout)
        }
    }

}

/// OpenUSD's dependency walk (`UsdUtils.ComputeAllDependencies`): every sublayer, reference and
/// payload of every layer reached, whether or not composition selects it, and every asset-valued
/// attribute. Layers are loaded into the composition's cache, so each is parsed once.
private struct DependencyWalk {
    let cache: USDLayerCache
    var layerOrder: [Int] = []
    var dependencies: [USDDependency] = []
    private var visited: Set<Int> = []

    init(cache: USDLayerCache) {
        self.cache = cache
    }

    mutating func visit(layer id: Int) {
        guard visited.insert(id).inserted else { return }
        layerOrder.append(id)
        let layer = cache.layer(id)
        let file = layer.name
        for subLayer in layer.subLayers {
            follow(subLayer, isLayer: true, from: layer, at: SourceLocation(file: file))
        }
        for prim in layer.rootPrims { visit(prim: prim, path: "/" + prim.name, in: layer, file: file) }
    }

    /// `file`: the layer's location as findings name it, made once per layer.
    private mutating func visit(prim: USDPrimSpec, path: String, in layer: USDLayer, file: String) {
        for arc in prim.references + prim.payloads where !arc.assetPath.isEmpty {
            follow(arc.assetPath, isLayer: true, from: layer, at: SourceLocation(file: file, line: arc.line > 0 ? arc.line : nil, elementPath: path))
        }
        for property in prim.properties where property.typeName == "asset" || property.typeName == "asset[]" {
            let here = SourceLocation(file: file, line: property.line > 0 ? property.line : nil, elementPath: path + "." + property.name)
            var values = property.defaultValue.map { [$0] } ?? []
            values += property.timeSamples?.map(\.value) ?? []
            for value in values {
                for assetPath in value.strings ?? [] where !assetPath.isEmpty {
                    follow(assetPath, isLayer: false, from: layer, at: here)
                }
            }
        }
        for child in prim.children { visit(prim: child, path: path + "/" + child.name, in: layer, file: file) }
        for (_, variants) in prim.variantSets {
            for (_, body) in variants { visit(prim: body, path: path, in: layer, file: file) }
        }
    }

    private mutating func follow(_ assetPath: String, isLayer: Bool, from layer: USDLayer, at here: SourceLocation) {
        var dependency = USDDependency(assetPath: assetPath, isLayer: isLayer, location: here)
        switch cache.resolver.resolve(assetPath, anchor: layer.location) {
        case .refused(let why):
            dependency.problem = why
        case .found(let location):
            if isLayer {
                do throws(AssetError) {
                    let id = try cache.load(location)
                    dependency.resolved = cache.layer(id).location
                    dependencies.append(dependency)
                    visit(layer: id)
                    return
                } catch {
                    // A layer that is there but does not parse resolves all the same; composing
                    // it is what fails, and composition reports that.
                    if cache.resolver.exists(location) { dependency.resolved = location }
                    dependency.problem = error.description
                }
            } else if cache.resolver.exists(location) {
                dependency.resolved = location
            } else {
                dependency.problem = "nothing is at \(cache.resolver.name(of: location))"
            }
        }
        dependencies.append(dependency)
    }
}
