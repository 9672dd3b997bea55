/// The square sizes, in pixels, thumbnails are cached and served at. Defined once: `index
/// --thumbnail-size` accepts only these, so every thumbnail an index renders is one the service
/// serves, and the service rounds any requested size up to one of them, so the pictures cached for
/// an asset stay bounded (6 sizes x 7 views) whatever clients ask for.
public enum ThumbnailSize {
    public static let served = [32, 64, 128, 256, 512, 1024]
    /// What a thumbnail is rendered at when nothing names a size.
    public static let `default` = 256
    /// The largest animated preview: 24 frames of 1024 px would be a 100 MB WebP.
    public static let largestPreview = 512
    /// What a request may ask for; it is rounded up to a served size.
    public static let requestable = 16...1024

    /// The served size a request for `requested` pixels gets: the smallest served size at least as
    /// large, capped at `largest`; nil when the request is out of `requestable`.
    public static func served(for requested: Int, largest: Int = 1024) -> Int? {
        guard requestable.contains(requested), requested <= largest else { return nil }
        return served.first { $0 >= requested }
    }

    /// "32, 64, 128, 256, 512, 1024", for messages and help.
    public static var names: String { served.map(String.init).joined(separator: ", ") }
}
