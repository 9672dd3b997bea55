import AssetCore
import FormatUSD
import Foundation

/// Packs a stage and everything it reads into a new usdz, the way ARKit wants one: the root layer
/// first and a crate, entries stored and 64-byte aligned, nothing outside the package, textures in
/// formats AR Quick Look reads, and nothing the stage does not use. Layers an edit touched, or
/// whose asset paths had to change, are written again; every other file is carried byte for byte.
struct USDPackageRebuilder {
    private let facts: USDStageFacts
    private var layers: [USDLayer]
    private var rewritten: Set<Int>
    private let transcode: TextureTranscoder
    private(set) var changes: [ValidationChange] = []
    private(set) var skipped: [ValidationChange] = []

    /// The package the root layer came from, when the input is a usdz.
    private let rootPackage: AssetLocation?
    /// Loose files under this folder keep their relative path as their entry name.
    private let looseBase: String
    private var entryNames: [AssetLocation: String] = [:]
    private var taken: Set<String> = []
    /// Files carried into the package that are not layers of the stage (textures, nested packages).
    private var carried: [AssetLocation] = []
    /// Textures converted to PNG, by where the original is.
    private var converted: [AssetLocation: [UInt8]] = [:]
    /// What a converted texture could not carry (a GIF's later frames), for its change's message.
    private var leftOut: [AssetLocation: String] = [:]
    /// Layers' bytes as read, so naming and writing share one read (and one charge to the budget).
    private var originals: [AssetLocation: [UInt8]] = [:]

    init(facts: USDStageFacts, editor: USDLayerEditor, transcode: @escaping TextureTranscoder) {
        self.facts = facts
        layers = editor.layers
        rewritten = editor.edited
        self.transcode = transcode
        if facts.rootIsPackaged, case .packageEntry(let package, _) = facts.rootLayerLocation {
            rootPackage = package
        } else {
            rootPackage = nil
        }
        looseBase = PathArithmetic.directory(of: Self.absolute(facts.rootFile))
    }

    mutating func build() throws(AssetError) -> [UInt8] {
        let rootIndex = layers.firstIndex { $0.location == facts.rootLayerLocation } ?? 0
        let rootName = try nameRootLayer(rootIndex)
        for index in layers.indices where index != rootIndex && isOwned(layers[index].location) {
            nameLayer(index)
        }
        for index in layers.indices where isOwned(layers[index].location) {
            rewriteAssetPaths(inLayer: index)
        }
        var files = [OutputFile(relativePath: rootName, bytes: try serialize(rootIndex))]
        for index in layers.indices where index != rootIndex && isOwned(layers[index].location) {
            files.append(OutputFile(relativePath: entryNames[layers[index].location] ?? "", bytes: try serialize(index)))
        }
        for location in carried {
            files.append(OutputFile(relativePath: entryNames[location] ?? "", bytes: try carry(location)))
        }
        noteRepackaging(kept: Set(files.map(\.relativePath)))
        return try USDZPackageWriter.package(files)
    }

    /// Layers of the input itself: loose files, or entries of its own package. Layers inside a
    /// package the stage references travel inside that package, untouched.
    private func isOwned(_ location: AssetLocation) -> Bool {
        switch location {
        case .file: return true
        case .packageEntry(let package, _): return package == rootPackage
        }
    }

    // MARK: Entry names

