import AssetCore
import Foundation

/// The role credentials a cloud machine's instance metadata service hands out, read as IMDSv2
/// asks: a session token first (`PUT /latest/api/token`), then the role's name and its keys with
/// that token. A service that refuses the token request (IMDSv1 only) is asked without one, as
/// the SDKs do; one that does not answer within a second is taken as absent.
enum InstanceMetadataCredentials {
    static let defaultEndpoint = URL(string: "http://169.254.169.254")!
    static let timeout = 1.0
    static let tokenSeconds = 21600
    private static let credentialsPath = "/latest/meta-data/iam/security-credentials/"

    /// The endpoint `AWS_EC2_METADATA_SERVICE_ENDPOINT` names, else the link-local one; nil when
    /// `AWS_EC2_METADATA_DISABLED` is true (no machine here has one, so the tests turn it off).
    static func endpoint(_ env: [String: String]) throws(AssetError) -> URL? {
        if env["AWS_EC2_METADATA_DISABLED"]?.lowercased() == "true" { return nil }
        guard let text = env["AWS_EC2_METADATA_SERVICE_ENDPOINT"] else { return defaultEndpoint }
        guard let url = URL(string: text.hasSuffix("/") ? String(text.dropLast()) : text), let scheme = url.scheme,
              ["http", "https"].contains(scheme), url.host != nil else {
            throw AssetError(.malformed("AWS_EC2_METADATA_SERVICE_ENDPOINT '\(text)' is not an http:// or https:// URL"))
        }
        return url
    }

    static func fetch(endpoint: URL) throws(AssetError) -> S3Credentials {
        let base = endpoint.absoluteString
        let service = "the instance metadata service at \(base)"
        var headers: [(String, String)] = []
        let token = try CredentialHTTP.send("PUT", base + "/latest/api/token", headers: [("X-aws-ec2-metadata-token-ttl-seconds", "\(tokenSeconds)")],
                                            seconds: timeout, service: service)
        if token.status == 200 {
            headers = [("X-aws-ec2-metadata-token", String(decoding: token.body, as: UTF8.self))]
        } else if ![403, 404, 405].contains(token.status) {
            throw AssetError(.io("\(service) refused a session token (HTTP \(token.status))"))
        }
        let roles = try CredentialHTTP.send("GET", base + credentialsPath, headers: headers, seconds: timeout, service: service)
        guard roles.status == 200 else {
            throw AssetError(.io("\(service) lists no role for this machine (HTTP \(roles.status)): attach an instance profile, or give keys"))
        }
        guard let role = String(decoding: roles.body, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init),
              !role.isEmpty, role.allSatisfy({ $0.isLetter || $0.isNumber || "+=,.@_-".contains($0) }) else {
            throw AssetError(.malformed("\(service) named no usable role"))
        }
        let answer = try CredentialHTTP.send("GET", base + credentialsPath + role, headers: headers, seconds: timeout, service: service)
        guard answer.status == 200 else { throw AssetError(.io("\(service) gave no credentials for role \(role) (HTTP \(answer.status))")) }
        let document: TemporaryCredentialsJSON
        do { document = try JSONDecoder().decode(TemporaryCredentialsJSON.self, from: Data(answer.body)) } catch {
            throw AssetError(.malformed("\(service) answered for role \(role) with no AccessKeyId and SecretAccessKey"))
        }
        if let code = document.Code, code != "Success" { throw AssetError(.io("\(service) says \(code) for role \(role)")) }
        return try document.credentials(from: service)
    }
}
