import AssetCore
import Foundation

/// An access key, found as the AWS tools find one (`S3CredentialSource`). The secret never
/// appears in a description, a message or a log.
public struct S3Credentials: Sendable, Equatable, CustomStringConvertible {
    public var accessKeyId: String
    public var secretAccessKey: String
    public var sessionToken: String?
    /// When temporary credentials stop working; nil for long-lived keys.
    public var expiration: Date?

    public init(accessKeyId: String, secretAccessKey: String, sessionToken: String? = nil, expiration: Date? = nil) {
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.expiration = expiration
    }

    public var description: String { "access key \(accessKeyId) (secret not shown)" }
}

/// Where requests go and how they are addressed, read once per process from the environment and
/// the AWS files, as the AWS CLI reads them.
public struct S3Settings: Sendable {
    /// The credentials first found; requests sign with `provider.current()`, which refreshes them.
    public var credentials: S3Credentials
    public var provider: S3CredentialProvider
    public var region: String
    /// `https://s3.<region>.amazonaws.com` unless an endpoint was given.
    public var endpoint: URL
    /// Whether the endpoint is AWS's own (virtual-hosted addressing unless asked otherwise).
    public var isAWS: Bool

    public init(credentials: S3Credentials, region: String, endpoint: URL, isAWS: Bool) {
        self.init(provider: S3CredentialProvider(source: .fixed(credentials)), credentials: credentials, region: region,
                  endpoint: endpoint, isAWS: isAWS)
    }

    public init(provider: S3CredentialProvider, credentials: S3Credentials, region: String, endpoint: URL, isAWS: Bool) {
        self.provider = provider
        self.credentials = credentials
        self.region = region
        self.endpoint = endpoint
        self.isAWS = isAWS
    }

    /// From `environment` and the AWS files, the credentials by `S3CredentialSource`'s chain and
    /// fetched once here, so a source that fails is reported before any work; no credentials
    /// anywhere is an `io` error (exit 3) that says where it looked.
    public static func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws(AssetError) -> S3Settings {
        let env = environment.filter { !$0.value.isEmpty }
        let home = env["HOME"] ?? NSHomeDirectory()
        let profile = env["AWS_PROFILE"] ?? env["AWS_DEFAULT_PROFILE"] ?? "default"
        let credentialsFile = env["AWS_SHARED_CREDENTIALS_FILE"] ?? home + "/.aws/credentials"
        let configFile = env["AWS_CONFIG_FILE"] ?? home + "/.aws/config"
        let fromCredentials = AWSProfileFile.section(profile, in: credentialsFile, config: false)
        let fromConfig = AWSProfileFile.section(profile, in: configFile, config: true)
        let setting = { (variable: String, key: String) -> String? in
            env[variable] ?? fromCredentials[key] ?? fromConfig[key]
        }
        let region = setting("AWS_REGION", "region") ?? env["AWS_DEFAULT_REGION"] ?? "us-east-1"
        let source = try credentialSource(env: env, profile: profile, region: region, fromCredentials: fromCredentials, fromConfig: fromConfig,
                                          credentialsFile: credentialsFile)
        let endpointText = env["AWS_ENDPOINT_URL_S3"] ?? env["AWS_ENDPOINT_URL"] ?? fromConfig["s3.endpoint_url"] ?? fromConfig["endpoint_url"]
        var endpoint = URL(string: "https://s3.\(region).amazonaws.com")!, isAWS = true
        if let endpointText {
            guard let url = URL(string: endpointText), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                throw AssetError(.malformed("the S3 endpoint '\(endpointText)' is not an http:// or https:// URL"))
            }
            endpoint = url
            isAWS = (url.host ?? "").hasSuffix(".amazonaws.com")
        }
        let provider = S3CredentialProvider(source: source)
        return S3Settings(provider: provider, credentials: try provider.current(), region: region, endpoint: endpoint, isAWS: isAWS)
    }
}

extension S3Settings {
    /// The first source of `S3CredentialSource`'s chain that this environment and profile have.
    static func credentialSource(env: [String: String], profile: String, region: String, fromCredentials: [String: String],
                                 fromConfig: [String: String], credentialsFile: String) throws(AssetError) -> S3CredentialSource {
        if let id = env["AWS_ACCESS_KEY_ID"], let secret = env["AWS_SECRET_ACCESS_KEY"] {
            return .fixed(S3Credentials(accessKeyId: id, secretAccessKey: secret, sessionToken: env["AWS_SESSION_TOKEN"]))
        }
        let profileSetting = { (key: String) -> String? in fromCredentials[key] ?? fromConfig[key] }
        if let tokenFile = env["AWS_WEB_IDENTITY_TOKEN_FILE"] ?? profileSetting("web_identity_token_file"),
           let role = env["AWS_ROLE_ARN"] ?? profileSetting("role_arn") {
            let session = env["AWS_ROLE_SESSION_NAME"] ?? profileSetting("role_session_name") ?? "assetc-\(Int(Date().timeIntervalSince1970))"
            let stsText = env["AWS_ENDPOINT_URL_STS"] ?? env["AWS_ENDPOINT_URL"] ?? fromConfig["sts.endpoint_url"] ?? "https://sts.\(region).amazonaws.com"
            guard let sts = URL(string: stsText), let scheme = sts.scheme, ["http", "https"].contains(scheme), sts.host != nil else {
                throw AssetError(.malformed("the STS endpoint '\(stsText)' is not an http:// or https:// URL"))
            }
            return .webIdentity(tokenFile: tokenFile, roleArn: role, sessionName: session, stsEndpoint: sts)
        }
        if let id = fromCredentials["aws_access_key_id"], let secret = fromCredentials["aws_secret_access_key"] {
            return .fixed(S3Credentials(accessKeyId: id, secretAccessKey: secret, sessionToken: fromCredentials["aws_session_token"]))
        }
        if let command = profileSetting("credential_process") { return .process(command: command) }
        if let id = fromConfig["aws_access_key_id"], let secret = fromConfig["aws_secret_access_key"] {
            return .fixed(S3Credentials(accessKeyId: id, secretAccessKey: secret, sessionToken: fromConfig["aws_session_token"]))
        }
        if let endpoint = try InstanceMetadataCredentials.endpoint(env) { return .instanceMetadata(endpoint: endpoint) }
        throw AssetError(.io("no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a web identity (AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN), or the [\(profile)] profile in \(credentialsFile); the instance metadata service is off (AWS_EC2_METADATA_DISABLED)"))
    }
}

/// The INI files the AWS tools share: `[name]` sections in the credentials file, `[profile
/// name]` (or `[default]`) in the config file, `key = value` lines, `#` and `;` comments, and
/// nested `s3 =` blocks whose indented lines become `s3.key`.
enum AWSProfileFile {
    static func section(_ profile: String, in path: String, config: Bool) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20 else { return [:] }
        let wanted = config && profile != "default" ? "profile \(profile)" : profile
        var inSection = false, nested: String?, out: [String: String] = [:]
        for raw in String(decoding: data, as: UTF8.self).split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                inSection = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces) == wanted
                nested = nil
                continue
            }
            guard inSection, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            let indented = raw.first == " " || raw.first == "\t"
            if !indented { nested = value.isEmpty ? key : nil }
            if indented, let nested { out[nested + "." + key] = value } else if !value.isEmpty { out[key] = value }
        }
        return out
    }
}