    /// The root layer becomes `<stem>.usdc` when the crate writer holds everything it says;
    /// otherwise it keeps its own encoding and the reason is reported.
    private mutating func nameRootLayer(_ index: Int) throws(AssetError) -> String {
        let location = layers[index].location
        let stem = Self.stem(of: Self.entryOrPath(location))
        let isCrate = Self.isCrate(try original(location))
        var name = stem + ".usdc"
        if !isCrate {
            // Encoded here only to learn whether the crate keeps everything; `serialize` writes it.
            do throws(AssetError) {
                let encoded = try USDCrateWriter.encode(layers[index])
                if encoded.warnings.isEmpty {
                    changes.append(ValidationChange(rule: .arkitRootLayer, message: "wrote the root layer as the usdc crate '\(name)'",
                                                    location: SourceLocation(file: facts.name(location))))
                } else {
                    name = stem + ".usda"
                    skipped.append(ValidationChange(rule: .arkitRootLayer, message: "the root layer stays usda: as a crate it would lose \(encoded.warnings.joined(separator: "; "))",
                                                    location: SourceLocation(file: facts.name(location))))
                }
            } catch {
                name = stem + ".usda"
                skipped.append(ValidationChange(rule: .arkitRootLayer, message: "the root layer stays usda: \(error.message)",
                                                location: SourceLocation(file: facts.name(location))))
            }
        }
        reserve(name, for: location)
        return name
    }

    /// A layer keeps its path; one in a format ARKit does not take (`.sdf`) is written as usda.
    private mutating func nameLayer(_ index: Int) {
        let location = layers[index].location
        var name = naturalName(location)
        if !["usd", "usda", "usdc"].contains(Self.fileExtension(name)) {
            let renamed = Self.stem(of: name) + ".usda"
            let folder = PathArithmetic.directory(of: name)
            name = PathArithmetic.join(folder, renamed)
            rewritten.insert(index)
            changes.append(ValidationChange(rule: .arkitLayer, message: "wrote layer '\(facts.name(location))' as usda text", location: SourceLocation(file: facts.name(location))))
        }
        reserve(name, for: location)
    }

    private func naturalName(_ location: AssetLocation) -> String {
        switch location {
        case .packageEntry(let package, let entry) where package == rootPackage:
            return entry
        case .packageEntry(_, let entry):
            return Self.lastComponent(entry)
        case .file(let path):
            let absolute = Self.absolute(path)
            if PathArithmetic.isInside(absolute, root: looseBase), absolute != looseBase {
                return PathArithmetic.relative(from: looseBase, to: absolute)
            }
            return "external/" + Self.lastComponent(absolute)
        }
    }

    /// Takes `name`, or `name_2`, `name_3`... when another file already has it.
    private mutating func reserve(_ name: String, for location: AssetLocation) {
        var candidate = name
        var counter = 2
        while taken.contains(candidate) {
            let folder = PathArithmetic.directory(of: name)
            let ext = Self.fileExtension(name)
            candidate = PathArithmetic.join(folder, Self.stem(of: name) + "_\(counter)" + (ext.isEmpty ? "" : "." + ext))
            counter += 1
        }
        taken.insert(candidate)
        entryNames[location] = candidate
    }

    /// The file that carries a location into the package: the location itself, or, for an entry of
    /// a package other than the input's, that package, with the rest written `[entry]` after it.
    private func carrier(of location: AssetLocation) -> (AssetLocation, suffix: String) {
        var entries: [String] = []
        var at = location
        while case .packageEntry(let package, let entry) = at, package != rootPackage {
            entries.append(entry)
            at = package
        }
        return (at, entries.reduce("") { "[" + $1 + $0 + "]" })
    }

    /// The entry a file will have, adding it to the files carried when it is new.
    private mutating func entryName(for location: AssetLocation, isTexture: Bool) -> String {
        if let name = entryNames[location] { return name }
        var name = naturalName(location)
        if isTexture, ShaderRules.transcodableTextureFormats.contains(Self.fileExtension(name).lowercased()) {
            do throws(AssetError) {
                let transcoded = try transcode(try facts.readBytes(location), facts.name(location))
                converted[location] = transcoded.png
                if let lost = transcoded.leftOut { leftOut[location] = lost }
                name = PathArithmetic.join(PathArithmetic.directory(of: name), Self.stem(of: name) + ".png")
            } catch {
                skipped.append(ValidationChange(rule: .texture, message: "'\(facts.name(location))' could not be converted to PNG (\(error.message)); it is packaged as it was",
                                                location: SourceLocation(file: facts.name(location))))
            }
        }
        reserve(name, for: location)
        if converted[location] != nil {
            changes.append(ValidationChange(rule: .texture, message: "converted '\(facts.name(location))' to PNG as '\(entryNames[location] ?? name)'"
                                            + (leftOut[location].map { " (\($0) kept)" } ?? ""),
                                            location: SourceLocation(file: facts.name(location))))
        }
        carried.append(location)
        return entryNames[location] ?? name
    }

