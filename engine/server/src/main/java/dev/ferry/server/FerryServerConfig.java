package dev.ferry.server;

import dev.ferry.format.ConfigProblems;
import dev.ferry.format.NameRules;
import dev.ferry.remoting.RemotingLimits;
import dev.ferry.remoting.RemotingServerConfig;
import dev.ferry.remoting.TlsConfig;
import dev.ferry.server.auth.AuthConfig;
import dev.ferry.server.metrics.MetricsConfig;
import dev.ferry.server.broker.BrokerConfig;
import dev.ferry.server.broker.BrokerLimits;
import dev.ferry.format.DelayLevels;
import dev.ferry.server.namesrv.NameServerConfig;
import dev.ferry.store.FlushMode;
import dev.ferry.store.StoreConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Settings of a {@link FerryServer}: what the process runs ({@link Role}: a name server and a broker, as by default,
 * or either alone), each part with its own config, and the broker's message store. Built with {@link #builder}, whose
 * shortcuts set what several parts share (the host) and what users set most; everything else is reached through
 * {@link Builder#nameServer}, {@link Builder#broker} and {@link Builder#store}. Each part validates itself once, with messages that name the bad key and value.
 *
 * @param nameServer its settings
 * @param broker     its settings; it registers with this process's name server
 * @param store      the broker's message store, in {@code store/} under the broker's directory
 * @param pluginDir  a directory of plugin jars, or {@code null}
 * @param auth       authentication and authorization of both servers
 * @param metrics    whether and where both servers publish their metrics
 * @param role       which of the two servers the process runs
 */
public record FerryServerConfig(NameServerConfig nameServer, BrokerConfig broker, StoreConfig store, Path pluginDir,
                                AuthConfig auth, MetricsConfig metrics, Role role) {
    private static final ConfigProblems CHECK = ConfigProblems.FAIL_FAST;

    /** What one process runs. */
    public enum Role {
        /** A name server and a broker registered with it (and with any other name servers given). */
        NAME_SERVER_AND_BROKER,
        /** A name server alone, which brokers elsewhere register with. */
        NAME_SERVER,
        /** A broker alone, registering with the name servers given ({@code namesrvAddr}). */
        BROKER;

        public boolean runsNameServer() {
            return this != BROKER;
        }

        public boolean runsBroker() {
            return this != NAME_SERVER;
        }
    }

    /** RocketMQ's transactionCheckInterval and transactionCheckMax. */
    public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofSeconds(30);
    public static final int DEFAULT_CHECK_MAX = 15;
    /** Apache's transactionTimeOut: a half message younger than this is not asked about. */
    /** The most the name server's answers not yet written may hold in a process that also runs a broker. */
    private static final long NAME_SERVER_MAX_OUTBOUND_BYTES = 64L << 20;
    private static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(6);
    /** {@code ferry-server}'s commit-log files: RocketMQ's 1 GiB. */
    private static final int DEFAULT_SEGMENT_SIZE = 1024 * 1024 * 1024;

    public FerryServerConfig {
        Objects.requireNonNull(nameServer, "nameServer");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(broker, "broker");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(role, "role");
        if (role == Role.BROKER && broker.nameServers().isEmpty()) {
            throw new IllegalArgumentException("namesrvAddr is missing: a broker alone registers with the name "
                    + "servers it names (host:port;host:port)");
        }
    }

    /** The defaults of {@code ferry-server}: RocketMQ's ports on 127.0.0.1, 1 GiB commit-log files. */
    public static FerryServerConfig defaults(Path storeDir) {
        return builder(storeDir).build();
    }

    /** @param storeDir where the broker keeps messages ({@code store/}), offsets, topics and groups ({@code config/}) */
    public static Builder builder(Path storeDir) {
        return new Builder(storeDir);
    }

    /** Where the broker keeps everything. */
    public Path storeDir() {
        return broker.storeDir();
    }

    /**
     * This config with the broker registering also with the name server at {@code address} (its own, once its port
     * is known), first.
     */
    FerryServerConfig registeringWith(String address) {
        List<String> all = new ArrayList<>(List.of(address));
        broker.nameServers().stream().filter(other -> !other.equals(address)).forEach(all::add);
        return new FerryServerConfig(nameServer, broker.withNameServers(all), store, pluginDir, auth, metrics, role);
    }

    /**
     * Name-server addresses as Apache writes them ({@code host:port;host:port}, Apache's namesrvAddr), each checked.
     *
     * @throws IllegalArgumentException naming the bad entry
     */
    public static List<String> parseNameServers(String value) {
        List<String> addresses = new ArrayList<>();
        for (String part : value.split(";")) {
            String address = part.trim();
            if (address.isEmpty()) {
                continue;
            }
            // the one rule for addresses, and a name server has a port of its own (not 0)
            CHECK.require(NameRules.addressProblem("namesrvAddr", address) == null
                    && Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)) != 0, "namesrvAddr", value,
                    "'" + address + "' is not host:port with a port within 1..65535");
            if (!addresses.contains(address)) {
                addresses.add(address);
            }
        }
        CHECK.require(!addresses.isEmpty(), "namesrvAddr", value, "names no name server (host:port;...)");
        return List.copyOf(addresses);
    }

    /**
     * The name server's share of the inbound budget: one frame's worth of large frames (registrations), so that with
     * the broker's the process holds little more than the configured budget, which matters when it is an application
     * server's heap. Likewise for answers not yet written: at most 64 MiB, four of the largest frames.
     */
    static RemotingLimits nameServerShare(RemotingLimits limits) {
        long oneFrame = RemotingServerConfig.DEFAULT_MAX_FRAME_LENGTH;
        long answers = Math.max(Math.min(limits.maxOutboundBytes(), NAME_SERVER_MAX_OUTBOUND_BYTES),
                limits.writeBufferHighWaterMark());
        return limits.toBuilder().maxInboundBytes(oneFrame).maxInboundBytesPerConnection(oneFrame)
                .maxOutboundBytes(Math.max(answers, RemotingLimits.MIN_OUTBOUND_BYTES)).build();
    }

    /** Builds a {@link FerryServerConfig}; the defaults are {@code ferry-server}'s. Not thread-safe. */
    public static final class Builder {
        private final NameServerConfig.Builder nameServer = NameServerConfig.builder();
        private final BrokerConfig.Builder broker;
        private final StoreConfig.Builder store;
        private Path pluginDir;
        private AuthConfig auth = AuthConfig.DISABLED;
        private MetricsConfig metrics = MetricsConfig.DISABLED;
        private TlsConfig tls = TlsConfig.DISABLED;
        private Role role = Role.NAME_SERVER_AND_BROKER;
        private List<String> nameServers = List.of();
        // shared or combined by several parts, so kept here until build()
        private BrokerLimits brokerLimits = BrokerLimits.defaults();
        private RemotingLimits remotingLimits = RemotingLimits.defaults();
        private Duration transactionCheckInterval = DEFAULT_CHECK_INTERVAL;
        private int transactionCheckMax = DEFAULT_CHECK_MAX;
        private Duration transactionTimeout;

        private final Path storeDir;

        private Builder(Path storeDir) {
            this.storeDir = Objects.requireNonNull(storeDir, "storeDir");
            this.broker = BrokerConfig.builder(storeDir);
            this.store = StoreConfig.builder(storeDir.resolve("store")).commitLogSegmentSize(DEFAULT_SEGMENT_SIZE);
        }

        /** What the process runs (by default a name server and a broker). */
        public Builder role(Role value) {
            this.role = Objects.requireNonNull(value, "role");
            return this;
        }

        public Role role() {
            return role;
        }

        /**
         * The name servers the broker registers with: all of them with a broker alone; besides its own with a name
         * server and a broker.
         */
        public Builder nameServers(List<String> addresses) {
            this.nameServers = List.copyOf(addresses);
            return this;
        }

        /** Any name-server setting. */
        public Builder nameServer(Consumer<NameServerConfig.Builder> settings) {
            settings.accept(nameServer);
            return this;
        }

        /** Any broker setting. */
        public Builder broker(Consumer<BrokerConfig.Builder> settings) {
            settings.accept(broker);
            return this;
        }

        /** Any store setting. */
        public Builder store(Consumer<StoreConfig.Builder> settings) {
            settings.accept(store);
            return this;
        }

        /** The address both servers listen on and advertise. */
        public Builder host(String value) {
            nameServer.host(value);
            broker.host(value);
            return this;
        }

        public Builder namesrvPort(int value) {
            nameServer.port(value);
            return this;
        }

        public Builder brokerPort(int value) {
            broker.port(value);
            return this;
        }

        /** Whether and where both servers publish their metrics. */
        public Builder metrics(MetricsConfig value) {
            this.metrics = Objects.requireNonNull(value, "metrics");
            return this;
        }

        /** Authentication and authorization of both servers. */
        public Builder auth(AuthConfig value) {
            this.auth = Objects.requireNonNull(value, "auth");
            return this;
        }

        /**
         * TLS of both servers' ports (a server config: mode, certificate, key, client certificates); the broker's
         * connection to the name server then uses TLS too, trusting {@code tlsTrustCertPath}, else the server's own
         * certificate, and presenting that certificate when clients must present one.
         */
        public Builder tls(TlsConfig value) {
            this.tls = Objects.requireNonNull(value, "tls");
            return this;
        }

        public Builder pluginDir(Path value) {
            this.pluginDir = value;
            return this;
        }

        public Builder brokerName(String value) {
            broker.brokerName(value);
            return this;
        }

        public Builder clusterName(String value) {
            broker.clusterName(value);
            return this;
        }

        public Builder flushMode(FlushMode value) {
            store.flushMode(value);
            return this;
        }

        public Builder commitLogSegmentSize(int value) {
            store.commitLogSegmentSize(value);
            return this;
        }

        public Builder autoCreateTopics(boolean value) {
            broker.autoCreateTopics(value);
            return this;
        }

        public Builder sql92Enabled(boolean value) {
            broker.sql92Enabled(value);
            return this;
        }

        public Builder delayLevels(DelayLevels value) {
            broker.delayLevels(value);
            return this;
        }

        /**
         * How often undecided transactions are checked back, and how often each before it is discarded. A half
         * message is first asked about after Apache's 6 s, or after one interval when that is shorter.
         */
        public Builder transactionChecks(Duration interval, int maxChecks) {
            this.transactionCheckInterval = interval;
            this.transactionCheckMax = maxChecks;
            return this;
        }

        /**
         * How old a half message must be before it is asked about (Apache's transactionTimeOut); unset, Apache's 6 s
         * or one check interval when that is shorter.
         */
        public Builder transactionTimeout(Duration value) {
            this.transactionTimeout = Objects.requireNonNull(value, "transactionTimeout");
            return this;
        }

        /** Where the broker keeps everything (what the builder was made with). */
        public Path storeDir() {
            return storeDir;
        }

        public Builder brokerLimits(BrokerLimits value) {
            this.brokerLimits = Objects.requireNonNull(value, "brokerLimits");
            return this;
        }

        /** Connections and inbound memory of the broker; the name server gets a one-frame share of the memory. */
        public Builder remotingLimits(RemotingLimits value) {
            this.remotingLimits = Objects.requireNonNull(value, "remotingLimits");
            return this;
        }

        BrokerLimits brokerLimits() {
            return brokerLimits;
        }

        RemotingLimits remotingLimits() {
            return remotingLimits;
        }

        Duration transactionCheckInterval() {
            return transactionCheckInterval;
        }

        int transactionCheckMax() {
            return transactionCheckMax;
        }

        /** @throws IllegalArgumentException naming the first bad key and its value */
        public FerryServerConfig build() {
            broker.limits(brokerLimits).remotingLimits(remotingLimits)
                    .transactionCheckInterval(transactionCheckInterval).transactionCheckMax(transactionCheckMax);
            if (transactionTimeout != null) {
                broker.transactionTimeout(transactionTimeout);
            } else if (transactionCheckInterval != null) {
                broker.transactionTimeout(transactionCheckInterval.compareTo(TRANSACTION_TIMEOUT) < 0
                        ? transactionCheckInterval : TRANSACTION_TIMEOUT);
            }
            nameServer.remotingLimits(nameServerShare(remotingLimits)).tls(tls);
            if (!nameServer.hasKvConfigPath()) {
                nameServer.kvConfigPath(storeDir.resolve("namesrv").resolve("kvConfig.json"));
            }
            broker.tls(tls).nameServerTls(nameServerClientTls(tls)).nameServerCredentials(auth.brokerCredentials());
            NameServerConfig builtNameServer = nameServer.build();
            // a process's own name server is added when its port is known (registeringWith)
            BrokerConfig builtBroker = broker.nameServers(nameServers).build();
            return new FerryServerConfig(builtNameServer, builtBroker, store.build(), pluginDir, auth, metrics, role);
        }

        private static TlsConfig nameServerClientTls(TlsConfig server) {
            if (!server.enabled()) {
                return TlsConfig.DISABLED;
            }
            TlsConfig client = TlsConfig.client(server.trustCertificates() != null ? server.trustCertificates()
                    : server.certificateChain());
            return server.needClientAuth() ? client.presenting(server.certificateChain(), server.privateKey())
                    : client;
        }
    }
}
