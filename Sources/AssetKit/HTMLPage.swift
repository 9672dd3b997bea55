/// What the HTML the CLI writes (the thumbnail gallery) and the service serves have in common;
/// text in both is escaped with AssetCore's `MarkupText`.
package enum HTMLPage {
    /// The look both galleries share: the page's type and the checkerboard behind transparent
    /// thumbnails, so empty pixels read as empty.
    package static let baseStyle = """
        body { font: 14px system-ui, sans-serif; background: #f4f4f2; color: #222 }
        img.thumbnail { display: block; aspect-ratio: 1; background: repeating-conic-gradient(#eee 0 25%, #fff 0 50%) 0 0 / 16px 16px }
        .muted { color: #666 }
        .error { color: #a11 }
        """
}
