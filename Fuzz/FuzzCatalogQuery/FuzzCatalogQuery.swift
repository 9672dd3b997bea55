import AssetCatalog
import AssetCore

/// libFuzzer entry point for the catalog's query language: any text must compile to SQL in both
/// dialects or fail with a located `AssetError` (never a crash or runaway recursion), and compiled
/// SQL must carry the user's text only as bound values: SQLite's text then holds exactly one `?`
/// per value, PostgreSQL's names `$1`...`$n` in order. Built only by `Scripts/fuzz query`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    let sqlite: CatalogQuery.Compiled
    do {
        sqlite = try CatalogQuery.compile(text, sort: "-triangles", limit: 10, offset: 3, dialect: .sqlite)
    } catch {
        // A clean, typed refusal is the expected outcome for most inputs.
        return 0
    }
    guard let postgres = try? CatalogQuery.compile(text, sort: "-triangles", limit: 10, offset: 3, dialect: .postgres) else {
        fatalError("compiles for SQLite but not for PostgreSQL: \(text)")
    }
    let marks = sqlite.sql.utf8.filter { $0 == UInt8(ascii: "?") }.count
    guard marks == sqlite.arguments.count, postgres.arguments == sqlite.arguments else {
        fatalError("\(marks) placeholders for \(sqlite.arguments.count) values: \(sqlite.sql)")
    }
    // Each of $1...$n once, in order, and no other `$` or `?`.
    let dollars = postgres.sql.utf8.filter { $0 == UInt8(ascii: "$") }.count
    guard dollars == postgres.arguments.count, !postgres.sql.contains("?") else { fatalError("stray placeholders: \(postgres.sql)") }
    var rest = Substring(postgres.sql)
    for n in stride(from: 1, through: postgres.arguments.count, by: 1) {
        guard let range = rest.range(of: "$\(n)") else { fatalError("$\(n) missing or out of order: \(postgres.sql)") }
        rest = rest[range.upperBound...]
    }
    return 0
}
