import AssetCore
import Foundation

/// An access key as the AWS tools find it: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and
/// `AWS_SESSION_TOKEN`, else the `AWS_PROFILE` (or `default`) section of `~/.aws/credentials`
/// (`AWS_SHARED_CREDENTIALS_FILE`), else of `~/.aws/config` (`AWS_CONFIG_FILE`). The secret
/// never appears in a description, a message or a log.
public struct S3Credentials: Sendable, CustomStringConvertible {
    public var accessKeyId: String
    public var secretAccessKey: String
    public var sessionToken: String?

    public init(accessKeyId: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    public var description: String { "access key \(accessKeyId) (secret not shown)" }
}

/// Where requests go and how they are addressed, read once per process from the environment and
/// the AWS files, as the AWS CLI reads them.
public struct S3Settings: Sendable {
    public var credentials: S3Credentials
    public var region: String
    /// `https://s3.<region>.amazonaws.com` unless an endpoint was given.
    public var endpoint: URL
    /// Whether the endpoint is AWS's own (virtual-hosted addressing unless asked otherwise).
    public var isAWS: Bool

    public init(credentials: S3Credentials, region: String, endpoint: URL, isAWS: Bool) {
        self.credentials = credentials
        self.region = region
        self.endpoint = endpoint
        self.isAWS = isAWS
    }

    /// From `environment` and the AWS files; no credentials anywhere is an `io` error (exit 3)
    /// that says where it looked.
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
        let credentials: S3Credentials
        if let id = env["AWS_ACCESS_KEY_ID"], let secret = env["AWS_SECRET_ACCESS_KEY"] {
            credentials = S3Credentials(accessKeyId: id, secretAccessKey: secret, sessionToken: env["AWS_SESSION_TOKEN"])
        } else if let id = fromCredentials["aws_access_key_id"] ?? fromConfig["aws_access_key_id"],
                  let secret = fromCredentials["aws_secret_access_key"] ?? fromConfig["aws_secret_access_key"] {
            credentials = S3Credentials(accessKeyId: id, secretAccessKey: secret,
                                        sessionToken: fromCredentials["aws_session_token"] ?? fromConfig["aws_session_token"])
        } else {
            throw AssetError(.io("no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the [\(profile)] profile in \(credentialsFile)"))
        }
        let region = setting("AWS_REGION", "region") ?? env["AWS_DEFAULT_REGION"] ?? "us-east-1"
        let endpointText = env["AWS_ENDPOINT_URL_S3"] ?? env["AWS_ENDPOINT_URL"] ?? fromConfig["s3.endpoint_url"] ?? fromConfig["endpoint_url"]
        if let endpointText {
            guard let url = URL(string: endpointText), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                throw AssetError(.malformed("the S3 endpoint '\(endpointText)' is not an http:// or https:// URL"))
            }
            let host = url.host ?? ""
            return S3Settings(credentials: credentials, region: region, endpoint: url, isAWS: host.hasSuffix(".amazonaws.com"))
        }
        return S3Settings(credentials: credentials, region: region, endpoint: URL(string: "https://s3.\(region).amazonaws.com")!, isAWS: true)
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
