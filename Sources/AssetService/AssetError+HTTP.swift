import AssetKit
import Hummingbird

/// assetc's errors answer for themselves: a status by kind, and `{"error":{"message":...}}` with
/// the located message, as every other error the service returns.
extension AssetError: HTTPResponseError {
    public var status: HTTPResponse.Status {
        switch kind {
        case .fileNotFound, .unresolvedReference: return .notFound
        case .malformed, .unsupportedFormat, .strict: return .badRequest
        case .limitExceeded: return .contentTooLarge
        case .refusedPath: return .forbidden
        case .unsupportedFeature: return .unprocessableContent
        case .io: return .internalServerError
        case .unavailable: return .serviceUnavailable
        }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        // A load balancer or client waiting on the database is told when to ask again.
        let headers: HTTPFields = status == .serviceUnavailable ? [.retryAfter: "1"] : [:]
        return try HTTPError(status, headers: headers, message: description).response(from: request, context: context)
    }
}
