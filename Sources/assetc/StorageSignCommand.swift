import ArgumentParser
import AssetCore
import Foundation
import StorageS3

/// Prints what the SigV4 signer makes of requests read as JSON, so tests can compare it with
/// botocore's signer request by request. Hidden: a tool for checking, not for users.
struct StorageSignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign", abstract: "Sign requests read as a JSON list on standard input (for cross-checks).", shouldDisplay: false)

    struct Case: Decodable {
        var method: String
        var scheme: String
        var host: String
        /// Already encoded, as it goes on the wire; else made from `bucket` and `key` as the client makes it.
        var path: String?
        var bucket: String?
        var key: String?
        var query: [[String]]
        var headers: [[String]]
        /// The payload as UTF-8 text.
        var payload: String
        /// Seconds since 1970.
        var time: Double
        var region: String
        var accessKey: String
        var secretKey: String
        var sessionToken: String?
        /// Presign instead, for this many seconds.
        var expires: Int?
    }

    struct Result: Encodable {
        var canonicalRequest: String
        var stringToSign: String
        var signature: String
        var url: String?
        var headers: [String: String]
    }

    func run() throws {
        let input = FileHandle.standardInput.readDataToEndOfFile()
        let cases: [Case]
        do { cases = try JSONDecoder().decode([Case].self, from: input) } catch {
            throw ExitStatus.fail(AssetError(.malformed("the cases are not a JSON list of requests: \(error)"), at: SourceLocation(file: "<stdin>")))
        }
        var results: [Result] = []
        for item in cases {
            let signer = SigV4Signer(credentials: S3Credentials(accessKeyId: item.accessKey, secretAccessKey: item.secretKey, sessionToken: item.sessionToken),
                                     region: item.region)
            let payload = Array(item.payload.utf8)
            let path = item.path ?? "/\(item.bucket ?? "")/" + SigV4Signer.uriEncode(item.key ?? "", keepSlash: true)
            let request = SigV4Signer.Request(method: item.method, host: item.host, path: path,
                                              query: item.query.map { ($0[0], $0.count > 1 ? $0[1] : "") },
                                              headers: item.headers.map { ($0[0], $0[1]) },
                                              payloadHash: item.expires == nil ? SigV4Signer.hexSHA256(payload) : SigV4Signer.unsignedPayload)
            let date = Date(timeIntervalSince1970: item.time)
            if let expires = item.expires {
                let (url, signed) = signer.presign(request, scheme: item.scheme, at: date, expiresIn: expires)
                results.append(Result(canonicalRequest: signed.canonicalRequest, stringToSign: signed.stringToSign, signature: signed.signature, url: url, headers: [:]))
            } else {
                let signed = signer.sign(request, at: date)
                results.append(Result(canonicalRequest: signed.canonicalRequest, stringToSign: signed.stringToSign, signature: signed.signature, url: nil,
                                      headers: Dictionary(signed.headers, uniquingKeysWith: { a, _ in a })))
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(results), as: UTF8.self))
    }
}
