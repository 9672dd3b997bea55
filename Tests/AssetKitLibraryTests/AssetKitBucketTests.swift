import AssetKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `import AssetKit` alone, given a `StoreOpener` of the library user's own, converts, validates,
/// renders and reports on an `s3://` prefix through the same `AssetSources` calls the CLI makes.
/// The bucket is a SeaweedFS server that `Tests/CrossCheck/test_library_bucket.py` starts with an
/// anonymous identity, fills, and names in `ASSETC_LIBRARY_S3_ENDPOINT`; it then runs this suite and
/// compares what it wrote (`ASSETC_LIBRARY_S3_REPORT`) with the CLI's output on the same objects.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["ASSETC_LIBRARY_S3_ENDPOINT"] != nil,
                "run by Tests/CrossCheck/test_library_bucket.py, which starts the server"))
struct AssetKitBucketTests {
    let endpoint = ProcessInfo.processInfo.environment["ASSETC_LIBRARY_S3_ENDPOINT"] ?? ""
    let reportPath = ProcessInfo.processInfo.environment["ASSETC_LIBRARY_S3_REPORT"] ?? "/dev/null"

    var stores: StoreOpener {
        let endpoint = endpoint
        return StoreOpener { text throws(AssetError) in
            switch try StorageLocation.parse(text) {
            case .local(let path): return LocalFileStore(root: path)
            case .bucket(let address): return AnonymousBucketStore(endpoint: endpoint, address: address)
            }
        }
    }

    @Test func convertsValidatesRendersAndReportsOnABucketPrefix() throws {
        // As `--asset-root s3://lib/library`: the room's props and their shared cube resolve under it.
        let sources = try AssetSources(stores: stores, assetRoot: "s3://lib/library")
        defer { sources.close() }

        var options = ConvertOptions()
        options.force = true
        let converted = try ConvertUseCase().run(input: "s3://lib/library/scenes/room.usda", output: "s3://lib/out/room.usdz",
                                                 options: options, sources: sources)
        #expect(converted.writtenFiles == ["s3://lib/out/room.usdz"])
        #expect(try AnonymousBucketStore(endpoint: endpoint, address: .init(bucket: "lib", prefix: "out")).head("room.usdz") != nil)

        let info = try InfoUseCase().run(location: "s3://lib/library/scenes/room.usda", sources: sources)
        #expect(info.info.file == "s3://lib/library/scenes/room.usda")
        #expect(info.info.triangles == 36, "the room's props and their shared cube resolve from the bucket")

        let (validator, files) = try ValidateUseCase().staged(["s3://lib/out/room.usdz", "s3://lib/library/props"], sources: sources)
        let outcomes = validator.run(files: files)
        #expect(outcomes.count == files.count && files.count >= 3)
        var verdicts: [String: Int] = [:]
        for outcome in outcomes {
            guard case .report(let report) = outcome else { Issue.record("\(outcome)"); continue }
            // Named by the validators as they read, with no mapping afterwards: the bucket, never the staging folder.
            #expect(outcome.file.hasPrefix("s3://lib/"), "\(outcome.file)")
            for finding in report.findings {
                #expect(!(finding.location.file ?? "").contains("assetc-stage") && !finding.message.contains("assetc-stage"), "\(finding)")
            }
            verdicts[outcome.file] = report.errorCount
        }
        #expect(verdicts["s3://lib/out/room.usdz"] == 0, "the converted package passes ARKit's rules: \(verdicts)")

        let (renderer, jobs, folder) = try ThumbnailUseCase().staged(["s3://lib/library/props"], output: "s3://lib/thumbs", sources: sources)
        let rendered = renderer.run(jobs, outputFolder: folder)
        #expect(!rendered.isEmpty && rendered.allSatisfy { $0.error == nil }, "\(rendered.compactMap(\.error))")
        #expect(rendered.flatMap(\.warnings).allSatisfy { !$0.description.contains("assetc-stage") }, "\(rendered.flatMap(\.warnings))")
        let uploaded = try sources.upload()
        #expect(uploaded.contains { $0.hasPrefix("s3://lib/thumbs/") && $0.hasSuffix(".png") }, "\(uploaded)")

        let report: [String: Any] = ["triangles": info.info.triangles, "file": info.info.file, "verdicts": verdicts,
                                     "thumbnails": uploaded.sorted()]
        try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]).write(to: URL(fileURLWithPath: reportPath))
    }
}

/// A bucket prefix read and written without signing, path-style, over URLSession: what a library
/// user might bring for a bucket open to this machine. Just enough of S3 for the test.
final class AnonymousBucketStore: ObjectStore, @unchecked Sendable {
    let endpoint: String
    let address: StorageLocation.BucketAddress

