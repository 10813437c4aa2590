package dev.ferry.server.namesrv;

import dev.ferry.format.Clock;
import dev.ferry.format.ThreadRoles;
import dev.ferry.remoting.ConnectionEvent;
import dev.ferry.remoting.endpoint.RemotingServer;
import dev.ferry.remoting.RemotingServerConfig;
import dev.ferry.server.auth.AccessGuard;
import dev.ferry.server.auth.AuthMetadata;
import dev.ferry.server.auth.RequestResources;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A RocketMQ-compatible name server: brokers register their topics here, clients ask it which
 * brokers serve a topic. Routes are answerable as soon as {@link #start()} returns.
 *
 * <p>Threads: the remoting server's, one thread for registrations, one for route queries, one for changes of the
 * key-value configuration, one that expires silent brokers; all from the given factory.
 */
public final class NameServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(NameServer.class.getName());
    /** Changes of the key-value configuration waiting; beyond, SYSTEM_BUSY. */
    static final int KV_QUEUE_CAPACITY = 1_000;

    private final NameServerConfig config;
    private final RouteTable routes;
    private final RemotingServer remoting;
    private final ExecutorService registrations;
    private final ExecutorService routeQueries;
    private final ExecutorService kvWrites;
    private final ScheduledExecutorService expiry;
    private final Clock clock;

    public NameServer(NameServerConfig config, Clock clock, ThreadFactory threadFactory) {
        this.config = config;
        this.clock = clock;
        this.routes = new RouteTable(clock, config.maxTopics(), config.maxTopicsPerBroker(), config.maxBrokers(),
                config.maxBrokersPerAddress());
        this.remoting = new RemotingServer(RemotingServerConfig.builder().host(config.host()).port(config.port())
                .ioThreads(1).limits(config.remotingLimits()).tls(config.tls()).build(),
                ThreadRoles.named("ferry-namesrv-remoting", threadFactory), clock);
        // Apart, as in Apache: a broker registering many topics does not hold route queries up.
        this.registrations = boundedPool(config.registerQueueCapacity(),
                ThreadRoles.named("ferry-namesrv-register", threadFactory));
        this.routeQueries = boundedPool(config.routeQueueCapacity(),
                ThreadRoles.named("ferry-namesrv-query", threadFactory));
        this.expiry = Executors.newSingleThreadScheduledExecutor(
                ThreadRoles.named("ferry-namesrv-expiry", threadFactory));
        RouteRequestProcessor processor = new RouteRequestProcessor(routes, new BodyCodec(),
                config.maxRegistrationBytes());
        remoting.registerProcessor(RequestCode.REGISTER_BROKER, processor, registrations);
        remoting.registerProcessor(RequestCode.UNREGISTER_BROKER, processor, registrations);
        remoting.registerProcessor(RequestCode.GET_ROUTEINFO_BY_TOPIC, processor, routeQueries);
        remoting.registerProcessor(RequestCode.GET_BROKER_CLUSTER_INFO, processor, routeQueries);
        // Apart: each change of the key-value configuration writes its file before it is answered, as in Apache, and a
        // flood of them must wait behind each other, not hold route queries up.
        this.kvWrites = boundedPool(KV_QUEUE_CAPACITY, ThreadRoles.named("ferry-namesrv-kv", threadFactory));
        NameServerAdminProcessor admin = new NameServerAdminProcessor(routes,
                new KvConfigTable(config.maxKvBytes(), config.kvConfigPath()), config, new BodyCodec());
        for (int code : NameServerAdminProcessor.CODES) {
            boolean write = code == RequestCode.PUT_KV_CONFIG || code == RequestCode.DELETE_KV_CONFIG;
            remoting.registerProcessor(code, admin, write ? kvWrites : routeQueries);
        }
        remoting.addConnectionListener(event -> {
            if (event.type() == ConnectionEvent.Type.CLOSE) {
                routes.connectionClosed(event.channel().id());
            }
        });
    }

    private static ExecutorService boundedPool(int capacity, ThreadFactory threadFactory) {
        return new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(capacity),
                threadFactory);
    }

    /**
     * Authenticates (and, as {@code authorization} says, authorizes) every request against {@code metadata}, route
     * queries only when the config's {@code authenticateRouteQueries} says so: a broker registers with its own
     * credentials. Call before {@link #start()}.
     */
    public void controlAccess(AuthMetadata metadata, String clusterName, boolean authentication,
                              boolean authorization) {
        AccessGuard guard = new AccessGuard(metadata, new RequestResources(new BodyCodec(), clusterName),
                authentication, authorization, clock);
        if (config.authenticateRouteQueries()) {
            remoting.guard(guard);
        } else {
            // as Apache's name server: routes for anyone, so the broker's refusal is what a client with bad
            // credentials sees (its client hides the name server's behind "No route info of this topic")
            remoting.guard((channel, request) -> request.code() == RequestCode.GET_ROUTEINFO_BY_TOPIC ? null
                    : guard.check(channel, request));
        }
    }

    /** Requests refused by authentication or authorization since start. */
    public long refusedRequests() {
        return remoting.refusedRequests();
    }

    /** Requests refused as malformed or invalid, and processor failures, since start. */
    public long badRequests() {
        return remoting.badRequests();
    }

    /** Connections closed for a frame that could not be decoded, since start. */
    public long malformedFrames() {
        return remoting.malformedFrames();
    }

    public long processorFailures() {
        return remoting.processorFailures();
    }

    public NameServer start() {
        remoting.start();
        long scan = config.scanInterval().toMillis();
        expiry.scheduleWithFixedDelay(this::expireBrokers, scan, scan, TimeUnit.MILLISECONDS);
        return this;
    }

    private void expireBrokers() {
        try {
            routes.expire(config.brokerExpiry());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "expiring brokers failed", e);
        }
    }

    /** The port it listens on (after {@link #start()}). */
    public int port() {
        return remoting.port();
    }

    /** The route table, for tests and administration. */
    public RouteTable routes() {
        return routes;
    }

    @Override
    public void close() {
        expiry.shutdownNow();
        remoting.close();
        registrations.shutdown();
        routeQueries.shutdown();
        kvWrites.shutdown();
    }
}
