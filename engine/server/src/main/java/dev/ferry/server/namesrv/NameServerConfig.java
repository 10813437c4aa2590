package dev.ferry.server.namesrv;

import dev.ferry.format.ConfigProblems;
import dev.ferry.remoting.RemotingLimits;
import dev.ferry.remoting.TlsConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings of a {@link NameServer}, validated once; messages name the bad key and value.
 *
 * @param host                   address to listen on
 * @param port                   port to listen on (RocketMQ's default 9876; 0 picks a free one)
 * @param brokerExpiry           a broker that has not registered for this long drops out of routes
 * @param scanInterval           how often expired brokers are looked for
 * @param maxTopics              topic routes (one per topic and broker name) the name server keeps in all; when they
 *                               are all taken, a broker with fewer routes takes one from the broker with the most
 * @param maxTopicsPerBroker     topic routes one broker name may have
 * @param maxBrokers             broker addresses it keeps
 * @param maxBrokersPerAddress   broker addresses registered over connections from one source address
 * @param maxKvBytes             what the key-value configuration may hold, counted as its entries cost the heap
 * @param kvConfigPath           where the key-value configuration is persisted (Apache's {@code kvConfig.json}); empty
 *                               to keep it in memory only
 * @param maxRegistrationBytes   what one compressed registration may inflate to
 * @param registerQueueCapacity  registrations waiting to be processed (Apache's defaultThreadPoolQueueCapacity)
 * @param routeQueueCapacity     route queries waiting (Apache's clientRequestThreadPoolQueueCapacity)
 * @param remotingLimits         connections and the memory their requests may hold
 * @param tls                    TLS of its port
 * @param authenticateRouteQueries with authentication on, whether route queries (GET_ROUTEINFO_BY_TOPIC) must be
 *                               signed too. Off, as Apache's name server, which checks nothing: a client with bad
 *                               credentials gets its routes and the broker's refusal, which names user and resource
 */
public record NameServerConfig(String host, int port, Duration brokerExpiry, Duration scanInterval, int maxTopics,
                               int maxTopicsPerBroker, int maxBrokers, int maxBrokersPerAddress, long maxKvBytes,
                               Optional<Path> kvConfigPath, int maxRegistrationBytes, int registerQueueCapacity,
                               int routeQueueCapacity, RemotingLimits remotingLimits, TlsConfig tls,
                               boolean authenticateRouteQueries) {
    private static final ConfigProblems CHECK = ConfigProblems.FAIL_FAST;

    public static final int DEFAULT_PORT = 9876;

    public NameServerConfig {
        Objects.requireNonNull(host, "host");
        CHECK.require(port >= 0 && port <= 65535, "namesrvPort", port, "must be within 0..65535");
        CHECK.require(brokerExpiry != null && brokerExpiry.toMillis() > 0, "brokerExpiry", brokerExpiry,
                "must be a positive duration");
        CHECK.require(scanInterval != null && scanInterval.toMillis() > 0, "scanInterval", scanInterval,
                "must be a positive duration");
        CHECK.require(maxTopics > 0, "maxTopics", maxTopics, "must be positive");
        CHECK.require(maxTopicsPerBroker > 0, "nameServerMaxTopicsPerBroker", maxTopicsPerBroker, "must be positive");
        CHECK.require(maxBrokers > 0, "maxBrokers", maxBrokers, "must be positive");
        CHECK.require(maxBrokersPerAddress > 0, "nameServerMaxBrokersPerAddress", maxBrokersPerAddress,
                "must be positive");
        CHECK.require(maxKvBytes >= 1024 && maxKvBytes <= 1L << 30, "nameServerMaxKvBytes", maxKvBytes,
                "must be within 1024..1073741824");
        Objects.requireNonNull(kvConfigPath, "kvConfigPath");
        CHECK.require(maxRegistrationBytes > 0, "maxRegistrationBytes", maxRegistrationBytes, "must be positive");
        CHECK.require(registerQueueCapacity > 0, "registerQueueCapacity", registerQueueCapacity, "must be positive");
        CHECK.require(routeQueueCapacity > 0, "routeQueueCapacity", routeQueueCapacity, "must be positive");
        Objects.requireNonNull(remotingLimits, "remotingLimits");
        Objects.requireNonNull(tls, "tls");
    }

    /** RocketMQ's defaults: 127.0.0.1:9876, brokers expire after 120 s, scanned every 5 s. */
    public static NameServerConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public NameServerConfig withPort(int newPort) {
        return toBuilder().port(newPort).build();
    }

    public NameServerConfig withHost(String newHost) {
        return toBuilder().host(newHost).build();
    }

    public Builder toBuilder() {
        return new Builder().host(host).port(port).brokerExpiry(brokerExpiry).scanInterval(scanInterval)
                .maxTopics(maxTopics).maxTopicsPerBroker(maxTopicsPerBroker).maxBrokers(maxBrokers)
                .maxBrokersPerAddress(maxBrokersPerAddress).maxKvBytes(maxKvBytes)
                .kvConfigPath(kvConfigPath.orElse(null)).maxRegistrationBytes(maxRegistrationBytes)
                .registerQueueCapacity(registerQueueCapacity).routeQueueCapacity(routeQueueCapacity)
                .remotingLimits(remotingLimits).tls(tls).authenticateRouteQueries(authenticateRouteQueries);
    }

    /**
     * What a compressed registration may inflate to by default: a sixteenth of the heap, within 16 and 64 MiB (a
     * hundred thousand topics take about 5 MiB), so that a small request cannot make a large allocation.
     */
    public static int defaultMaxRegistrationBytes() {
        return (int) Math.max(16L << 20, Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 16));
    }

    /** Builds a {@link NameServerConfig}; defaults are Apache's where Apache has one. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = DEFAULT_PORT;
        private Duration brokerExpiry = Duration.ofSeconds(120);
        private Duration scanInterval = Duration.ofSeconds(5);
        private int maxTopics = 1_000_000;
        private int maxTopicsPerBroker = 200_000;
        private int maxBrokers = 1_000;
        private int maxBrokersPerAddress = 16;
        private long maxKvBytes = 4L << 20;
        private boolean authenticateRouteQueries;
        private Path kvConfigPath;
        private int maxRegistrationBytes = defaultMaxRegistrationBytes();
        private int registerQueueCapacity = 10_000;
        private int routeQueueCapacity = 50_000;
        private RemotingLimits remotingLimits = RemotingLimits.defaults();
        private TlsConfig tls = TlsConfig.DISABLED;

        public Builder host(String value) {
            this.host = value;
            return this;
        }

        public Builder port(int value) {
            this.port = value;
            return this;
        }

        public Builder brokerExpiry(Duration value) {
            this.brokerExpiry = value;
            return this;
        }

        public Builder scanInterval(Duration value) {
            this.scanInterval = value;
            return this;
        }

        public Builder maxTopics(int value) {
            this.maxTopics = value;
            return this;
        }

        public Builder maxTopicsPerBroker(int value) {
            this.maxTopicsPerBroker = value;
            return this;
        }

        public Builder maxBrokers(int value) {
            this.maxBrokers = value;
            return this;
        }

        public Builder maxBrokersPerAddress(int value) {
            this.maxBrokersPerAddress = value;
            return this;
        }

        public Builder maxKvBytes(long value) {
            this.maxKvBytes = value;
            return this;
        }

        /** Where the key-value configuration is persisted; {@code null} keeps it in memory only. */
        public Builder kvConfigPath(Path value) {
            this.kvConfigPath = value;
            return this;
        }

        /** Whether {@link #kvConfigPath(Path)} was given. */
        public boolean hasKvConfigPath() {
            return kvConfigPath != null;
        }

        public Builder maxRegistrationBytes(int value) {
            this.maxRegistrationBytes = value;
            return this;
        }

        public Builder registerQueueCapacity(int value) {
            this.registerQueueCapacity = value;
            return this;
        }

        public Builder routeQueueCapacity(int value) {
            this.routeQueueCapacity = value;
            return this;
        }

        public Builder tls(TlsConfig value) {
            this.tls = value;
            return this;
        }

        public Builder remotingLimits(RemotingLimits value) {
            this.remotingLimits = value;
            return this;
        }

        public Builder authenticateRouteQueries(boolean value) {
            this.authenticateRouteQueries = value;
            return this;
        }

        public NameServerConfig build() {
            return new NameServerConfig(host, port, brokerExpiry, scanInterval, maxTopics, maxTopicsPerBroker,
                    maxBrokers, maxBrokersPerAddress, maxKvBytes, Optional.ofNullable(kvConfigPath),
                    maxRegistrationBytes, registerQueueCapacity, routeQueueCapacity, remotingLimits, tls,
                    authenticateRouteQueries);
        }
    }
}
