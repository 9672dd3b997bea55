import Foundation
import AssetCore

/// The query language of `assetc query`, compiled to parameterised SQL. User text never reaches
/// the SQL: field names map through a fixed table, and every value is a bound argument.
///
///     expression := or
///     or         := and ("or" and)*
///     and        := not ("and" not)*
///     not        := "not" not | "(" or ")" | comparison
///     comparison := FIELD ("=" | "!=" | "<" | "<=" | ">" | ">=" | "~") VALUE
///     VALUE      := number | word | "quoted" | 'quoted' | null
///
/// `~` means "contains", ignoring case; `=` and `!=` on text ignore case too. One expression compiles
/// to SQLite's or PostgreSQL's dialect with the same meaning: text columns compare byte by byte on
/// both (PostgreSQL's are declared `COLLATE "C"`), and case is ignored through `COLLATE NOCASE` and
/// `LIKE` on SQLite, `lower()` and `ILIKE` on PostgreSQL.
public enum CatalogQuery {
    public enum Dialect: Sendable { case sqlite, postgres }

    enum FieldType { case number, text }

    struct Field {
        var sql: String
        var type: FieldType
    }

    static let fields: [String: Field] = {
        var f: [String: Field] = [
            "id": Field(sql: "asset.id", type: .text), "path": Field(sql: "asset.id", type: .text),
            "kind": Field(sql: "asset.kind", type: .text), "format": Field(sql: "asset.format", type: .text),
            "size": Field(sql: "asset.byteSize", type: .number), "bytes": Field(sql: "asset.byteSize", type: .number),
            "hash": Field(sql: "asset.contentHash", type: .text),
            "upaxis": Field(sql: "asset.upAxis", type: .text), "metersperunit": Field(sql: "asset.metersPerUnit", type: .number),
            "missingtextures": Field(sql: "asset.missingTextures", type: .number),
            "warnings": Field(sql: "asset.warningCount", type: .number),
            "arkiterrors": Field(sql: "asset.arkitErrors", type: .number), "arkitwarnings": Field(sql: "asset.arkitWarnings", type: .number),
            "error": Field(sql: "asset.error", type: .text),
            "modified": Field(sql: "asset.modifiedAt", type: .number),
            "sizex": Field(sql: "(asset.maxXMeters - asset.minXMeters)", type: .number),
            "sizey": Field(sql: "(asset.maxYMeters - asset.minYMeters)", type: .number),
            "sizez": Field(sql: "(asset.maxZMeters - asset.minZMeters)", type: .number),
        ]
        for name in ["nodes", "meshes", "points", "faces", "triangles", "primitives", "materials", "textures"] + CatalogRecord.animationColumns
            + ["duration", "splats", "splatSHDegree"] {
            f[name.lowercased()] = Field(sql: "asset.\(name)", type: .number)
        }
        return f
    }()

    /// Field names as users write them, for help and errors.
    public static let fieldNames = ["id", "path", "name", "kind", "format", "size", "hash", "nodes", "meshes", "points", "faces",
                                    "triangles", "primitives", "materials", "textures", "upAxis", "metersPerUnit",
                                    "missingTextures", "warnings", "error", "modified", "sizeX", "sizeY", "sizeZ",
                                    "skeletons", "joints", "skinnedMeshes", "blendShapes", "animations", "animatedNodes", "duration",
                                    "splats", "splatSHDegree",
                                    "arkitErrors", "arkitWarnings", "rule"]

    /// Bounds on what one expression may ask, checked by the parser itself so that neither its own
    /// recursion nor SQLite's expression-depth limit (1,000) is what stops a hostile query: past
    /// them a query is a located "malformed" error (HTTP 400), never a crash or a 500.
    public static let maxLength = 8_192
    public static let maxNesting = 32
    public static let maxComparisons = 256

    /// A value bound to a placeholder; user text reaches the database only this way.
    public enum Value: Sendable, Equatable {
        case integer(Int)
        case real(Double)
        case text(String)
    }

    public struct Compiled: Sendable {
        public var sql: String
        public var arguments: [Value]
        /// The ORDER BY terms alone (over `asset.`), for a caller that wraps the query.
        public var order: String = ""
    }

