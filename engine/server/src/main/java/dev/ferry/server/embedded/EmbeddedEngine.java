package dev.ferry.server.embedded;

import dev.ferry.format.Clock;
import dev.ferry.format.ConfigProblems;
import dev.ferry.format.DaemonThreads;
import dev.ferry.format.NameRules;
import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.TlsConfig;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.FerryServerProperties;
import dev.ferry.server.broker.BrokerFigures;
import dev.ferry.server.broker.BrokerRole;
import dev.ferry.format.DelayLevels;
import dev.ferry.store.FlushMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;

/**
 * A name server and a broker run inside another program, such as an application server's resource adapter: the one
 * entry point an embedder needs. It is configured with plain values under the names RocketMQ and the adapter give
 * them, checked all at once ({@link Settings#problems}), so nothing of the broker, the store or the network layer shows
 * through to the embedder.
 */
public final class EmbeddedEngine implements AutoCloseable {
    /** RocketMQ's default delay levels, {@code 1s 5s 10s 30s 1m ... 2h}. */
    public static final String DEFAULT_MESSAGE_DELAY_LEVEL = DelayLevels.DEFAULT_TEXT;
    private static final System.Logger LOG = System.getLogger(EmbeddedEngine.class.getName());

    private final FerryServer server;

    private EmbeddedEngine(FerryServer server) {
        this.server = server;
    }

    /** @param storeDir where the broker keeps messages, offsets, topics and groups */
    public static Settings settings(Path storeDir) {
        return new Settings(storeDir);
    }

    /**
     * The engine config file's key {@code key} is known by in Ferry: {@code flushMode} for Apache's
     * {@code flushDiskType}, {@code storeDir} for {@code storePathRootDir}, ...; else {@code key}.
     */
    public static String configKeyName(String key) {
        return FerryServerProperties.canonicalName(key);
    }

    /** {@code host:port} of the name server, as clients configure it. */
    public String nameServerAddress() {
        return server.nameServerAddress();
    }

    public int namesrvPort() {
        return server.namesrvPort();
    }

    public int brokerPort() {
        return server.brokerPort();
    }

    /** The running server, for tests and tools that look inside; an embedder needs none of it. */
    /**
     * What the engine's own clients sign requests with when its authentication is on (its broker's credentials:
     * {@code innerClientAuthenticationCredentials}, else the first super user), else empty.
     */
    public Optional<Credentials> clientCredentials() {
        return server.config().auth().brokerCredentials();
    }

    /** How a client of this process connects to the engine: TLS when its ports speak it, trusting its certificate. */
    public TlsConfig clientTls() {
        return server.config().broker().nameServerTls();
    }

    /**
     * The engine's figures now, as management views show them.
     *
     * @param messagesIn       messages producers stored since the engine started
     * @param messagesOut      messages consumers pulled since the engine started
     * @param consumerLag      messages online groups have yet to consume, over all their topics
     * @param consumerInFlight messages online groups pulled and have not committed
     */
    public record Status(int topics, int consumerGroups, long messagesIn, long messagesOut, int producerConnections,
                         int consumerConnections, long consumerLag, long consumerInFlight, long flushBehindBytes,
                         long dispatchBehindBytes) {
    }

    public Status status() {
        BrokerFigures figures = server().broker().figures();
        List<BrokerFigures.Progress> progress = figures.progress();
        return new Status(figures.topicCount(), figures.consumerGroupCount(),
                figures.messagesIn().stream().mapToLong(BrokerFigures.TopicTraffic::messages).sum(),
                figures.messagesOut().stream().mapToLong(BrokerFigures.GroupTraffic::messages).sum(),
                figures.producerConnections().stream().mapToInt(BrokerFigures.Connections::count).sum(),
                figures.consumerConnections().stream().mapToInt(BrokerFigures.Connections::count).sum(),
                progress.stream().mapToLong(BrokerFigures.Progress::lag).sum(),
                progress.stream().mapToLong(BrokerFigures.Progress::inflight).sum(),
                figures.flushBehindBytes(), figures.dispatchBehindBytes());
    }

    public FerryServer server() {
        return server;
    }

    /** Stops the broker, which persists everything, then the name server. */
    @Override
    public void close() {
        server.close();
    }

    /**
     * One setting that cannot be used.
     *
     * @param property the setting's name
     * @param value    what it was given
     * @param rule     what it must be
     */
    public record Problem(String property, Object value, String rule) {
        @Override
        public String toString() {
            return property + " = " + value + ": " + rule;
        }
    }

