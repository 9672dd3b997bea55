import AssetCore
import Foundation

/// Credentials printed by the profile's `credential_process` (a vault or SSO helper): the command
/// runs through `/bin/sh -c` with no input, and must exit 0 printing the SDKs' JSON
/// (`Version` 1, `AccessKeyId`, `SecretAccessKey`, optional `SessionToken` and `Expiration`).
/// What it prints to standard error is passed on in the message; its standard output never is.
enum ProcessCredentials {
    static let maxOutput = 64 << 10

    static func fetch(command: String) throws(AssetError) -> S3Credentials {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw AssetError(.io("credential_process could not start: \(error)")) }
        // Read both while it runs, so a chatty command cannot fill a pipe and wait forever.
        nonisolated(unsafe) var errorBytes = Data()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errorBytes = errors.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        let said = String(decoding: errorBytes.prefix(400), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0 else {
            throw AssetError(.io("credential_process exited with status \(process.terminationStatus)\(said.isEmpty ? "" : ": " + said)"))
        }
        guard bytes.count <= maxOutput else { throw AssetError(.malformed("credential_process printed more than \(maxOutput) bytes")) }
        let document: TemporaryCredentialsJSON
        do { document = try JSONDecoder().decode(TemporaryCredentialsJSON.self, from: bytes) } catch {
            throw AssetError(.malformed("credential_process printed no JSON with AccessKeyId and SecretAccessKey"))
        }
        guard document.Version == 1 else {
            throw AssetError(.malformed("credential_process printed Version \(document.Version.map(String.init) ?? "(none)"); Version 1 is the one defined"))
        }
        return try document.credentials(from: "credential_process")
    }
}
