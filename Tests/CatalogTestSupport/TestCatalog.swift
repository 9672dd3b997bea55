import AssetCatalog
import CatalogEngines
import CatalogSQLite
import Foundation
import GRDB

/// The two engines every catalog and service test runs on.
public enum CatalogBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres
    public var description: String { rawValue }
}

/// Empty catalogs for tests. A PostgreSQL one is a new database on the server `Scripts/test`
/// starts (`ASSETC_TEST_POSTGRES`, from Scripts/lib/postgres.sh), so tests never share rows.
public enum TestCatalog {
    public struct NoServer: Error, CustomStringConvertible {
        public let description = "no PostgreSQL server for the tests: run Scripts/test, which starts one, or set ASSETC_TEST_POSTGRES=postgres://..."
    }

    public struct CommandFailed: Error, CustomStringConvertible {
        public let description: String
    }

    public static var serverURL: String? {
        ProcessInfo.processInfo.environment["ASSETC_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A catalog whose `folder` (thumbnails, conversions) is `folder`: a SQLite file in it, or a
    /// fresh PostgreSQL database with `folder` as its thumbnail store.
    public static func make(_ backend: CatalogBackend, folder: String) async throws -> any Catalog {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        switch backend {
        case .sqlite:
            return try SQLiteCatalog(path: (folder as NSString).appendingPathComponent("catalog.sqlite"))
        case .postgres:
            return try await CatalogDatabase.open(try newDatabase(), thumbnailStore: folder)
        }
    }

    /// A second connection to the same catalog, as another process would open it.
    public static func reopen(_ catalog: any Catalog) async throws -> any Catalog {
        if let sqlite = catalog as? SQLiteCatalog { return try SQLiteCatalog(path: sqlite.path) }
        // Test databases have no password, so the shown location is the whole connection string.
        return try await CatalogDatabase.open(catalog.location, thumbnailStore: catalog.folder)
    }

    /// The connection string of a new, empty database on the test server. Each test's pool is kept
    /// small: a suite opens dozens of catalogs on one server.
    public static func newDatabase() throws -> String {
        guard let server = serverURL, var components = URLComponents(string: server) else { throw NoServer() }
        let name = "assetc_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try psql(server, "CREATE DATABASE \(name)")
        components.path = "/" + name
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "pool_size", value: "4")]
        return components.string!
    }

    /// Runs one SQL statement on a catalog's database behind its back, as another program (or a
    /// person with a SQL prompt) would: for rows no assetc writes.
    public static func execute(_ sql: String, on catalog: any Catalog) throws {
        if let sqlite = catalog as? SQLiteCatalog {
            let queue = try DatabaseQueue(path: sqlite.path)
            try queue.write { try $0.execute(sql: sql) }
            try queue.close()
        } else {
            // psql refuses the pool options assetc's own connection strings may carry.
            guard var components = URLComponents(string: catalog.location) else { throw CommandFailed(description: "not a URL: \(catalog.location)") }
            components.queryItems = components.queryItems?.filter { $0.name != "pool_size" }
            if components.queryItems?.isEmpty == true { components.queryItems = nil }
            try psql(components.string ?? catalog.location, sql)
        }
    }

    /// Runs one statement with psql, the server's own client.
    public static func psql(_ url: String, _ statement: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", statement]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailed(description: "psql \(statement): \(String(decoding: message, as: UTF8.self))")
        }
    }
}
