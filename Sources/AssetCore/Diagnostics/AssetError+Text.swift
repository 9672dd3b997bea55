extension AssetError {
    /// This error with its file and the text of its message passed through `transform`: how a
    /// staged folder's path is written as the `s3://` location it stands for.
    public func mappingText(_ transform: (String) -> String) -> AssetError {
        var copy = self
        copy.location.file = copy.location.file.map(transform)
        switch kind {
        case .io(let text): copy.kind = .io(transform(text))
        case .malformed(let text): copy.kind = .malformed(transform(text))
        case .refusedPath(let text): copy.kind = .refusedPath(transform(text))
        case .unresolvedReference(let text): copy.kind = .unresolvedReference(transform(text))
        default: break
        }
        return copy
    }
}

extension Diagnostic {
    /// This diagnostic with its file and message passed through `transform`.
    public func mappingText(_ transform: (String) -> String) -> Diagnostic {
        var copy = self
        copy.message = transform(copy.message)
        copy.location.file = copy.location.file.map(transform)
        return copy
    }
}
