import AssetCatalog
import AssetCore
import Foundation
import PostgresNIO

/// A database that goes away. postgres-nio's pool queues a request until it can make a connection,
/// retrying with a backoff that grows to a minute, so without a watch every call would wait on a
/// stopped server indefinitely. Here a lease not granted within half a second is checked with a
/// connection of its own: refused (or not made within `connect_timeout`) means the server is down,
/// and the call fails with `.unavailable`. From then on every call fails at once, without queueing,
/// while a probe connects once a second; when the server answers again, a new pool (free of the
/// old one's backoff) takes over and calls go through.
extension PostgresCatalog {
    struct PoolState: Sendable {
        var client: PostgresClient
        var running: Task<Void, Never>
        var outage: Outage?
        var closed = false

        init(settings: PostgresConnectionString) {
            // The pool's own log: errors only. Its warnings include one per lease made before its
            // `run()` task has started, which is the normal case for a command's first statement.
            var poolLogger = Logger(label: "assetc.catalog.postgres.pool")
            poolLogger.logLevel = .error
            let client = PostgresClient(configuration: settings.clientConfiguration, backgroundLogger: poolLogger)
            self.client = client
            running = Task { await client.run() }
        }
    }

    struct Outage: Sendable {
        var reason: String
        var since: ContinuousClock.Instant
        var probe: Task<Void, Never>
    }

    /// How long a lease may take before the server is checked: a healthy pool grants one at once
    /// when a connection is idle, and makes one in a few milliseconds on a local network.
    static let leaseGrace: Duration = .milliseconds(500)
    static let probeInterval: Duration = .seconds(1)