    /// The bound values and the placeholders that name them (`?` on SQLite, `$1`... on PostgreSQL).
    struct Arguments {
        let dialect: Dialect
        var values: [Value] = []

        mutating func bind(_ value: Value) -> String {
            values.append(value)
            return dialect == .sqlite ? "?" : "$\(values.count)"
        }
    }

    public static func compile(_ expression: String, sort: String? = nil, limit: Int? = nil, offset: Int = 0,
                               dialect: Dialect = .sqlite) throws(AssetError) -> Compiled {
        guard expression.utf8.count <= maxLength else {
            throw malformed("the expression is \(expression.utf8.count) bytes; at most \(maxLength) are accepted", 1)
        }
        var parser = Parser(tokens: try Lexer.tokens(expression))
        var arguments = Arguments(dialect: dialect)
        var sql = "SELECT asset.* FROM asset"
        if !parser.atEnd {
            let condition = try parser.parseOr(&arguments)
            if let extra = parser.peek { throw malformed("unexpected \(extra.describe) after the expression", extra.column) }
            sql += " WHERE " + condition
        }
        let orderBy = try order(sort)
        sql += " ORDER BY " + orderBy
        if let limit {
            guard limit > 0 else { throw AssetError(.malformed("--limit takes a positive number")) }
            sql += " LIMIT " + arguments.bind(.integer(limit))
        }
        if offset > 0 {
            // SQLite takes OFFSET only after a LIMIT; -1 is none.
            if limit == nil && dialect == .sqlite { sql += " LIMIT -1" }
            sql += " OFFSET " + arguments.bind(.integer(offset))
        }
        return Compiled(sql: sql, arguments: arguments.values, order: orderBy)
    }

    static func order(_ sort: String?) throws(AssetError) -> String {
        guard let sort, !sort.isEmpty else { return "asset.id" }
        let descending = sort.hasPrefix("-")
        let name = descending ? String(sort.dropFirst()) : sort
        guard let field = fields[name.lowercased()] else {
            throw AssetError(.malformed("cannot sort by '\(name)'; fields: \(fieldNames.filter { $0 != "name" && $0 != "rule" }.joined(separator: ", "))"))
        }
        return "\(field.sql) \(descending ? "DESC" : "ASC") NULLS LAST, asset.id"
    }

    static func malformed(_ message: String, _ column: Int) -> AssetError {
        AssetError(.malformed(message), at: SourceLocation(file: "query", line: 1, column: column))
    }

    // MARK: Lexer

    struct Token {
        enum Kind: Equatable { case word, number, string, op, open, close }
        var kind: Kind
        var text: String
        var column: Int

        var describe: String { kind == .string ? "\"\(text)\"" : "'\(text)'" }
    }

    enum Lexer {
        static func tokens(_ source: String) throws(AssetError) -> [Token] {
            let chars = Array(source)
            var tokens: [Token] = []
            var i = 0
            while i < chars.count {
                let c = chars[i]
                let column = i + 1
                if c.isWhitespace { i += 1; continue }
                if c == "(" || c == ")" { tokens.append(Token(kind: c == "(" ? .open : .close, text: String(c), column: column)); i += 1; continue }
                if "=<>!~".contains(c) {
                    var op = String(c)
                    if i + 1 < chars.count, chars[i + 1] == "=", c != "=" && c != "~" { op.append("="); i += 1 }
                    guard op != "!" else { throw malformed("'!' must be followed by '='", column) }
                    tokens.append(Token(kind: .op, text: op, column: column))
                    i += 1
                    continue
                }
                if c == "\"" || c == "'" {
                    var text = ""
                    i += 1
                    while true {
                        guard i < chars.count else { throw malformed("string is never closed", column) }
                        if chars[i] == c {
                            // A doubled quote stands for itself, as in SQL.
                            if i + 1 < chars.count, chars[i + 1] == c { text.append(c); i += 2; continue }
                            i += 1
                            break
                        }
                        text.append(chars[i])
                        i += 1
                    }
                    tokens.append(Token(kind: .string, text: text, column: column))
                    continue
                }
                var text = ""
                while i < chars.count, !chars[i].isWhitespace, !"()=<>!~\"'".contains(chars[i]) { text.append(chars[i]); i += 1 }
                guard !text.isEmpty else { throw malformed("unexpected '\(c)'", column) }
                tokens.append(Token(kind: Double(text) != nil ? .number : .word, text: text, column: column))
            }
            return tokens
        }
    }

