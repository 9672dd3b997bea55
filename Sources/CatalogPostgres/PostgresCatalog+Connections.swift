import AssetCatalog
import AssetCore
import Foundation
import PostgresNIO

/// How the PostgreSQL catalog runs its statements: each on a connection leased from the pool
/// under a watch (`leased`), reads in snapshots where several go together, writes in
/// transactions retried when the server picks them as a deadlock's victim, and every failure one
/// `AssetError` naming the database and what the server said.
extension PostgresCatalog {
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(AssetError) -> T {
        do { return try await leased(body) } catch {
            throw failure("catalog read failed", error)
        }
    }

    /// Several statements on one connection in one read-only snapshot.
    func readTogether<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(AssetError) -> T {
        do {
            return try await leased { connection in
                try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: self.logger)
                do {
                    let value = try await body(connection)
                    try await connection.query("COMMIT", logger: self.logger)
                    return value
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: self.logger)  // the original error is what is reported
                    throw error
                }
            }
        } catch {
            throw failure("catalog read failed", error)
        }
    }

    /// One transaction; run again (up to three times) when the server aborted it to break a
    /// deadlock or a serialization conflict, which only means another process got there first.
    @discardableResult
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(AssetError) -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await leased { connection in
                    try await connection.withTransaction(logger: self.logger) { connection in try await body(connection) }
                }
            } catch {
                if attempt < 3, let state = Self.sqlState(error), state == "40P01" || state == "40001" { continue }
                throw failure("catalog write failed", error)
            }
        }
    }

    func failure(_ what: String, _ error: any Error) -> AssetError {
        if let assetError = error as? AssetError { return assetError }
        var why = "\(what): \(Self.describe(error))"
        if Self.sqlState(error) == "57014" {
            why += " (a statement may run \(Self.seconds(settings.statementTimeoutSeconds)); statement_timeout in the connection string or --db-statement-timeout allows longer)"
        }
        return AssetError(.io(why), at: SourceLocation(file: location))
    }

    static func underlying(_ error: any Error) -> any Error {
        if let transaction = error as? PostgresTransactionError {
            return transaction.closureError ?? transaction.beginError ?? transaction.commitError ?? transaction.rollbackError ?? error
        }
        return error
    }

    static func sqlState(_ error: any Error) -> String? {
        (underlying(error) as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// The server's own message and SQL state, or what failed on the way to it (a refused
    /// connection, a bad password), instead of postgres-nio's debug dump.
    static func describe(_ error: any Error) -> String {
        let error = underlying(error)
        guard let psql = error as? PSQLError else { return "\(error)" }
        if let info = psql.serverInfo {
            var text = info[.message] ?? "server error"
            if let detail = info[.detail] { text += " (\(detail))" }
            if let state = info[.sqlState] { text += " [SQLSTATE \(state)]" }
            return text
        }
        if let underlying = psql.underlying, let problem = connectionProblem(underlying) { return problem }
        switch psql.code {
        case .serverClosedConnection: return "the server closed the connection"
        case .uncleanShutdown: return "the connection ended in the middle of an answer"
        case .clientClosedConnection: return "the connection was closed"
        default: return psql.underlying.map { "\(psql.code): \($0)" } ?? "\(psql.code)"
        }
    }

    /// What stopped a connection, in words: "connection refused", not SwiftNIO's nested dump.
    static func connectionProblem(_ error: any Error) -> String? {
        if let failed = error as? NIOConnectionError {
            if let first = failed.connectionErrors.first { return connectionProblem(first.error) ?? "\(first.error)" }
            return "cannot resolve \(failed.host)"
        }
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)).lowercased() }
        if let channel = error as? ChannelError, case .connectTimeout(let waited) = channel {
            return "no answer within \(seconds(Double(waited.nanoseconds) / 1e9)) (connect_timeout)"
        }
        return nil
    }
}

/// CatalogRecord through PostgreSQL's JSON functions: rows leave the server as `row_to_json` and
/// enter through `json_populate_record`, so the record's Codable conformance is the one column
/// list. PostgreSQL folds unquoted names to lower case; the keys are mapped both ways.
enum PostgresRecordJSON {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The record's property names by their lower-case column names.
    static let propertyNames: [String: String] = {
        let sample = CatalogRecord(id: "", root: "", kind: .model, format: .usda, byteSize: 0, contentHash: "", modifiedAt: 0, indexedAt: 0)
        var names: [String: String] = [:]
        for child in Mirror(reflecting: sample).children {
            if let label = child.label { names[label.lowercased()] = label }
        }
        return names
    }()

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .custom { path in Key(stringValue: path.last!.stringValue.lowercased()) }
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            let key = path.last!.stringValue
            return Key(stringValue: propertyNames[key] ?? key)
        }
        return decoder
    }()
}
