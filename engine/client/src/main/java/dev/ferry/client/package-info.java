/**
 * Ferry's client: producers, push consumers and pull consumers speaking RocketMQ's remoting protocol.
 *
 * <p>Everything hangs off a {@link dev.ferry.client.FerryClient}, one per configuration (per cluster), which
 * owns the connections ({@code RemotingClient}), a two-thread scheduler and the {@code RouteCache}. Two
 * clients in one JVM share nothing: there is no static state.
 *
 * <p>Pieces, one job each:
 * <ul>
 *   <li>{@code RouteCache}: routes from the name servers, refreshed every 30 s and after failed sends;</li>
 *   <li>{@code HeartbeatService}: HEART_BEAT to every broker every 30 s, UNREGISTER_CLIENT when a group stops;</li>
 *   <li>{@code QueueSelector}: round robin that skips recently failed brokers, sharding keys;</li>
 *   <li>{@code MessageEncoder} / {@code MessageDecoder}: messages to and from the one format of
 *   {@code dev.ferry.format};</li>
 *   <li>{@code RebalanceService}: which queues a consumer reads (allocate strategy plugin), and their start
 *       offsets; {@code QueueLocks} for orderly consumers;</li>
 *   <li>{@code ProcessQueue}: one assigned queue's in-flight messages and committable offset;</li>
 *   <li>{@code PullService}: one long-polling pull loop per process queue;</li>
 *   <li>{@code ConcurrentConsumeService} / {@code OrderlyConsumeService}: the listener calls;</li>
 *   <li>{@code ConsumerRequests}: a group's synchronous broker requests, also the offset stores' broker access;</li>
 *   <li>{@code WireErrors}: the one mapping from response codes and remoting failures to exceptions.</li>
 * </ul>
 *
 * <p>Each service gets the narrow collaborators it uses, never the whole client: {@code BrokerCalls} (the
 * requests it sends), {@code Routes}, {@code Later} (a delayed task), {@code QueueQueries}, {@code SendBack}, a
 * a {@link dev.ferry.format.Clock}. Their unit tests replace them with a scripted broker, fixed routes, a
 * hand-driven {@code Later} and a manual clock. The rebalance holds its lock only while it changes its
 * queue map, never across a call to a broker, a name server, an offset store or a queue lock.
 *
 * <p>Threads: every thread comes from {@link dev.ferry.client.ClientConfig#threadFactory()}. The scheduler
 * runs route refresh, heartbeats, rebalance, offset persistence, lock renewal and delayed pulls; Netty event
 * loops only move bytes; remoting callback threads complete sends and pulls; each push consumer has its own
 * consume pool. Time, wall-clock and monotonic, comes from
 * {@link dev.ferry.client.ClientConfig#clock()}; nothing reads the system's clocks directly. Plugins are loaded with
 * {@link dev.ferry.client.ClientConfig#pluginClassLoaders()}.
 */
package dev.ferry.client;
