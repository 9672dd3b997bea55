import Foundation
import Hummingbird
@testable import AssetService

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the server answered.
struct TestResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: ByteBuffer
}

/// An HTTP/1.1 client for tests: one connection per request (`Connection: close`), the request
/// sent exactly as written, so hostile paths (`/../`, `%2F`) reach the server unnormalised. It
/// uses plain sockets on threads of its own, never the pools the server's handlers need.
struct TestClient: Sendable {
    let port: Int

    func execute<T>(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:],
                    _ check: (TestResponse) async throws -> T) async throws -> T {
        var request = "\(method.rawValue) \(uri) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nContent-Length: 0\r\n"
        for field in headers { request += "\(field.name.rawName): \(field.value)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8), port = self.port
        // A thread of its own per request: blocking in recv on Dispatch's shared pool would starve
        // the server's own blocking work (rendering, converting) that runs there.
        let raw: [UInt8] = try await withCheckedThrowingContinuation { continuation in
            Thread {
                do { continuation.resume(returning: try Self.exchange(bytes, port: port)) } catch { continuation.resume(throwing: error) }
            }.start()
        }
        return try await check(try Self.parse(raw))
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    private static func exchange(_ request: [UInt8], port: Int) throws -> [UInt8] {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect: \(String(cString: strerror(errno)))") }
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            sent += n
        }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 { if errno == EINTR { continue }; throw Failure(description: "recv: \(String(cString: strerror(errno)))") }
            if n == 0 { return response }
            response += chunk[0..<n]
        }
    }

    /// Status line, headers, and the body by Content-Length or chunked transfer coding.
    private static func parse(_ raw: [UInt8]) throws -> TestResponse {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = (0..<max(raw.count - 3, 0)).first(where: { raw[$0..<$0 + 4].elementsEqual(separator) }) else {
            throw Failure(description: "no complete response head in \(raw.count) bytes")
        }
        let lines = String(decoding: raw[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = lines[0].split(separator: " ")
        guard statusWords.count >= 2, let code = Int(statusWords[1]) else { throw Failure(description: "bad status line '\(lines[0])'") }
        var headers = HTTPFields()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPFields.Element.Name(String(line[..<colon])) else { continue }
            headers.append(HTTPFields.Element(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var body = Array(raw[(end + 4)...])
        if headers[.transferEncoding]?.lowercased() == "chunked" { body = try dechunk(body) }
        return TestResponse(status: HTTPResponse.Status(code: code), headers: headers, body: ByteBuffer(bytes: body))
    }

    private static func dechunk(_ data: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while true {
            guard let lineEnd = (i..<max(data.count - 1, i)).first(where: { data[$0] == 13 && data[$0 + 1] == 10 }),
                  let size = Int(String(decoding: data[i..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16) else {
                throw Failure(description: "bad chunk header")
            }
            if size == 0 { return out }
            guard lineEnd + 2 + size <= data.count else { throw Failure(description: "truncated chunk") }
            out += data[(lineEnd + 2)..<(lineEnd + 2 + size)]
            i = lineEnd + 4 + size
        }
    }
}

/// Runs `server` on a loopback port the system picks, hands `body` a client for it, then stops it.
func withLiveServer(_ server: AssetServer, _ body: (TestClient) async throws -> Void) async throws {
    var configuration = server.configuration
    configuration.port = 0
    let live = AssetServer(catalog: server.catalog, configuration: configuration)
    let (ports, announce) = AsyncStream.makeStream(of: Int?.self)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await live.application { port in announce.yield(port) }.run() }
        var iterator = ports.makeAsyncIterator()
        guard let announced = await iterator.next(), let port = announced else {
            group.cancelAll()
            throw TestClient.Failure(description: "the server did not say which port it bound")
        }
        do {
            try await body(TestClient(port: port))
        } catch {
            group.cancelAll()
            throw error
        }
        group.cancelAll()
    }
}
