import AssetCore
import AssetValidate
import Foundation

/// What `info` and `convert` say about a glTF that breaks the Khronos rules: they read it as they
/// always have, with one warning that counts the errors and points at `assetc validate`; with
/// `--strict` the errors stop them.
enum GLTFValidationNotice {
    /// The check started on another thread, for a caller with its own work to do meanwhile (`info`
    /// reads the file while the validation runs: together they take the longer of the two, not the
    /// sum). `wait()` gives what `check` would have.
    struct Pending {
        private let box: Locked<Result<Diagnostic?, AssetError>?>
        private let done: DispatchSemaphore

        init(_ path: String, options: ReadOptions) {
            let box = Locked<Result<Diagnostic?, AssetError>?>(nil)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                let result: Result<Diagnostic?, AssetError>
                do throws(AssetError) { result = .success(try GLTFValidationNotice.check(path, options: options)) } catch { result = .failure(error) }
                box.withLock { $0 = result }
                done.signal()
            }
            self.box = box
            self.done = done
        }

        /// Waits for the check and drops its outcome: for a caller that failed on its own.
        func finish() { done.wait() }

        func wait() throws(AssetError) -> Diagnostic? {
            done.wait()
            return try box.withLock { $0! }.get()
        }
    }

    static func check(_ path: String, options: ReadOptions) throws(AssetError) -> Diagnostic? {
        let ext = (path as NSString).pathExtension.lowercased()
        guard GLTFValidator.extensions.contains(ext) else { return nil }
        let errors = try GLTFValidator(options: options).validate(path: path).filter { $0.severity == .error }
        guard let first = errors.first else { return nil }
        let message = "\(errors.count) glTF validation error\(errors.count == 1 ? "" : "s") (the first: \(first.rule) at \(first.location.elementPath ?? "/"): \(first.message)); run assetc validate for all of them"
        if options.isStrict { throw AssetError(.strict(message), at: SourceLocation(file: options.name(ofPath: path), elementPath: first.location.elementPath)) }
        return .warning(message, at: SourceLocation(file: options.name(ofPath: path)))
    }
}
