import AssetCore
import Foundation

/// Where a process's S3 credentials come from, found in the order the AWS SDKs look (botocore's
/// chain, less SSO and containers): keys in the environment; a web identity token traded with STS
/// (`AWS_WEB_IDENTITY_TOKEN_FILE` and `AWS_ROLE_ARN`, or the profile's `web_identity_token_file`
/// and `role_arn`, as Kubernetes service accounts give a pod); the profile's keys in the
/// credentials file; its `credential_process`; its keys in the config file; and last the instance
/// metadata service (IMDSv2), which cloud machines answer with their role's keys.
public enum S3CredentialSource: Sendable, Equatable {
    case fixed(S3Credentials)
    case webIdentity(tokenFile: String, roleArn: String, sessionName: String, stsEndpoint: URL)
    case process(command: String)
    case instanceMetadata(endpoint: URL)

    /// For messages: where the keys came from, never the keys.
    public var name: String {
        switch self {
        case .fixed: return "static keys"
        case .webIdentity(_, let role, _, let sts): return "web identity for \(role) through \(sts.absoluteString)"
        case .process: return "credential_process"
        case .instanceMetadata(let endpoint): return "the instance metadata service at \(endpoint.absoluteString)"
        }
    }
}

/// The credentials to sign with now: the source's, fetched again before they expire (temporary
/// credentials from STS, a process or the metadata service carry an expiration; static keys do
/// not). Several threads signing at once share one fetch.
public final class S3CredentialProvider: @unchecked Sendable {
    public let source: S3CredentialSource
    /// Refresh this long before expiry (the SDKs' 5 minutes), or at half the lifetime of
    /// credentials that live shorter than twice that.
    static let refreshMargin: TimeInterval = 300

    private let lock = NSLock()
    // Guarded by `lock`.
    private var held: S3Credentials?
    private var refreshAt: Date?

    public init(source: S3CredentialSource) {
        self.source = source
        if case .fixed(let credentials) = source { held = credentials }
    }

    /// Credentials good to sign with, fetched when none are held or the held ones are near expiry.
    public func current() throws(AssetError) -> S3Credentials {
        lock.lock()
        defer { lock.unlock() }
        if let held, refreshAt.map({ Date() < $0 }) ?? true { return held }
        let fresh = try fetch()
        held = fresh
        refreshAt = fresh.expiration.map { expiry in
            let lifetime = expiry.timeIntervalSinceNow
            return expiry.addingTimeInterval(-min(Self.refreshMargin, max(lifetime, 0) / 2))
        }
        return fresh
    }

    private func fetch() throws(AssetError) -> S3Credentials {
        switch source {
        case .fixed(let credentials): return credentials
        case .webIdentity(let tokenFile, let roleArn, let sessionName, let sts):
            return try WebIdentityCredentials.fetch(tokenFile: tokenFile, roleArn: roleArn, sessionName: sessionName, sts: sts)
        case .process(let command): return try ProcessCredentials.fetch(command: command)
        case .instanceMetadata(let endpoint): return try InstanceMetadataCredentials.fetch(endpoint: endpoint)
        }
    }
}

/// The JSON the metadata service and `credential_process` answer with (the same field names).
struct TemporaryCredentialsJSON: Decodable {
    var AccessKeyId: String
    var SecretAccessKey: String
    var Token: String?
    var SessionToken: String?
    var Expiration: String?
    var Version: Int?
    var Code: String?

    func credentials(from source: String) throws(AssetError) -> S3Credentials {
        var expiration: Date?
        if let text = Expiration {
            guard let date = ISO8601Time.date(text) else {
                throw AssetError(.malformed("\(source) gave an Expiration that is not an ISO 8601 time: '\(text)'"))
            }
            expiration = date
        }
        return S3Credentials(accessKeyId: AccessKeyId, secretAccessKey: SecretAccessKey, sessionToken: Token ?? SessionToken,
                             expiration: expiration)
    }
}

/// ISO 8601 times as AWS writes them, with or without fractional seconds.
enum ISO8601Time {
    static func date(_ text: String) -> Date? {
        let whole = ISO8601DateFormatter()
        if let date = whole.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}