    /** What an embedded engine runs with; {@code ferry-server}'s defaults unless set. Not thread-safe. */
    public static final class Settings {
        private static final int MIN_SEGMENT_SIZE = 64 * 1024;
        private static final Set<String> SETTINGS = Set.of("host", "namesrvPort", "brokerPort", "pluginDir",
                "commitLogSegmentSize", "messageDelayLevel", "flushMode", "brokerName", "clusterName",
                "autoCreateTopics", "nameServer", "brokerId");

        private final Path storeDir;
        private String host = "127.0.0.1";
        private int namesrvPort = 9876;
        private int brokerPort = 10911;
        private Path pluginDir;
        private Integer commitLogSegmentSize;
        private String messageDelayLevel;
        private String flushMode;
        private String brokerName;
        private String clusterName;
        private Boolean autoCreateTopics;
        private String nameServer;
        private Long brokerId;
        private Properties engineConfig = new Properties();
        private ThreadFactory threadFactory;
        private Clock clock = Clock.system();

        private Settings(Path storeDir) {
            this.storeDir = Objects.requireNonNull(storeDir, "storeDir");
        }

        public Settings host(String value) {
            this.host = value;
            return this;
        }

        /** 0 picks any free port. */
        public Settings namesrvPort(int value) {
            this.namesrvPort = value;
            return this;
        }

        /** 0 picks any free port. */
        public Settings brokerPort(int value) {
            this.brokerPort = value;
            return this;
        }

        /** A directory of plugin jars for the broker (filters), or {@code null}. */
        public Settings pluginDir(Path value) {
            this.pluginDir = value;
            return this;
        }

        public Settings commitLogSegmentSize(int value) {
            this.commitLogSegmentSize = value;
            return this;
        }

        /** The delay levels in Apache's format, {@code 1s 5s 10s 30s 1m ...}. */
        public Settings messageDelayLevel(String value) {
            this.messageDelayLevel = value;
            return this;
        }

        /** {@code ASYNC_FLUSH} (the default) or {@code SYNC_FLUSH}: a send is acknowledged once on disk. */
        public Settings flushMode(String value) {
            this.flushMode = value;
            return this;
        }

        public Settings brokerName(String value) {
            this.brokerName = value;
            return this;
        }

        public Settings clusterName(String value) {
            this.clusterName = value;
            return this;
        }

        /**
         * Name servers elsewhere ({@code host:port;host:port}): the engine then runs a broker only, registered with
         * them, so that the engines of several application servers form one cluster; unset, it runs its own name
         * server.
         */
        public Settings nameServer(String value) {
            this.nameServer = value;
            return this;
        }

        /** Its broker's id in its broker group: 0 (the default) for a master, 1 and up for a slave of that name. */
        public Settings brokerId(long value) {
            this.brokerId = value;
            return this;
        }

        /** Whether a first send creates its topic. */
        public Settings autoCreateTopics(boolean value) {
            this.autoCreateTopics = value;
            return this;
        }

        /** More of the engine's settings, as {@code ferry-server --config} keys; applied after the ones above. */
        public Settings engineConfig(Properties value) {
            this.engineConfig = new Properties();
            this.engineConfig.putAll(Objects.requireNonNull(value, "engineConfig"));
            return this;
        }

        /** Makes every thread of the engine. */
        public Settings threadFactory(ThreadFactory value) {
            this.threadFactory = value;
            return this;
        }

