import AssetCore

/// Prints a `USDLayer` document as usda text: the inverse of `USDAParser`, so a layer printed and
/// parsed again is the same document. The scene writers build their layer once and hand it either
/// here or to `USDCrateWriter`; both encodings therefore say the same thing.
///
/// Layout follows what usd-core writes (four-space indent, metadata in parentheses after the
/// header, one property per line); long numeric arrays wrap so large meshes stay diffable.
public struct USDAPrinter {
    private(set) var text = ""
    private var indent = 0

    public static func print(_ layer: USDLayer) -> String {
        var printer = USDAPrinter()
        printer.printLayer(layer)
        return printer.text
    }

    private mutating func line(_ s: String) {
        text += String(repeating: "    ", count: indent) + s + "\n"
    }

    private mutating func printLayer(_ layer: USDLayer) {
        line("#usda 1.0")
        var entries = layer.metadata.keys.sorted().compactMap { key in layer.metadata[key].map { metadataEntry(key, $0) } }
        if !layer.subLayers.isEmpty {
            entries.append("subLayers = " + Self.list(layer.subLayers.map { USDAValueText.asset($0) }))
        }
        if !entries.isEmpty {
            line("(")
            indent += 1
            for entry in entries { line(entry) }
            indent -= 1
            line(")")
        }
        line("")
        for prim in layer.rootPrims { printPrim(prim) }
    }

    private mutating func printPrim(_ prim: USDPrimSpec) {
        var header = prim.specifier.rawValue
        if !prim.typeName.isEmpty { header += " " + prim.typeName }
        header += " " + USDAValueText.quoted(prim.name)
        printBlock(header, metadata: primMetadata(prim), body: prim)
    }

    /// A prim's or a variant's header, metadata and body.
    private mutating func printBlock(_ header: String, metadata: [String], body prim: USDPrimSpec) {
        if metadata.isEmpty {
            line(header)
        } else {
            line(header + " (")
            indent += 1
            for entry in metadata { line(entry) }
            indent -= 1
            line(")")
        }
        line("{")
        indent += 1
        for property in prim.properties { printProperty(property) }
        for child in prim.children { printPrim(child) }
        for setName in prim.variantSets.keys.sorted() {
            line("variantSet \(USDAValueText.quoted(setName)) = {")
            indent += 1
            let variants = prim.variantSets[setName] ?? [:]
            for name in variants.keys.sorted() {
                guard let body = variants[name] else { continue }
                printBlock(USDAValueText.quoted(name), metadata: primMetadata(body), body: body)
            }
            indent -= 1
            line("}")
        }
        indent -= 1
        line("}")
    }

    private func primMetadata(_ prim: USDPrimSpec) -> [String] {
        var entries: [String] = []
        for key in prim.metadata.keys.sorted() {
            // The variant sets a prim defines are listed from the sets themselves, below.
            if key == "variantSets" && !prim.variantSets.isEmpty { continue }
            guard let value = prim.metadata[key] else { continue }
            // The writers add schemas to whatever a stronger layer says, as usd-core's Apply does.
            entries.append(key == "apiSchemas" ? "prepend " + metadataEntry(key, value) : metadataEntry(key, value))
        }
        if !prim.references.isEmpty { entries.append("prepend references = " + Self.list(prim.references.map(Self.reference))) }
        if !prim.payloads.isEmpty { entries.append("prepend payload = " + Self.list(prim.payloads.map(Self.reference))) }
        if !prim.inherits.isEmpty { entries.append("prepend inherits = " + Self.list(prim.inherits.map { "<\($0)>" })) }
        if !prim.variantSets.isEmpty {
            // usd-core composes only the sets this list names.
            entries.append("prepend variantSets = " + Self.list(prim.variantSets.keys.sorted().map { USDAValueText.quoted($0) }))
        }
        if !prim.variantSelections.isEmpty {
            let selections = prim.variantSelections.keys.sorted().map { "string \($0) = \(USDAValueText.quoted(prim.variantSelections[$0] ?? ""))" }
            entries.append("variants = { " + selections.joined(separator: "; ") + " }")
        }
        return entries
    }

    private static func reference(_ reference: USDReference) -> String {
        let asset = reference.assetPath.isEmpty ? "" : USDAValueText.asset(reference.assetPath)
        return asset + (reference.primPath.map { "<\($0)>" } ?? "")
    }

    /// `key = value`, with the value spelled by its metadata type (a bare string is a comment).
    private func metadataEntry(_ key: String, _ value: USDValue) -> String {
        if key == "comment", case .string(let s) = value { return USDAValueText.quoted(s) }
        return "\(key) = " + USDAValueText.untyped(value)
    }

    private mutating func printProperty(_ property: USDPropertySpec) {
        let variability = property.isUniform && !property.isRelationship ? "uniform " : ""
        let declaration = property.isRelationship ? "rel \(property.name)" : "\(variability)\(property.typeName) \(property.name)"
        let metadata = property.metadata.keys.sorted().compactMap { key in property.metadata[key].map { metadataEntry(key, $0) } }
        var statements: [String] = []
        if property.isRelationship {
            statements.append(declaration + (property.targets.map { " = " + Self.targets($0) } ?? ""))
        } else {
            if let value = property.defaultValue {
                statements.append(declaration + " = " + USDAValueText.typed(value, typeName: property.typeName))
            }
            if let samples = property.timeSamples {
                let body = samples.map { "\(NumberText.double($0.time)): \(USDAValueText.typed($0.value, typeName: property.typeName))" }
                statements.append(declaration + ".timeSamples = { " + body.joined(separator: ", ") + " }")
            }
            if let targets = property.targets { statements.append(declaration + ".connect = " + Self.targets(targets)) }
            if statements.isEmpty { statements.append(declaration) }
        }
        for (i, statement) in statements.enumerated() {
            // Metadata belongs to the property, not a statement; it rides on the last one.
            guard i == statements.count - 1, !metadata.isEmpty else { line(statement); continue }
            line(statement + " (")
            indent += 1
            for entry in metadata { line(entry) }
            indent -= 1
            line(")")
        }
    }

    private static func targets(_ paths: [String]) -> String {
        paths.count == 1 ? "<\(paths[0])>" : "[" + paths.map { "<\($0)>" }.joined(separator: ", ") + "]"
    }

    private static func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }
}
