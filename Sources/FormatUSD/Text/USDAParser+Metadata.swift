import AssetCore

extension USDAParser {
    /// `( ... )` after the header.
    mutating func parseLayerMetadata() throws(AssetError) {
        _ = try tokens.next()
        while let (key, listOp, token) = try nextMetadataKey() {
            if key == "comment" && token.kind == .string { layer.metadata["comment"] = .string(tokens.text(of: token)); continue }
            if key == "subLayers" {
                let refs = try parseReferenceList()
                if listOp != "delete" { layer.subLayers.append(contentsOf: refs.map(\.assetPath)) }
                continue
            }
            layer.metadata[key] = try parseValue(nesting: 0)
        }
    }

    /// `( ... )` after a prim's name.
    mutating func parsePrimMetadata(into prim: inout USDPrimSpec) throws(AssetError) {
        _ = try tokens.next()
        while let (key, listOp, token) = try nextMetadataKey() {
            if key == "comment" && token.kind == .string { prim.metadata["comment"] = .string(tokens.text(of: token)); continue }
            switch key {
            case "references", "payload":
                let refs = try parseReferenceList()
                guard listOp != "delete" else { continue }
                if key == "references" {
                    prim.references = listOp == "prepend" ? refs + prim.references : prim.references + refs
                } else {
                    prim.payloads = listOp == "prepend" ? refs + prim.payloads : prim.payloads + refs
                }
            case "inherits", "specializes":
                let targets = try parseTargets()
                if listOp != "delete" { prim.inherits.append(contentsOf: targets) }
            case "variants":
                let start = try tokens.peek()
                guard case .dictionary(let entries) = try parseValue(nesting: 0) else {
                    throw tokens.malformed("variants must be a dictionary of selections", at: start)
                }
                for entry in entries {
                    if let selection = entry.value.stringValue { prim.variantSelections[entry.key] = selection }
                }
            default:
                let value = try parseValue(nesting: 0)
                if listOp != "delete" { prim.metadata[key] = value }
            }
        }
    }

    /// `( key = value ... )` as a plain dictionary (property metadata).
    mutating func parseMetadataDictionary() throws(AssetError) -> [String: USDValue] {
        _ = try tokens.next()
        var metadata: [String: USDValue] = [:]
        while let (key, _, token) = try nextMetadataKey() {
            if key == "comment" && token.kind == .string { metadata["comment"] = .string(tokens.text(of: token)); continue }
            metadata[key] = try parseValue(nesting: 0)
        }
        return metadata
    }

    /// Reads up to the next metadata key and its `=`; nil at the closing `)`. A bare string is the
    /// `comment` entry (Sdf's name for it; `doc = "..."` is documentation), returned with its
    /// token and no `=` consumed.
    mutating func nextMetadataKey() throws(AssetError) -> (key: String, listOp: String?, token: USDAToken)? {
        while true {
            var token = try tokens.next()
            if token.isPunctuation(")") { return nil }
            if token.isPunctuation(";") { continue }
            if token.kind == .string { return ("comment", nil, token) }
            guard token.kind == .identifier else {
                throw tokens.malformed("expected a metadata key or ')', found \(token.describe(in: tokens.bytes))", at: token)
            }
            var key = tokens.text(of: token)
            var listOp: String?
            if Self.listOpWords.contains(key), try tokens.peek().kind == .identifier {
                listOp = key
                token = try tokens.next()
                key = tokens.text(of: token)
            }
            try expect("=", after: "metadata key '\(key)'")
            return (key, listOp, token)
        }
    }

    /// `None`, one reference, or `[ ... ]` of them. A reference is `@asset@`, `@asset@</Prim>` or
    /// `</Prim>`, optionally followed by `( offset = ...; scale = ... )`, which is read and dropped
    /// because assetc evaluates a single time.
    mutating func parseReferenceList() throws(AssetError) -> [USDReference] {
        let token = try tokens.peek()
        if token.isIdentifier("None", in: tokens.bytes) { _ = try tokens.next(); return [] }
        if token.isPunctuation("[") {
            _ = try tokens.next()
            var refs: [USDReference] = []
            while true {
                let next = try tokens.peek()
                if next.isPunctuation("]") { _ = try tokens.next(); return refs }
                if next.isPunctuation(",") { _ = try tokens.next(); continue }
                refs.append(try parseReference())
            }
        }
        return [try parseReference()]
    }

    mutating func parseReference() throws(AssetError) -> USDReference {
        let token = try tokens.next()
        var reference: USDReference
        switch token.kind {
        case .asset:
            reference = USDReference(assetPath: tokens.text(of: token), primPath: nil, line: token.line)
            if try tokens.peek().kind == .path {
                let path = try tokens.next()
                reference.primPath = tokens.text(of: path)
            }
        case .path:
            reference = USDReference(assetPath: "", primPath: tokens.text(of: token), line: token.line)
        default:
            throw tokens.malformed("expected a reference (@asset@ or </path>), found \(token.describe(in: tokens.bytes))", at: token)
        }
        if try tokens.peek().isPunctuation("(") {
            _ = try parseMetadataDictionary()
        }
        return reference
    }
}
