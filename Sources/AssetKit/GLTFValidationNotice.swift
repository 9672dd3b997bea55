import AssetCore
import AssetValidate
import Foundation

/// What `info` and `convert` say about a glTF that breaks the Khronos rules: they read it as they
/// always have, with one warning that counts the errors and points at `assetc validate`; with
/// `--strict` the errors stop them.
enum GLTFValidationNotice {
    static func check(_ path: String, options: ReadOptions) throws(AssetError) -> Diagnostic? {
        let ext = (path as NSString).pathExtension.lowercased()
        guard GLTFValidator.extensions.contains(ext) else { return nil }
        let errors = try GLTFValidator(options: options).validate(path: path).filter { $0.severity == .error }
        guard let first = errors.first else { return nil }
        let message = "\(errors.count) glTF validation error\(errors.count == 1 ? "" : "s") (the first: \(first.rule) at \(first.location.elementPath ?? "/"): \(first.message)); run assetc validate for all of them"
        if options.isStrict { throw AssetError(.strict(message), at: SourceLocation(file: path, elementPath: first.location.elementPath)) }
        return .warning(message, at: SourceLocation(file: path))
    }
}