    // MARK: Asset paths

    private mutating func rewriteAssetPaths(inLayer index: Int) {
        var layer = layers[index]
        var changed = false
        for at in layer.subLayers.indices {
            changed = rewrite(&layer.subLayers[at], from: index, isTexture: false) || changed
        }
        for at in layer.rootPrims.indices {
            changed = rewrite(prim: &layer.rootPrims[at], from: index) || changed
        }
        layers[index] = layer
        if changed { rewritten.insert(index) }
    }

    private mutating func rewrite(prim: inout USDPrimSpec, from index: Int) -> Bool {
        var changed = false
        for at in prim.references.indices where !prim.references[at].assetPath.isEmpty {
            changed = rewrite(&prim.references[at].assetPath, from: index, isTexture: false) || changed
        }
        for at in prim.payloads.indices where !prim.payloads[at].assetPath.isEmpty {
            changed = rewrite(&prim.payloads[at].assetPath, from: index, isTexture: false) || changed
        }
        for at in prim.properties.indices where prim.properties[at].typeName == "asset" || prim.properties[at].typeName == "asset[]" {
            if let value = prim.properties[at].defaultValue {
                prim.properties[at].defaultValue = rewrite(value: value, from: index, changed: &changed)
            }
            if let samples = prim.properties[at].timeSamples {
                var rewrittenSamples = samples
                for sample in rewrittenSamples.indices {
                    rewrittenSamples[sample].value = rewrite(value: samples[sample].value, from: index, changed: &changed)
                }
                prim.properties[at].timeSamples = rewrittenSamples
            }
        }
        for at in prim.children.indices {
            changed = rewrite(prim: &prim.children[at], from: index) || changed
        }
        for (setName, variants) in prim.variantSets {
            for (variantName, var body) in variants where rewrite(prim: &body, from: index) {
                prim.variantSets[setName]?[variantName] = body
                changed = true
            }
        }
        return changed
    }

    private mutating func rewrite(value: USDValue, from index: Int, changed: inout Bool) -> USDValue {
        switch value {
        case .asset(var path):
            changed = rewrite(&path, from: index, isTexture: true) || changed
            return .asset(path)
        case .string(var path):
            changed = rewrite(&path, from: index, isTexture: true) || changed
            return .string(path)
        case .list(let items):
            return .list(items.map { rewrite(value: $0, from: index, changed: &changed) })
        default:
            return value
        }
    }