        public Settings clock(Clock value) {
            this.clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        /** Every setting that cannot be used, each named; empty when the engine can be started. */
        public List<Problem> problems() {
            ConfigProblems problems = ConfigProblems.collecting(ConfigProblems.KEY_EQUALS_VALUE);
            build(problems, new ArrayList<>());
            return problems.problems().stream().map(p -> new Problem(p.key(), p.value(), p.rule())).toList();
        }

        /**
         * Starts the engine.
         *
         * @throws IllegalArgumentException naming every setting that cannot be used
         * @throws RuntimeException         when the engine cannot start (a port in use, an unreadable store)
         */
        public EmbeddedEngine start() {
            ConfigProblems problems = ConfigProblems.collecting(ConfigProblems.KEY_EQUALS_VALUE);
            List<String> warnings = new ArrayList<>();
            FerryServerConfig config = build(problems, warnings);
            problems.throwIfAny();
            warnings.forEach(line -> LOG.log(System.Logger.Level.WARNING, line));
            FerryServer server = new FerryServer(config, clock, threadFactory != null ? threadFactory
                    : daemonThreads());
            try {
                return new EmbeddedEngine(server.start());
            } catch (RuntimeException e) {
                try {
                    server.close();
                } catch (RuntimeException closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
        }

        private static ThreadFactory daemonThreads() {
            return new DaemonThreads("ferry-embedded");
        }

        /**
         * The server's config, or {@code null} with the reasons in {@code problems}; the engine config file's
         * warning (Apache keys Ferry ignores) goes to {@code warnings}.
         */
        private FerryServerConfig build(ConfigProblems problems, List<String> warnings) {
            FerryServerConfig.Builder builder = FerryServerConfig.builder(storeDir);
            problems.require(host != null && !host.isBlank(), "host", host, "must not be blank");
            problems.require(namesrvPort >= 0 && namesrvPort <= 65535, "namesrvPort", namesrvPort,
                    "must be between 0 (any free port) and 65535");
            problems.require(brokerPort >= 0 && brokerPort <= 65535, "brokerPort", brokerPort,
                    "must be between 0 (any free port) and 65535");
            if (host != null && !host.isBlank()) {
                builder.host(host.trim());
            }
            builder.namesrvPort(namesrvPort).brokerPort(brokerPort).pluginDir(pluginDir);
            if (nameServer != null) {
                parse(problems, "nameServer", nameServer, FerryServerConfig::parseNameServers,
                        "must be host:port, several separated by ';'").ifPresent(addresses ->
                        builder.role(FerryServerConfig.Role.BROKER).nameServers(addresses));
            }
            if (brokerId != null) {
                problems.require(brokerId >= 0, "brokerId", brokerId, "must be 0 (a master) or more (a slave)");
                problems.require(brokerId == 0 || nameServer != null, "brokerId", brokerId,
                        "a slave needs nameServer: its master registers with the cluster's name servers");
                long id = brokerId;
                // a slave unless the engine config file says which role
                builder.broker(b -> b.brokerId(id).brokerRole(id > 0 ? BrokerRole.SLAVE : BrokerRole.ASYNC_MASTER));
            }
            if (commitLogSegmentSize != null) {
                problems.require(commitLogSegmentSize >= MIN_SEGMENT_SIZE, "commitLogSegmentSize",
                        commitLogSegmentSize, "must be at least " + MIN_SEGMENT_SIZE + " bytes");
                builder.commitLogSegmentSize(Math.max(MIN_SEGMENT_SIZE, commitLogSegmentSize));
            }
            if (messageDelayLevel != null) {
                parse(problems, "messageDelayLevel", messageDelayLevel, DelayLevels::parse,
                        "must be durations with units, such as 1s 5s 10s 30s 1m").ifPresent(builder::delayLevels);
            }
            if (flushMode != null) {
                parse(problems, "flushMode", flushMode,
                        v -> FlushMode.valueOf(v.trim().toUpperCase(Locale.ROOT)), "must be ASYNC_FLUSH or SYNC_FLUSH")
                        .ifPresent(builder::flushMode);
            }
            if (brokerName != null) {
                problems.require(NameRules.isValidBrokerName(brokerName), "brokerName", brokerName,
                        NameRules.BROKER_NAME_RULE);
                builder.brokerName(brokerName);
            }
            if (clusterName != null) {
                problems.require(NameRules.isValidBrokerName(clusterName), "clusterName", clusterName,
                        NameRules.BROKER_NAME_RULE);
                builder.clusterName(clusterName);
            }
            if (autoCreateTopics != null) {
                builder.autoCreateTopics(autoCreateTopics);
            }
            try {
                FerryServerProperties.read(builder, engineConfig).warning().ifPresent(warnings::add);
            } catch (IllegalArgumentException e) {
                problems.add("engineConfig", engineConfig.stringPropertyNames(), e.getMessage());
            }
            if (!problems.isEmpty()) {
                return null;
            }
            try {
                return builder.build();
            } catch (IllegalArgumentException e) {
                Problem problem = fromConfig(e.getMessage());
                problems.add(problem.property(), problem.value(), problem.rule());
                return null;
            }
        }

        /**
         * A config's refusal ({@code "key = value: rule"}) as the problem of the setting it came from: one of these
         * settings when it has the key's name, else the engine config file.
         */
        private Problem fromConfig(String message) {
            int equals = message.indexOf(" = ");
            int colon = equals < 0 ? -1 : message.indexOf(": ", equals);
            if (colon > 0 && SETTINGS.contains(message.substring(0, equals))) {
                return new Problem(message.substring(0, equals), message.substring(equals + 3, colon),
                        message.substring(colon + 2));
            }
            return new Problem("engineConfig", engineConfig.stringPropertyNames(), message);
        }

        private static <T> Optional<T> parse(ConfigProblems problems, String property, String value,
                                                       Function<String, T> parser, String rule) {
            try {
                return Optional.of(parser.apply(value));
            } catch (RuntimeException e) {
                problems.add(property, value, rule + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"));
                return Optional.empty();
            }
        }
    }
}