    // MARK: Parser

    struct Parser {
        var tokens: [Token]
        var position = 0
        /// Parentheses and `not`s open around the current position.
        var nesting = 0
        var comparisons = 0

        var atEnd: Bool { position >= tokens.count }
        var peek: Token? { atEnd ? nil : tokens[position] }

        func isOpening(_ token: Token) -> Bool {
            token.kind == .open || (token.kind == .word && token.text.lowercased() == "not")
        }

        func isKeyword(_ word: String) -> Bool {
            guard let t = peek, t.kind == .word else { return false }
            return t.text.lowercased() == word
        }

        mutating func parseOr(_ args: inout Arguments) throws(AssetError) -> String {
            var parts = [try parseAnd(&args)]
            while isKeyword("or") { position += 1; parts.append(try parseAnd(&args)) }
            return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " OR ") + ")"
        }

        mutating func parseAnd(_ args: inout Arguments) throws(AssetError) -> String {
            var parts = [try parseNot(&args)]
            while isKeyword("and") { position += 1; parts.append(try parseNot(&args)) }
            return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " AND ") + ")"
        }

        mutating func parseNot(_ args: inout Arguments) throws(AssetError) -> String {
            guard let token = peek else { throw CatalogQuery.malformed("the expression ends where a comparison should be", (tokens.last?.column ?? 0) + 1) }
            if isKeyword("not") || token.kind == .open {
                guard nesting < CatalogQuery.maxNesting else {
                    throw CatalogQuery.malformed("parentheses and 'not' nest at most \(CatalogQuery.maxNesting) levels deep", token.column)
                }
                nesting += 1
            }
            defer { if isOpening(token) { nesting -= 1 } }
            if isKeyword("not") { position += 1; return "NOT (" + (try parseNot(&args)) + ")" }
            if token.kind == .open {
                position += 1
                let inner = try parseOr(&args)
                guard let close = peek, close.kind == .close else {
                    throw CatalogQuery.malformed("'(' is never closed", token.column)
                }
                _ = close
                position += 1
                return "(" + inner + ")"
            }
            return try parseComparison(&args)
        }

        mutating func parseComparison(_ args: inout Arguments) throws(AssetError) -> String {
            let fieldToken = peek!
            comparisons += 1
            guard comparisons <= CatalogQuery.maxComparisons else {
                throw CatalogQuery.malformed("an expression holds at most \(CatalogQuery.maxComparisons) comparisons", fieldToken.column)
            }
            guard fieldToken.kind == .word else { throw CatalogQuery.malformed("expected a field name, found \(fieldToken.describe)", fieldToken.column) }
            position += 1
            let key = fieldToken.text.lowercased()
            guard key == "name" || key == "rule" || CatalogQuery.fields[key] != nil else {
                throw CatalogQuery.malformed("unknown field '\(fieldToken.text)'; fields: \(CatalogQuery.fieldNames.joined(separator: ", "))", fieldToken.column)
            }
            guard let opToken = peek, opToken.kind == .op else {
                throw CatalogQuery.malformed("expected an operator (= != < <= > >= ~) after '\(fieldToken.text)'", peek?.column ?? fieldToken.column + fieldToken.text.count)
            }
            position += 1
            guard let valueToken = peek, [.word, .number, .string].contains(valueToken.kind) else {
                throw CatalogQuery.malformed("expected a value after '\(opToken.text)'", peek?.column ?? opToken.column + 1)
            }
            position += 1
            let isNull = valueToken.kind == .word && valueToken.text.lowercased() == "null"
            if key == "name" { return try nameCondition(opToken, valueToken, &args) }
            if key == "rule" { return try ruleCondition(opToken, valueToken, &args) }
            let field = CatalogQuery.fields[key]!
            if isNull {
                switch opToken.text {
                case "=": return "\(field.sql) IS NULL"
                case "!=": return "\(field.sql) IS NOT NULL"
                default: throw CatalogQuery.malformed("null takes = or !=", opToken.column)
                }
            }
            switch field.type {
            case .number:
                guard valueToken.kind == .number, let number = Double(valueToken.text) else {
                    throw CatalogQuery.malformed("'\(fieldToken.text)' takes a number, not \(valueToken.describe)", valueToken.column)
                }
                guard opToken.text != "~" else { throw CatalogQuery.malformed("'~' compares text; '\(fieldToken.text)' is a number", opToken.column) }
                return "\(field.sql) \(opToken.text) \(args.bind(.real(number)))"
            case .text:
                switch opToken.text {
                case "~": return Self.contains(field.sql, valueToken.text, &args)
                case "=", "!=": return Self.equalIgnoringCase(field.sql, opToken.text, valueToken.text, &args)
                default: return "\(field.sql) \(opToken.text) \(args.bind(.text(valueToken.text)))"
                }
            }
        }

        /// `column` contains `text`, ignoring (ASCII) case: SQLite's LIKE does, PostgreSQL's ILIKE.
        static func contains(_ column: String, _ text: String, _ args: inout Arguments) -> String {
            let pattern = args.bind(.text("%" + likeEscaped(text) + "%"))
            return "\(column) \(args.dialect == .sqlite ? "LIKE" : "ILIKE") \(pattern) ESCAPE '\\'"
        }

        /// `column` ends with `/text`, ignoring case.
        static func endsWithPathComponent(_ column: String, _ text: String, _ args: inout Arguments) -> String {
            let pattern = args.bind(.text("%/" + likeEscaped(text)))
            return "\(column) \(args.dialect == .sqlite ? "LIKE" : "ILIKE") \(pattern) ESCAPE '\\'"
        }

        static func equalIgnoringCase(_ column: String, _ op: String, _ text: String, _ args: inout Arguments) -> String {
            let value = args.bind(.text(text))
            return args.dialect == .sqlite ? "\(column) \(op) \(value) COLLATE NOCASE" : "lower(\(column)) \(op) lower(\(value))"
        }

        /// `name` matches the file's own path or any node path or material name.
        mutating func nameCondition(_ op: Token, _ value: Token, _ args: inout Arguments) throws(AssetError) -> String {
            switch op.text {
            case "~":
                let own = Self.contains("asset.id", value.text, &args)
                return "(\(own) OR EXISTS (SELECT 1 FROM assetName n WHERE n.assetId = asset.id AND \(Self.contains("n.name", value.text, &args))))"
            case "=", "!=":
                let equal = Self.equalIgnoringCase("n.name", "=", value.text, &args)
                let suffix = Self.endsWithPathComponent("n.name", value.text, &args)
                let test = "EXISTS (SELECT 1 FROM assetName n WHERE n.assetId = asset.id AND (\(equal) OR \(suffix)))"
                return op.text == "=" ? test : "NOT " + test
            default:
                throw CatalogQuery.malformed("'name' takes =, != or ~", op.column)
            }
        }

        /// `rule` matches the ARKit rules an asset fails: `rule = ARKitShaderChecker`.
        mutating func ruleCondition(_ op: Token, _ value: Token, _ args: inout Arguments) throws(AssetError) -> String {
            switch op.text {
            case "~":
                return "EXISTS (SELECT 1 FROM assetRule r WHERE r.assetId = asset.id AND \(Self.contains("r.rule", value.text, &args)))"
            case "=", "!=":
                let test = "EXISTS (SELECT 1 FROM assetRule r WHERE r.assetId = asset.id AND \(Self.equalIgnoringCase("r.rule", "=", value.text, &args)))"
                return op.text == "=" ? test : "NOT " + test
            default:
                throw CatalogQuery.malformed("'rule' takes =, != or ~", op.column)
            }
        }

        static func likeEscaped(_ s: String) -> String {
            s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        }
    }
}
