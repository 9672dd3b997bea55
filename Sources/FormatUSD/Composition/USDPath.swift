/// Sdf path arithmetic on strings: prim paths (`/World/Head`) and property paths
/// (`/World/Looks/Skin/Tex.outputs:rgb`).
enum USDPath {
    /// Makes `path` absolute against the prim `anchor`: `../Looks/Skin`, `Looks/Skin`, `.outputs:rgb`.
    static func absolute(_ path: String, anchor: String) -> String? {
        if path.hasPrefix("/") { return path }
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        // Only the last component can carry a property (`Tex.outputs:rgb`, `.outputs:rgb`).
        var property = ""
        if let last = parts.last, last != ".", last != "..", let dot = last.firstIndex(of: ".") {
            property = String(last[dot...])
            let prim = String(last[..<dot])
            if prim.isEmpty { parts.removeLast() } else { parts[parts.count - 1] = prim }
        }
        var components = anchor.split(separator: "/").map(String.init)
        for part in parts {
            if part == ".." {
                guard !components.isEmpty else { return nil }
                components.removeLast()
            } else if part != "." {
                components.append(part)
            }
        }
        return "/" + components.joined(separator: "/") + property
    }

    /// The prim part of a property path.
    static func primPath(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), let dot = path[slash...].firstIndex(of: ".") else { return path }
        return String(path[..<dot])
    }

    /// The property name of a property path, or nil for a prim path.
    static func propertyName(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/"), let dot = path[slash...].firstIndex(of: ".") else { return nil }
        return String(path[path.index(after: dot)...])
    }

    static func isPrefix(_ prefix: String, of path: String) -> Bool {
        if prefix == "/" { return path.hasPrefix("/") }
        guard path.hasPrefix(prefix) else { return false }
        let rest = path.dropFirst(prefix.count)
        return rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix(".")
    }
}

/// Maps paths from the namespace of the layer a spec came from into the stage's namespace,
/// one arc at a time (innermost reference first): a reference of `@head.usda@</Head>` onto
/// `/World/Head` maps `/Head/Looks/Skin` to `/World/Head/Looks/Skin`.
struct USDPathMapping: Sendable {
    var steps: [(source: String, target: String)] = []

    static let identity = USDPathMapping()

    func adding(source: String, target: String) -> USDPathMapping {
        USDPathMapping(steps: [(source, target)] + steps)
    }

    /// nil when the path lies outside what an arc brings in (USD drops such targets too).
    func map(_ path: String) -> String? {
        var current = path
        for step in steps {
            guard USDPath.isPrefix(step.source, of: current) else { return nil }
            current = step.target + current.dropFirst(step.source.count)
        }
        return current
    }
}
