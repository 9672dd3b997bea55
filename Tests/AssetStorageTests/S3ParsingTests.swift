import AssetCore
import AssetStorage
import Foundation
@testable import StorageS3
import Testing

/// S3's answers as SeaweedFS gave them (Tests/Fixtures/s3, made by its script), and the AWS files.
struct S3ParsingTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/s3")

    private func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
    }

    @Test func urlEncodedListingGivesTheKeysAsWritten() throws {
        let page = try S3Listing(try bytes("listing_url_encoded.xml"), prefix: "fixtures/", at: "s3://assets/fixtures")
        let keys = page.objects.map(\.key)
        #expect(keys.contains("a+b & c <d>.obj"))
        #expect(keys.contains("caf\u{e9}.glb") && keys.contains("cafe\u{301}.glb"))
        #expect(keys.filter { $0.utf8.elementsEqual("caf\u{e9}.glb".utf8) || $0.utf8.elementsEqual("cafe\u{301}.glb".utf8) }.count == 2)
        #expect(keys.contains("deep/tab\there.dae"))  // listed as it is; ObjectKey refuses it before use
        #expect(page.nextToken == nil)
        #expect(page.objects.allSatisfy { $0.etag.count == 32 && !$0.etag.contains("\"") && $0.modifiedAt > 1.7e9 })
    }

    @Test func truncatedListingCarriesItsToken() throws {
        let page = try S3Listing(try bytes("listing_truncated.xml"), prefix: "fixtures/", at: "s3://assets/fixtures")
        #expect(page.objects.count == 2)
        #expect(page.nextToken?.isEmpty == false)
    }

    @Test func keysOutsideThePrefixAreLeftOut() throws {
        let page = try S3Listing(try bytes("listing_url_encoded.xml"), prefix: "fixtures/deep/", at: "s3://assets/fixtures/deep")
        #expect(page.objects.map(\.key) == ["tab\there.dae"])
    }

    @Test func timesWithAndWithoutMilliseconds() throws {
        let xml = """
            <ListBucketResult><Contents><Key>a.usdz</Key><Size>3</Size><ETag>"x"</ETag><LastModified>2026-11-27T12:13:59.250Z</LastModified></Contents>\
            <Contents><Key>b.usdz</Key><Size>-5</Size><LastModified>2026-11-27T12:13:59Z</LastModified></Contents>\
            <Contents><Key>c.usdz</Key><LastModified>yesterday</LastModified></Contents></ListBucketResult>
            """
        let page = try S3Listing(Array(xml.utf8), prefix: "", at: "s3://a")
        #expect(page.objects.map(\.modifiedAt) == [1_795_781_639.25, 1_795_781_639, 0])
        #expect(page.objects.map(\.byteSize) == [3, 0, 0])
        #expect(page.objects[0].etag == "x")
    }

    @Test func headersDates() {
        #expect(S3Store.httpDate("Fri, 27 Nov 2026 12:13:59 GMT") == 1_795_781_639)
        #expect(S3Store.httpDate("Friday, 27-Nov-26 12:13:59 GMT") == nil)
        #expect(S3Store.httpDate("Fri, 27 Nov 2026 12:13:59 GMT trailing") == nil)
    }

    @Test func truncatedWithoutATokenIsAnError() {
        let xml = Array("<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>".utf8)
        #expect(throws: AssetError.self) { try S3Listing(xml, prefix: "", at: "s3://a") }
        #expect(throws: AssetError.self) { try S3Listing(Array("<Error/>".utf8), prefix: "", at: "s3://a") }
        #expect(throws: AssetError.self) { try S3Listing([], prefix: "", at: "s3://a") }
    }

    @Test func errorDocument() throws {
        let error = S3ErrorDocument(try bytes("error_no_such_key.xml"))
        #expect(error?.code == "NoSuchKey")
        #expect(error?.message == "The specified key does not exist.")
        #expect(S3ErrorDocument(try bytes("listing_truncated.xml")) == nil)
    }

    @Test func credentialsFromProfilesAndEnvironment() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("assetc-aws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }  // a test's temporary folder
        try """
            [default]
            aws_access_key_id = DEFAULTKEY
            aws_secret_access_key = defaultsecret
            # a comment
            [team]
            aws_access_key_id=TEAMKEY
            aws_secret_access_key=team/secret+1
            aws_session_token = TOKEN
            """.write(to: folder.appendingPathComponent("credentials"), atomically: true, encoding: .utf8)
        try """
            [profile team]
            region = eu-central-1
            s3 =
              endpoint_url = http://127.0.0.1:9000
            """.write(to: folder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        let base = ["HOME": folder.path, "AWS_SHARED_CREDENTIALS_FILE": folder.appendingPathComponent("credentials").path,
                    "AWS_CONFIG_FILE": folder.appendingPathComponent("config").path]
        let plain = try S3Settings.load(environment: base)
        #expect(plain.credentials.accessKeyId == "DEFAULTKEY")
        #expect(plain.region == "us-east-1" && plain.isAWS && plain.endpoint.absoluteString == "https://s3.us-east-1.amazonaws.com")
        let team = try S3Settings.load(environment: base.merging(["AWS_PROFILE": "team"]) { $1 })
        #expect(team.credentials.accessKeyId == "TEAMKEY" && team.credentials.secretAccessKey == "team/secret+1" && team.credentials.sessionToken == "TOKEN")
        #expect(team.region == "eu-central-1" && !team.isAWS && team.endpoint.absoluteString == "http://127.0.0.1:9000")
        #expect(!team.credentials.description.contains("team/secret"))
        let environment = try S3Settings.load(environment: base.merging(["AWS_ACCESS_KEY_ID": "ENVKEY", "AWS_SECRET_ACCESS_KEY": "envsecret",
                                                                          "AWS_ENDPOINT_URL_S3": "http://localhost:8333", "AWS_REGION": "auto"]) { $1 })
        #expect(environment.credentials.accessKeyId == "ENVKEY" && environment.region == "auto" && environment.endpoint.port == 8333)
        // The chain ends at the instance metadata service, as the SDKs' does; no machine here has one.
        #expect(throws: AssetError.self) { try S3Settings.load(environment: ["HOME": folder.appendingPathComponent("none").path, "AWS_EC2_METADATA_DISABLED": "true"]) }
        #expect(throws: AssetError.self) { try S3Settings.load(environment: base.merging(["AWS_ENDPOINT_URL": "ftp://x"]) { $1 }) }
    }
}
