import AssetCore

/// A thumbnail to render for one asset, recorded by `index --defer-thumbnails` and claimed by
/// `assetc worker` processes on any machine. One job per asset: recording it again for new content
/// (or a new size or view) starts it over, so a worker never renders a picture of content the
/// catalog no longer holds; recording it again for the same content keeps its state, so two
/// indexers racing over one folder do not make the workers render everything twice.
public struct ThumbnailJob: Sendable, Equatable, Codable {
    public var assetId: String
    /// The content the picture is of; a finished job whose asset changed since is not attached.
    public var contentHash: String
    /// One of `ThumbnailSize.served`.
    public var size: Int
    public var view: ThumbnailView
    /// How many times a worker claimed it (a job whose worker died is claimed again).
    public var attempts: Int

    public init(assetId: String, contentHash: String, size: Int, view: ThumbnailView, attempts: Int = 0) {
        self.assetId = assetId
        self.contentHash = contentHash
        self.size = size
        self.view = view
        self.attempts = attempts
    }

    /// A job as an engine reads it back. A claim first fails the jobs no assetc renders
    /// (`unrenderableCondition`), so a view still unknown here means the row changed under the
    /// claim: an error, never a silent `iso`.
    package init(assetId: String, contentHash: String, size: Int, viewName: String, attempts: Int) throws(AssetError) {
        guard let view = ThumbnailView(rawValue: viewName) else {
            throw AssetError(.malformed("the thumbnail job of '\(assetId)' names an unknown view '\(viewName)'"))
        }
        self.init(assetId: assetId, contentHash: contentHash, size: size, view: view, attempts: attempts)
    }

    /// SQL that is true for a job row whose view or size no assetc renders (written by hand, or
    /// by another version): claims fail such jobs with this reason instead of handing them out.
    package static let unrenderableCondition =
        "(view NOT IN (\(ThumbnailView.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))) OR size NOT IN (\(ThumbnailSize.served.map(String.init).joined(separator: ", "))))"
    package static let unrenderableError = "the job names a view or size assetc does not render (views: \(ThumbnailView.names); sizes: \(ThumbnailSize.names))"

    /// States as stored; the schema's CHECK constraint names the same four.
    public enum State: String, Sendable, CaseIterable { case pending, running, done, failed }
}

/// What became of a claimed job: the thumbnail's path (relative to the catalog's folder) when it
/// was rendered, else why not.
public struct ThumbnailOutcome: Sendable, Equatable {
    public var job: ThumbnailJob
    public var thumbnail: String?
    public var error: String?

    public init(job: ThumbnailJob, thumbnail: String?, error: String?) {
        self.job = job
        self.thumbnail = thumbnail
        self.error = error
    }
}

/// How many thumbnail jobs are in each state, for `assetc jobs` and `/health`.
public struct ThumbnailJobCounts: Sendable, Equatable, Codable {
    public var pending = 0
    public var running = 0
    public var done = 0
    public var failed = 0

    public init(pending: Int = 0, running: Int = 0, done: Int = 0, failed: Int = 0) {
        (self.pending, self.running, self.done, self.failed) = (pending, running, done, failed)
    }

    public var total: Int { pending + running + done + failed }

    package mutating func add(_ state: String, _ n: Int) {
        switch ThumbnailJob.State(rawValue: state) {
        case .pending: pending += n
        case .running: running += n
        case .done: done += n
        case .failed: failed += n
        case nil: break
        }
    }
}

/// A failed job is retried by later claims until it has been tried this many times.
public let thumbnailJobMaxAttempts = 3
