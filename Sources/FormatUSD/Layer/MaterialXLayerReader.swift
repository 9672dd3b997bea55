import AssetCore
import CLibXML2

/// A MaterialX document (`.mtlx`) as a layer, the way OpenUSD's usdMtlx file format presents one, so
/// `references = @materials.mtlx@</MaterialX/Materials/M_brick>` composes like any other layer arc:
/// each `surfacematerial` becomes `/MaterialX/Materials/<name>`, a Material holding the nodes and node
/// graphs its surface shader reaches (as `Shader` prims with `ND_<category>_<type>` ids, or their
/// `nodedef`, and `NodeGraph` prims with their interface inputs and outputs) and `outputs:mtlx:surface`.
/// Values keep their MaterialX types as USD's (`color3` -> `color3f`, `vector2` -> `float2`,
/// `filename` -> `asset` with its `colorspace` as `colorSpace` and the document's `fileprefix`).
///
/// Parsed with libxml2's tree reader, network access and entity expansion off; the element count and
/// depth are bounded, so a hostile document is an error, not a hang.
public enum MaterialXLayerReader {
    static let maxElements = 200_000
    static let maxDepth = 64

    /// Whether the bytes look like a MaterialX document rather than a usda or crate layer.
    /// An XML document (its first non-blank byte `<`) whose root is `<materialx>`: a usda layer
    /// starts `#usda`, so text mentioning MaterialX in its header is never taken for one.
    public static func isMaterialX(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(512), as: UTF8.self)
        guard head.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first == "<" else { return false }
        return head.contains("<materialx")
    }

    public static func parse(_ bytes: [UInt8], location: AssetLocation, name: String? = nil) throws(AssetError) -> USDLayer {
        var layer = USDLayer(location: location, name: name)
        let here = SourceLocation(file: layer.name)
        let root = try element(bytes, at: here)
        guard root.tag == "materialx" else {
            throw AssetError(.malformed("a MaterialX document's root element is <materialx>, not <\(root.tag)>"), at: here)
        }
        var translator = Translator(document: root, prefix: root.attributes["fileprefix"] ?? "")
        layer.metadata["defaultPrim"] = .string("MaterialX")
        var top = USDPrimSpec(specifier: .def, typeName: "", name: "MaterialX", line: root.line)
        var materials = USDPrimSpec(specifier: .def, typeName: "", name: "Materials", line: root.line)
        for node in root.children where node.attributes["type"] == "material" {
            materials.children.append(translator.material(node))
        }
        top.children = [materials]
        layer.rootPrims = [top]
        return layer
    }

    /// One XML element, its attributes and children; text content is not used by MaterialX.
    struct Element {
        var tag: String
        var attributes: [String: String]
        var children: [Element]
        var line: Int
    }

    private static func element(_ bytes: [UInt8], at here: SourceLocation) throws(AssetError) -> Element {
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOBLANKS.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { xmlReadMemory($0, Int32(clamping: buffer.count), "materialx.mtlx", nil, options) }
            }
        }
        guard let document else { throw AssetError(.malformed("not a well-formed XML document"), at: here) }
        defer { xmlFreeDoc(document) }
        guard let rootNode = xmlDocGetRootElement(document) else { throw AssetError(.malformed("the document has no root element"), at: here) }
        var count = 0
        var failure: AssetError?
        func convert(_ node: UnsafeMutablePointer<xmlNode>, depth: Int) -> Element? {
            count += 1
            guard count <= maxElements, depth <= maxDepth else {
                failure = failure ?? AssetError(.limitExceeded("the MaterialX document has more than \(maxElements) elements or nests deeper than \(maxDepth)"),
                                                at: SourceLocation(file: here.file, line: Int(xmlGetLineNo(node))))
                return nil
            }
            var attributes: [String: String] = [:]
            var attribute = node.pointee.properties
            while let a = attribute {
                // The value's text nodes, read in place (xmlGetProp's copy would need libxml2's global free hook).
                if let name = a.pointee.name {
                    var value = ""
                    var text = a.pointee.children
                    while let t = text {
                        if let content = t.pointee.content { value += String(cString: content) }
                        text = t.pointee.next
                    }
                    attributes[String(cString: name)] = value
                }
                attribute = a.pointee.next
            }
            var children: [Element] = []
            var child = node.pointee.children
            while let c = child, failure == nil {
                if c.pointee.type == XML_ELEMENT_NODE, let converted = convert(c, depth: depth + 1) { children.append(converted) }
                child = c.pointee.next
            }
            return Element(tag: node.pointee.name.map { String(cString: $0) } ?? "", attributes: attributes, children: children,
                           line: Int(xmlGetLineNo(node)))
        }
        let converted = convert(rootNode, depth: 0)
        if let failure { throw failure }
        return converted!
    }

    /// Builds the prims of each material, copying in the nodes and graphs its shader reaches.
    struct Translator {
        let topNodes: [String: Element]
        let graphs: [String: Element]
        let prefix: String

        init(document: Element, prefix: String) {
            var nodes: [String: Element] = [:], graphs: [String: Element] = [:]
            for child in document.children {
                guard let name = child.attributes["name"] else { continue }
                if child.tag == "nodegraph" { graphs[name] = child }
                else if !["nodedef", "output", "look", "collection", "geominfo", "typedef", "implementation", "propertyset", "variantset"].contains(child.tag),
                        child.attributes["type"] != "material" {
                    nodes[name] = child
                }
            }
            topNodes = nodes
            self.graphs = graphs
            self.prefix = prefix
        }

        mutating func material(_ element: Element) -> USDPrimSpec {
            let name = USDName.sanitize(element.attributes["name"] ?? "material")
            let path = "/MaterialX/Materials/\(name)"
            var prim = USDPrimSpec(specifier: .def, typeName: "Material", name: name, line: element.line)
            var included: Set<String> = []
            var pending: [String] = []
            var pendingGraphs: [String] = []
            for input in element.children where input.tag == "input" && input.attributes["name"] == "surfaceshader" {
                if let node = input.attributes["nodename"], topNodes[node] != nil {
                    prim.properties.append(.connection("outputs:mtlx:surface", "token", to: "\(path)/\(USDName.sanitize(node)).outputs:out"))
                    pending.append(node)
                }
            }
            // The nodes the surface reaches, each once.
            while let next = pending.popLast() {
                guard included.insert(next).inserted, let node = topNodes[next] else { continue }
                prim.children.append(shader(node, scope: path, graphScope: nil, reaching: &pending, graphs: &pendingGraphs))
            }
            var graphsDone: Set<String> = []
            while let next = pendingGraphs.popLast() {
                guard graphsDone.insert(next).inserted, let graph = graphs[next] else { continue }
                prim.children.append(nodeGraph(graph, scope: path))
            }
            return prim
        }

        private func nodeGraph(_ graph: Element, scope: String) -> USDPrimSpec {
            let name = USDName.sanitize(graph.attributes["name"] ?? "graph")
            let path = "\(scope)/\(name)"
            var prim = USDPrimSpec(specifier: .def, typeName: "NodeGraph", name: name, line: graph.line)
            var ignoredNodes: [String] = [], ignoredGraphs: [String] = []
            for child in graph.children {
                switch child.tag {
                case "input":
                    if let spec = property(child, namespace: "inputs", scope: path, graphScope: path, reaching: &ignoredNodes, graphs: &ignoredGraphs) {
                        prim.properties.append(spec)
                    }
                case "output":
                    guard let outputName = child.attributes["name"] else { continue }
                    let type = Self.usdType(child.attributes["type"] ?? "color3")
                    if let node = child.attributes["nodename"] {
                        let output = child.attributes["output"] ?? "out"
                        prim.properties.append(.connection("outputs:" + outputName, type, to: "\(path)/\(USDName.sanitize(node)).outputs:\(output)"))
                    } else if let interface = child.attributes["interfacename"] {
                        prim.properties.append(.connection("outputs:" + outputName, type, to: "\(path).inputs:\(interface)"))
                    } else {
                        prim.properties.append(.attribute("outputs:" + outputName, type, nil))
                    }
                default:
                    guard child.attributes["name"] != nil, child.attributes["type"] != nil else { continue }
                    prim.children.append(shader(child, scope: path, graphScope: path, reaching: &ignoredNodes, graphs: &ignoredGraphs))
                }
            }
            return prim
        }

        /// A node as a Shader prim: its id, its inputs, and an `outputs:out` of its type.
        private func shader(_ node: Element, scope: String, graphScope: String?, reaching: inout [String],
                            graphs: inout [String]) -> USDPrimSpec {
            let name = USDName.sanitize(node.attributes["name"] ?? node.tag)
            var prim = USDPrimSpec(specifier: .def, typeName: "Shader", name: name, line: node.line)
            let type = node.attributes["type"] ?? "color3"
            var id = node.attributes["nodedef"] ?? "ND_\(node.tag)_\(type)"
            if node.attributes["nodedef"] == nil, node.tag == "convert",
               let from = node.children.first(where: { $0.attributes["name"] == "in" })?.attributes["type"] {
                id = "ND_convert_\(from)_\(type)"
            }
            prim.properties.append(.attribute("info:id", "token", .string(id), uniform: true))
            for input in node.children where input.tag == "input" {
                if let spec = property(input, namespace: "inputs", scope: scope, graphScope: graphScope, reaching: &reaching, graphs: &graphs) {
                    prim.properties.append(spec)
                }
            }
            prim.properties.append(.attribute("outputs:out", type == "surfaceshader" ? "token" : Self.usdType(type), nil))
            return prim
        }

        /// An `<input>`: a value, or a connection to a node (`nodename`, `output`), a node graph's
        /// output (`nodegraph`, `output`) or the enclosing graph's interface (`interfacename`).
        private func property(_ input: Element, namespace: String, scope: String, graphScope: String?, reaching: inout [String],
                              graphs: inout [String]) -> USDPropertySpec? {
            guard let name = input.attributes["name"] else { return nil }
            let mxType = input.attributes["type"] ?? "float"
            let type = Self.usdType(mxType)
            let full = namespace + ":" + name
            if let node = input.attributes["nodename"] {
                if graphScope == nil { reaching.append(node) }
                return .connection(full, type, to: "\(scope)/\(USDName.sanitize(node)).outputs:\(input.attributes["output"] ?? "out")")
            }
            if let graph = input.attributes["nodegraph"] {
                graphs.append(graph)
                let output = input.attributes["output"] ?? "out"
                return .connection(full, type, to: "\(scope)/\(USDName.sanitize(graph)).outputs:\(output)")
            }
            if let interface = input.attributes["interfacename"], let graphScope {
                return .connection(full, type, to: "\(graphScope).inputs:\(interface)")
            }
            guard let text = input.attributes["value"] else { return .attribute(full, type, nil) }
            var metadata: [String: USDValue] = [:]
            if let space = input.attributes["colorspace"] { metadata["colorSpace"] = .string(space) }
            return .attribute(full, type, Self.value(text, type: mxType, prefix: prefix), metadata: metadata)
        }

        static func usdType(_ mx: String) -> String {
            ["float": "float", "integer": "int", "boolean": "bool", "string": "string", "filename": "asset", "color3": "color3f",
             "color4": "color4f", "vector2": "float2", "vector3": "float3", "vector4": "float4", "matrix33": "matrix3d",
             "matrix44": "matrix4d", "surfaceshader": "token", "displacementshader": "token", "volumeshader": "token"][mx] ?? "token"
        }

        static func value(_ text: String, type: String, prefix: String) -> USDValue {
            switch type {
            case "filename": return .asset(prefix + text)
            case "string": return .string(text)
            case "boolean": return .bool(text == "true")
            default:
                let numbers = text.split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { Double($0) }
                if numbers.count == 1 { return .number(numbers[0]) }
                return numbers.isEmpty ? .string(text) : .tuple(numbers)
            }
        }
    }
}