    init(endpoint: String, address: StorageLocation.BucketAddress) {
        self.endpoint = endpoint
        self.address = address
    }

    var location: String { address.description }
    var isLocal: Bool { false }

    private func url(_ key: String, query: String = "") -> URL {
        let full = ObjectKey.join(address.prefix, key)
        let encoded = full.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? full
        return URL(string: "\(endpoint)/\(address.bucket)/\(encoded)\(query.isEmpty ? "" : "?" + query)")!
    }

    private func send(_ request: URLRequest) throws(AssetError) -> (Int, Data, [AnyHashable: Any]) {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: (Int, Data, [AnyHashable: Any])?
        URLSession.shared.dataTask(with: request) { data, response, _ in
            if let http = response as? HTTPURLResponse { outcome = (http.statusCode, data ?? Data(), http.allHeaderFields) }
            done.signal()
        }.resume()
        done.wait()
        guard let outcome else { throw AssetError(.unavailable("\(endpoint) does not answer"), at: SourceLocation(file: location)) }
        return outcome
    }

    func list() throws(AssetError) -> [StoredObject] {
        let prefix = address.prefix.isEmpty ? "" : address.prefix + "/"
        var request = URLRequest(url: URL(string: "\(endpoint)/\(address.bucket)?list-type=2&prefix=\(prefix.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? prefix)")!)
        request.httpMethod = "GET"
        let (status, body, _) = try send(request)
        guard status == 200 else { throw AssetError(.io("listing answered \(status)"), at: SourceLocation(file: location)) }
        return ListingKeys.parse(body).map { StoredObject(key: String($0.key.dropFirst(prefix.count)), byteSize: $0.size, etag: $0.etag, modifiedAt: 0) }
    }

    func head(_ key: String) throws(AssetError) -> StoredObject? {
        var request = URLRequest(url: url(key))
        request.httpMethod = "HEAD"
        let (status, _, headers) = try send(request)
        guard status == 200 else { return nil }
        let size = (headers["Content-Length"] as? String).flatMap { Int64($0) } ?? 0
        let etag = ((headers["Etag"] ?? headers["ETag"]) as? String ?? "").replacingOccurrences(of: "\"", with: "")
        return StoredObject(key: key, byteSize: size, etag: etag, modifiedAt: 0)
    }

    func read(_ key: String, maxBytes: Int) throws(AssetError) -> [UInt8]? {
        let (status, body, _) = try send(URLRequest(url: url(key)))
        guard status == 200 else { return nil }
        guard body.count <= maxBytes else { throw AssetError(.limitExceeded("over \(maxBytes) bytes"), at: SourceLocation(file: name(of: key))) }
        return Array(body)
    }

    func read(_ key: String, range: Range<Int>, matching etag: String?) throws(AssetError) -> [UInt8]? {
        var request = URLRequest(url: url(key))
        request.setValue("bytes=\(range.lowerBound)-\(range.upperBound - 1)", forHTTPHeaderField: "Range")
        if let etag { request.setValue("\"\(etag)\"", forHTTPHeaderField: "If-Match") }
        let (status, body, _) = try send(request)
        guard status == 200 || status == 206 else { return nil }
        return Array(body)
    }

    func write(_ key: String, bytes: [UInt8], contentType: String) throws(AssetError) {
        var request = URLRequest(url: url(key))
        request.httpMethod = "PUT"
        request.httpBody = Data(bytes)
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        let (status, _, _) = try send(request)
        guard status == 200 else { throw AssetError(.io("PUT answered \(status)"), at: SourceLocation(file: name(of: key))) }
    }

    func remove(_ key: String) throws(AssetError) {
        var request = URLRequest(url: url(key))
        request.httpMethod = "DELETE"
        _ = try send(request)
    }

    func presignedURL(for key: String, expiresIn seconds: Int) throws(AssetError) -> String? { nil }
}

/// `<Contents><Key>…</Key><Size>…</Size><ETag>…</ETag></Contents>` of one ListObjectsV2 page.
final class ListingKeys: NSObject, XMLParserDelegate {
    private(set) var objects: [(key: String, size: Int64, etag: String)] = []
    private var text = "", key = "", size: Int64 = 0, etag = ""

    static func parse(_ data: Data) -> [(key: String, size: Int64, etag: String)] {
        let delegate = ListingKeys()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        parser.parse()
        return delegate.objects
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        switch name {
        case "Key": key = text
        case "Size": size = Int64(text) ?? 0
        case "ETag": etag = text.replacingOccurrences(of: "\"", with: "")
        case "Contents": objects.append((key, size, etag))
        default: break
        }
    }
}
