import Foundation

/// One XML element as the SAX reader keeps it: a small tree for everything but the big arrays,
/// whose text is parsed into numbers as it streams in and never stored as text.
final class ColladaElement {
    let name: String
    let attributes: [(name: String, value: String)]
    let line: Int
    var children: [ColladaElement] = []
    /// Text content of non-numeric elements (`init_from`, `Name_array`, ...), capped.
    var text = ""
    /// Numbers of `float_array` (as Float, like every Collada reader keeps them).
    var floats: [Float] = []
    /// Numbers of transforms, colours and single values (`matrix`, `rotate`, `color`, `float`).
    var doubles: [Double] = []
    /// Numbers of `p`, `vcount`, `v`, `h`, `int_array`.
    var ints: [Int32] = []
    /// A token in numeric content that was not a number, with its line.
    var badNumber: (token: String, line: Int)?

    init(name: String, attributes: [(name: String, value: String)], line: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
    }

    subscript(attribute: String) -> String? {
        attributes.first { $0.name == attribute }?.value
    }

    func child(_ name: String) -> ColladaElement? {
        children.first { $0.name == name }
    }

    func children(_ name: String) -> [ColladaElement] {
        children.filter { $0.name == name }
    }

    /// The first descendant with this name, depth first.
    func descendant(_ name: String) -> ColladaElement? {
        var stack: [ColladaElement] = [self]
        while let element = stack.popLast() {
            for child in element.children.reversed() {
                if child.name == name { return child }
                stack.append(child)
            }
        }
        return nil
    }

    var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// How the SAX reader stores an element's text.
enum ColladaContentKind {
    case text
    case floats
    case doubles
    case ints

    static func of(_ name: String) -> ColladaContentKind {
        switch name {
        case "float_array": return .floats
        case "p", "vcount", "v", "h", "int_array": return .ints
        case "matrix", "translate", "rotate", "scale", "lookat", "skew", "bind_shape_matrix", "color", "float",
             "float2", "float3", "float4", "xfov", "yfov", "xmag", "ymag", "aspect_ratio", "znear", "zfar",
             "constant_attenuation", "linear_attenuation", "quadratic_attenuation", "falloff_angle", "falloff_exponent":
            return .doubles
        default: return .text
        }
    }
}