    /// Points an asset path at the file's entry in the new package; an asset path that already
    /// leads there keeps the author's spelling. One that resolves to nothing is left alone.
    private mutating func rewrite(_ assetPath: inout String, from index: Int, isTexture: Bool) -> Bool {
        let anchor = facts.layers[index].location
        guard !assetPath.isEmpty, let target = facts.locate(assetPath, anchor) else { return false }
        let (file, suffix) = carrier(of: target)
        // A layer the stage could not read stays where it was written: packing it would only add
        // a file ARKit refuses, and the reference is reported missing either way.
        if !isTexture, entryNames[file] == nil, Self.fileExtension(Self.entryOrPath(file)).lowercased() != "usdz" { return false }
        let entry = entryName(for: file, isTexture: isTexture && suffix.isEmpty)
        let folder = PathArithmetic.directory(of: entryNames[anchor] ?? "")
        let written = assetPath.firstIndex(of: "[").map { String(assetPath[..<$0]) } ?? assetPath
        let writtenSuffix = assetPath.firstIndex(of: "[").map { String(assetPath[$0...]) } ?? ""
        if !written.hasPrefix("/"), PathArithmetic.normalizeBelow(PathArithmetic.join(folder, written)) == entry, writtenSuffix == suffix {
            return false
        }
        let relative = PathArithmetic.relative(from: folder, to: entry)
        let replacement = (assetPath.hasPrefix("./") && !relative.hasPrefix("../") ? "./" : "") + relative + suffix
        let rule: ARKitRule = converted[file] != nil ? .texture : .arkitPackageEncapsulation
        changes.append(ValidationChange(rule: rule, message: "@\(assetPath)@ now reads @\(replacement)@ in the package",
                                        location: SourceLocation(file: facts.name(anchor))))
        assetPath = replacement
        return true
    }

    // MARK: Bytes

    private mutating func original(_ location: AssetLocation) throws(AssetError) -> [UInt8] {
        if let bytes = originals[location] { return bytes }
        let bytes = try facts.readBytes(location)
        originals[location] = bytes
        return bytes
    }

    private mutating func serialize(_ index: Int) throws(AssetError) -> [UInt8] {
        let location = layers[index].location
        let original = try original(location)
        let name = entryNames[location] ?? ""
        let isCrate = Self.isCrate(original)
        let wantsCrate = Self.fileExtension(name) == "usdc" || (Self.fileExtension(name) == "usd" && isCrate)
        guard rewritten.contains(index) || wantsCrate != isCrate else { return original }
        if wantsCrate { return try USDCrateWriter.encode(layers[index]).bytes }
        return Array(USDAPrinter.print(layers[index]).utf8)
    }

    private func carry(_ location: AssetLocation) throws(AssetError) -> [UInt8] {
        if let png = converted[location] { return png }
        return try facts.readBytes(location)
    }

    /// What rebuilding did to the input package itself: its layout, and the entries left out.
    private mutating func noteRepackaging(kept: Set<String>) {
        guard let rootPackage, let facts = facts.packages.first(where: { $0.location == rootPackage }),
              case .success(let layout) = facts.layout else { return }
        let here = SourceLocation(file: self.facts.name(rootPackage))
        if layout.entries.contains(where: { $0.dataOffset % 64 != 0 }) {
            changes.append(ValidationChange(rule: .byteAlignment, message: "started every entry at a multiple of 64 bytes", location: here))
        }
        if layout.entries.contains(where: { $0.compressionMethod != 0 }) {
            changes.append(ValidationChange(rule: .compression, message: "stored every entry uncompressed", location: here))
        }
        let used = Set(entryNames.keys.compactMap { location -> String? in
            guard case .packageEntry(let package, let entry) = location, package == rootPackage else { return nil }
            return entry
        })
        let left = layout.entries.map(\.name).filter { !used.contains($0) }
        if !left.isEmpty {
            changes.append(ValidationChange(rule: .arkitFileExtension, message: "left out what the stage never reads: \(left.joined(separator: ", "))",
                                            location: here))
        }
    }

    // MARK: Names

    /// Paths the resolver gives are as the user wrote the input's (relative to the current folder
    /// or absolute); names are worked out on absolute ones.
    private static func absolute(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : PathArithmetic.join(FileManager.default.currentDirectoryPath, path)
        return PathArithmetic.normalize(joined) ?? joined
    }

    private static func isCrate(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Array("PXR-USDC".utf8)) }

    private static func entryOrPath(_ location: AssetLocation) -> String {
        switch location {
        case .file(let path): return path
        case .packageEntry(_, let entry): return entry
        }
    }

    private static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    private static func stem(of path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    private static func fileExtension(_ path: String) -> String { PackageRules.fileExtension(path) }
}
