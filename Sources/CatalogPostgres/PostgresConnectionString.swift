import AssetCatalog
import AssetCore
import Foundation
import PostgresNIO

/// A libpq-style connection string, `postgres://user:password@host:port/database?sslmode=...`,
/// read into postgres-nio's configuration. `?host=/run/postgresql` (or an empty host) connects
/// through the Unix socket in that folder, as libpq does.
struct PostgresConnectionString {
    enum TLSMode { case disable, prefer, require }

    var host: String?
    var socketPath: String?
    var port: Int
    var user: String
    var password: String?
    var database: String
    var tlsMode: TLSMode
    var tlsConfiguration: TLSConfiguration
    /// How long making a connection may take (libpq's `connect_timeout`).
    var connectTimeoutSeconds: Double
    /// How long the server lets one statement run (its `statement_timeout`, set at connection).
    var statementTimeoutSeconds: Double
    var poolSize: Int?
    /// The string with its password replaced, for messages and logs.
    var redacted: String

    static func fail(_ why: String) -> AssetError {
        AssetError(.malformed("\(why); expected postgres://user[:password]@host[:port]/database"), at: SourceLocation(file: "--db"))
    }

    init(_ string: String) throws(AssetError) {
        guard let components = URLComponents(string: string), let scheme = components.scheme,
              scheme == "postgres" || scheme == "postgresql" else { throw Self.fail("not a PostgreSQL connection string") }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        user = components.user.flatMap { $0.removingPercentEncoding } ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        password = components.password.flatMap { $0.removingPercentEncoding }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        let port = components.port ?? query["port"].flatMap(Int.init) ?? 5432
        guard (1...65535).contains(port) else { throw Self.fail("port \(port) is out of range") }
        self.port = port
        let socketFolder = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((components.host ?? "").isEmpty ? "/var/run/postgresql" : nil)
        socketPath = socketFolder.map { "\($0)/.s.PGSQL.\(port)" }
        host = socketFolder == nil ? components.host : nil

        // libpq's modes: prefer and require encrypt without checking the certificate;
        // verify-ca and verify-full check it against the system's roots and the host name.
        tlsConfiguration = TLSConfiguration.makeClientConfiguration()
        switch query["sslmode"] ?? "prefer" {
        case "disable": tlsMode = .disable
        case "allow", "prefer":
            tlsConfiguration.certificateVerification = .none
            tlsMode = .prefer
        case "require":
            tlsConfiguration.certificateVerification = .none
            tlsMode = .require
        case "verify-ca", "verify-full": tlsMode = .require
        case let other:
            throw Self.fail("sslmode '\(other)' is not one of disable, allow, prefer, require, verify-ca, verify-full")
        }
        // A few seconds each: a command facing a database that went away says so promptly instead
        // of waiting on it, and nothing a catalog asks of a healthy server takes that long.
        connectTimeoutSeconds = try Self.seconds(query["connect_timeout"], name: "connect_timeout") ?? 5
        statementTimeoutSeconds = try Self.seconds(query["statement_timeout"], name: "statement_timeout") ?? 10
        poolSize = query["pool_size"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }

        var shown = components
        if shown.password != nil { shown.password = "***" }
        redacted = shown.string ?? "\(scheme)://..."
    }

    static func seconds(_ text: String?, name: String) throws(AssetError) -> Double? {
        guard let text else { return nil }
        guard let value = Double(text), value.isFinite, value > 0, value <= 86_400 else {
            throw fail("\(name) takes seconds, more than 0 and at most 86400, not '\(text)'")
        }
        return value
    }

    var connectTimeout: TimeAmount { .milliseconds(Int64((connectTimeoutSeconds * 1000).rounded(.up))) }

    /// Sent in the startup message, so it holds for every statement on the connection.
    var startupParameters: [(String, String)] {
        [("statement_timeout", String(Int64((statementTimeoutSeconds * 1000).rounded(.up))))]
    }

    /// The pool's configuration.
    var clientConfiguration: PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketPath {
            configuration = PostgresClient.Configuration(unixSocketPath: socketPath, username: user, password: password, database: database)
        } else {
            let tls: PostgresClient.Configuration.TLS = switch tlsMode {
            case .disable: .disable
            case .prefer: .prefer(tlsConfiguration)
            case .require: .require(tlsConfiguration)
            }
            configuration = PostgresClient.Configuration(host: host ?? "localhost", port: port, username: user, password: password,
                                                         database: database, tls: tls)
        }
        configuration.options.connectTimeout = .milliseconds(Int64((connectTimeoutSeconds * 1000).rounded(.up)))
        configuration.options.additionalStartupParameters = startupParameters
        if let poolSize { configuration.options.maximumConnections = poolSize }
        return configuration
    }

    /// One connection's configuration: the first connection is made alone, so a refused
    /// connection or a bad password is one error at once rather than a pool retrying in the dark.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketPath {
            configuration = PostgresConnection.Configuration(unixSocketPath: socketPath, username: user, password: password, database: database)
        } else {
            let tls: PostgresConnection.Configuration.TLS = switch tlsMode {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: tlsConfiguration))
            case .require: .require(try NIOSSLContext(configuration: tlsConfiguration))
            }
            configuration = PostgresConnection.Configuration(host: host ?? "localhost", port: port, username: user, password: password,
                                                             database: database, tls: tls)
        }
        configuration.options.connectTimeout = connectTimeout
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }
}
