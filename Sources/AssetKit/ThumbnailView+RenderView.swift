import AssetCatalog
import AssetRender

// The catalog names a thumbnail's view (`ThumbnailView`), the renderer places a camera for one
// (`RenderView`); each case is the other's, by switches the compiler checks are whole.
extension RenderView {
    /// The camera that draws a catalog's view.
    public init(_ view: ThumbnailView) {
        switch view {
        case .iso: self = .iso
        case .front: self = .front
        case .back: self = .back
        case .left: self = .left
        case .right: self = .right
        case .top: self = .top
        case .bottom: self = .bottom
        }
    }
}

extension ThumbnailView {
    /// The catalog's name for what a camera view draws.
    public init(_ view: RenderView) {
        switch view {
        case .iso: self = .iso
        case .front: self = .front
        case .back: self = .back
        case .left: self = .left
        case .right: self = .right
        case .top: self = .top
        case .bottom: self = .bottom
        }
    }
}