    /// Runs `body` on a pooled connection, failing with `.unavailable` promptly when the server
    /// does not answer rather than waiting for the pool to reach it, or for an answer that does not
    /// come: one call gets `statement_timeout` plus `connect_timeout` in all, on the client's clock,
    /// since a server that is there cancels a statement itself after `statement_timeout`.
    /// The call is not awaited past that: with postgres-nio 1.33, a statement sent as the server
    /// was stopped (`pg_ctl stop -m immediate`) was seen waiting still after its connection was
    /// closed, so a call that ran out of time is cancelled and left behind.
    func leased<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let client = try currentClient()
        let lease = Locked(LeaseState())
        let tasks = Locked<(work: Task<Void, Never>?, watcher: Task<Void, Never>?)>((nil, nil))
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                    let resumed = Locked(false)
                    let finish: @Sendable (Result<T, any Error>) -> Void = { result in
                        if resumed.withLock({ done in defer { done = true }; return !done }) { continuation.resume(with: result) }
                    }
                    let watcher = Task {
                        do { try await self.watch(lease) } catch {
                            if error is CancellationError { return }
                            finish(.failure(error))  // before the cancellation, whose own error must not win
                            tasks.withLock { $0.work }?.cancel()
                        }
                    }
                    let work = Task {
                        let result: Result<T, any Error>
                        do {
                            result = .success(try await client.withConnection { connection in
                                lease.withLock { $0.connection = connection }
                                return try await body(connection)
                            })
                        } catch {
                            result = .failure(error)
                        }
                        lease.withLock { $0.finished = true }
                        watcher.cancel()
                        finish(result)
                    }
                    tasks.withLock { $0 = (work, watcher) }
                }
            } onCancel: {
                let (work, watcher) = tasks.value
                work?.cancel()
                watcher?.cancel()
            }
        } catch {
            guard !(error is AssetError), Self.meansUnreachable(error) else { throw error }
            throw beginOutage(Self.describe(error))
        }
    }

    struct LeaseState: Sendable {
        var connection: PostgresConnection?
        var finished = false
    }

    /// Returns when the call is done (or is cancelled then); throws when the server turns out not
    /// to answer (no connection, or no answer on the one leased, which is then closed), or when it
    /// answers but no pooled connection came free in time.
    private func watch(_ lease: Locked<LeaseState>) async throws {
        let allowed = Duration.seconds(settings.statementTimeoutSeconds + settings.connectTimeoutSeconds)
        let deadline = ContinuousClock.now + allowed
        try await Task.sleep(for: Self.leaseGrace)
        // Still waiting, for a connection or an answer: a connection of its own tells a server
        // that is gone from one that is busy.
        if !lease.withLock({ $0.finished }) {
            do { try await probe() } catch {
                guard Self.meansUnreachable(error) else { throw error }
                await abandon(lease)
                throw beginOutage(Self.describe(error))
            }
        }
        while !lease.withLock({ $0.finished }) {
            if ContinuousClock.now >= deadline {
                guard lease.withLock({ $0.connection }) != nil else {
                    throw AssetError(.unavailable("catalog busy: no pooled connection came free within \(Self.seconds(allowed))"),
                                     at: SourceLocation(file: location))
                }
                await abandon(lease)
                throw beginOutage("no answer within \(Self.seconds(allowed)) (statement_timeout plus connect_timeout)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Closes the leased connection, if any: what fails a statement waiting on it, when anything does.
    private func abandon(_ lease: Locked<LeaseState>) async {
        guard let connection = lease.withLock({ $0.finished ? nil : $0.connection }) else { return }
        // Closing a connection the server already dropped may fail; it is being given up either way.
        _ = try? await connection.close()
    }

    /// The pool to use, or the outage's error at once.
    private func currentClient() throws(AssetError) -> PostgresClient {
        let state = pool.withLock { ($0.client, $0.outage, $0.closed) }
        if state.2 { throw AssetError(.io("the catalog is closed"), at: SourceLocation(file: location)) }
        if let outage = state.1 { throw unavailable(outage) }
        return state.0
    }

    private func unavailable(_ outage: Outage) -> AssetError {
        let seconds = (ContinuousClock.now - outage.since).components.seconds
        let lasting = seconds >= 1 ? " (for \(seconds) s)" : ""
        return AssetError(.unavailable("database unreachable: \(outage.reason)\(lasting)"), at: SourceLocation(file: location))
    }

    /// Records that the server stopped answering (once, however many calls notice) and starts
    /// the probe that ends the outage.
    private func beginOutage(_ reason: String) -> AssetError {
        let outage = pool.withLock { state -> Outage? in
            if state.closed { return nil }
            if let outage = state.outage { return outage }
            let probe = Task { await self.probeUntilAnswered() }
            state.outage = Outage(reason: reason, since: .now, probe: probe)
            return state.outage
        }
        logger.debug("database unreachable", metadata: ["reason": "\(reason)"])
        guard let outage else { return AssetError(.io("the catalog is closed"), at: SourceLocation(file: location)) }
        return unavailable(outage)
    }

    private func probeUntilAnswered() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: Self.probeInterval) } catch { return }
            do {
                try await probe()
            } catch {
                if !Self.meansUnreachable(error) { logger.error("database answers but refuses", metadata: ["error": "\(Self.describe(error))"]) }
                continue
            }
            let old = pool.withLock { state -> Task<Void, Never>? in
                guard !state.closed, state.outage != nil else { return nil }
                let old = state.running
                state = PoolState(settings: settings)
                return old
            }
            old?.cancel()
            logger.debug("database reachable again")
            return
        }
    }

    /// A connection of its own, made and closed: the one sure sign the server answers.
    private func probe() async throws {
        let connection = try await PostgresConnection.connect(configuration: try settings.connectionConfiguration(), id: 1, logger: logger)
        try await connection.close()
    }

    /// A refused, reset or timed-out connection, or a server shutting down or starting up: the
    /// server is not there to answer, as opposed to answering with an error.
    static func meansUnreachable(_ error: any Error) -> Bool {
        let error = underlying(error)
        if error is ChannelError || error is IOError || error is NIOConnectionError { return true }
        guard let psql = error as? PSQLError else { return false }
        if let state = psql.serverInfo?[.sqlState] {
            // 08: connection exceptions; 57P01-57P03: admin or crash shutdown, cannot connect now.
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        }
        switch psql.code {
        case .connectionError, .serverClosedConnection, .uncleanShutdown: return true
        default: return false
        }
    }

    static func seconds(_ duration: Duration) -> String {
        seconds(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
