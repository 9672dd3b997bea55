/// Where in a source something was found: the file, and as much of line, column and element path
/// (`/Root/Head` for a USD prim, `library_geometries/geometry[@id=head]` for Collada) as is known.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var file: String?
    public var line: Int?
    public var column: Int?
    public var elementPath: String?

    public init(file: String? = nil, line: Int? = nil, column: Int? = nil, elementPath: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.elementPath = elementPath
    }

    public static let unknown = SourceLocation()

    public var isUnknown: Bool { file == nil && line == nil && column == nil && elementPath == nil }

    /// `file:line:column (element)`, the form compilers use so terminals and editors can jump to it.
    public var description: String {
        var text = file ?? ""
        if let line {
            text += (text.isEmpty ? "line " : ":") + String(line)
            if let column { text += ":" + String(column) }
        }
        if let elementPath {
            text += text.isEmpty ? elementPath : " (\(elementPath))"
        }
        return text
    }

    /// This location with the file filled in where the reader left it out.
    public func inFile(_ path: String) -> SourceLocation {
        var copy = self
        if copy.file == nil { copy.file = path }
        return copy
    }
}
