package dev.ferry.server.namesrv;

import dev.ferry.remoting.ConnectionEvent;
import dev.ferry.remoting.RemotingServer;
import dev.ferry.remoting.RemotingServerConfig;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A RocketMQ-compatible name server: brokers register their topics here, clients ask it which
 * brokers serve a topic. Routes are answerable as soon as {@link #start()} returns.
 *
 * <p>Threads: the remoting server's, one processing thread, one thread that expires silent
 * brokers; all from the given factory.
 */
public final class NameServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(NameServer.class.getName());

    private final NameServerConfig config;
    private final RouteTable routes;
    private final RemotingServer remoting;
    private final ExecutorService processing;
    private final ScheduledExecutorService expiry;

    public NameServer(NameServerConfig config, Clock clock, ThreadFactory threadFactory) {
        this.config = config;
        this.routes = new RouteTable(clock);
        this.remoting = new RemotingServer(RemotingServerConfig.builder().host(config.host()).port(config.port())
                .ioThreads(1).build(), threadFactory);
        this.processing = Executors.newSingleThreadExecutor(threadFactory);
        this.expiry = Executors.newSingleThreadScheduledExecutor(threadFactory);
        RouteRequestProcessor processor = new RouteRequestProcessor(routes, new BodyCodec());
        for (int code : new int[] {RequestCode.REGISTER_BROKER, RequestCode.UNREGISTER_BROKER,
                RequestCode.GET_ROUTEINFO_BY_TOPIC, RequestCode.GET_BROKER_CLUSTER_INFO}) {
            remoting.registerProcessor(code, processor, processing);
        }
        remoting.addConnectionListener(event -> {
            if (event.type() == ConnectionEvent.Type.CLOSE) {
                routes.connectionClosed(event.channel().id());
            }
        });
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
        processing.shutdown();
    }
}
