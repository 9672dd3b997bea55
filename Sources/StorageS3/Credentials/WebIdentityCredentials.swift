import AssetCore
import Foundation

/// Credentials for a role, traded for a web identity token with STS `AssumeRoleWithWebIdentity`:
/// what a Kubernetes service account (EKS's IRSA) or a CI's OIDC token gives a job. The call is
/// not signed; the token is read from its file at every refresh, since the platform rotates it.
enum WebIdentityCredentials {
    static let timeout = 10.0

    static func fetch(tokenFile: String, roleArn: String, sessionName: String, sts: URL) throws(AssetError) -> S3Credentials {
        guard let data = FileManager.default.contents(atPath: tokenFile), data.count < CredentialHTTP.maxBody else {
            throw AssetError(.io("the web identity token file \(tokenFile) cannot be read"), at: SourceLocation(file: tokenFile))
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw AssetError(.malformed("the web identity token file \(tokenFile) is empty")) }
        let query = [("Action", "AssumeRoleWithWebIdentity"), ("Version", "2011-06-15"), ("RoleArn", roleArn),
                     ("RoleSessionName", sessionName), ("WebIdentityToken", token)]
        let body = query.map { "\(SigV4Signer.uriEncode($0.0, keepSlash: false))=\(SigV4Signer.uriEncode($0.1, keepSlash: false))" }
            .joined(separator: "&")
        let service = "STS at \(sts.absoluteString)"
        let answer = try CredentialHTTP.send("POST", sts.absoluteString, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                             body: Array(body.utf8), seconds: timeout, service: service)
        guard let document = S3XML(answer.body) else { throw AssetError(.malformed("\(service) answered HTTP \(answer.status) with no XML")) }
        guard answer.status == 200 else {
            let error = document.all("Error").first
            let code = error?["Code"] ?? "HTTP \(answer.status)", message = error?["Message"] ?? ""
            throw AssetError(.io("\(service) refused AssumeRoleWithWebIdentity for \(roleArn): \(code)\(message.isEmpty ? "" : ": " + message)"))
        }
        guard let result = document.all("AssumeRoleWithWebIdentityResult").first, let credentials = result.all("Credentials").first,
              let id = credentials["AccessKeyId"], let secret = credentials["SecretAccessKey"] else {
            throw AssetError(.malformed("\(service) answered AssumeRoleWithWebIdentity with no credentials"))
        }
        var expiration: Date?
        if let text = credentials["Expiration"] {
            guard let date = ISO8601Time.date(text) else { throw AssetError(.malformed("\(service) gave an Expiration that is not a time: '\(text)'")) }
            expiration = date
        }
        return S3Credentials(accessKeyId: id, secretAccessKey: secret, sessionToken: credentials["SessionToken"], expiration: expiration)
    }
}
