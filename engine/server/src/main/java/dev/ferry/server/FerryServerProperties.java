package dev.ferry.server;

import dev.ferry.format.ConfigProblems;
import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.RemotingLimits;
import dev.ferry.remoting.TlsConfig;
import dev.ferry.remoting.ha.HaLimits;
import dev.ferry.server.auth.AuthConfig;
import dev.ferry.server.metrics.MetricsConfig;
import dev.ferry.server.broker.BrokerConfig;
import dev.ferry.server.broker.BrokerLimits;
import dev.ferry.server.broker.BrokerRole;
import dev.ferry.format.DelayLevels;
import dev.ferry.store.FlushMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/**
 * The keys of a {@link FerryServerConfig} as text: what {@code ferry-server --config FILE} and the resource adapter's
 * {@code configFile} read. One table, so both know the same keys; an unknown key or a bad value is refused with the
 * key, the value and the rule named.
 *
 * <p>An Apache RocketMQ 5.3.3 broker's config file reads as is: the keys of Apache's BrokerConfig, MessageStoreConfig
 * and NettyServerConfig that broker files set are honoured under Apache's name (an alias of Ferry's own, or a key of
 * their own where the unit differs), or accepted and listed in one start-up warning that says why Ferry does not act
 * on them, or, where ignoring the value would weaken what a user relies on (durability, security), refused with the
 * reason. docs/operations.md has the table.
 */
public final class FerryServerProperties {
    private static final ConfigProblems CHECK = ConfigProblems.FAIL_FAST;
    private static final System.Logger LOG = System.getLogger(FerryServerProperties.class.getName());

    /**
     * What a properties file set: the builder, and the keys Ferry accepted without acting on them, each with why.
     *
     * @param builder the builder the keys were applied to
     * @param ignored Apache's keys that change nothing here, in key order, each with the reason
     */
    public record Reading(FerryServerConfig.Builder builder, Map<String, String> ignored) {
        public Reading {
            ignored = Collections.unmodifiableMap(new LinkedHashMap<>(ignored));
        }

        /** The one start-up warning about {@link #ignored}, or empty when there is none. */
        public Optional<String> warning() {
            if (ignored.isEmpty()) {
                return Optional.empty();
            }
            StringBuilder line = new StringBuilder("Ferry ignores these Apache broker keys: ");
            ignored.forEach((key, why) -> line.append(key).append(" (").append(why).append("); "));
            line.setLength(line.length() - 2);
            return Optional.of(line.toString());
        }
    }

    /** What the keys set while they are applied: the server's config builder and the parts it combines. */
    static final class Target {
        final FerryServerConfig.Builder server;
        final BrokerLimits.Builder limits;
        final RemotingLimits.Builder remoting;
        Duration transactionCheckInterval;
        int transactionCheckMax;
        boolean authentication;
        boolean authorization;
        Optional<Credentials> initUser = Optional.empty();
        Optional<Credentials> innerCredentials = Optional.empty();
        TlsConfig.Mode tlsMode = TlsConfig.Mode.DISABLED;
        Path tlsCert;
        Path tlsKey;
        Path tlsTrust;
        boolean tlsNeedClientAuth;
        final MetricsConfig.Builder metrics = MetricsConfig.builder();
        Duration haHandshakeTimeout;
        Integer haMaxPendingHandshakes;
        /** Apache's keys accepted without effect, with why. */
        final Map<String, String> ignored = new TreeMap<>();
        String host;
        String haHost;
        boolean asyncMasterNamed;
        boolean haPortNamed;

        Target(FerryServerConfig.Builder server) {
            this.server = server;
            this.limits = server.brokerLimits().toBuilder();
            this.remoting = server.remotingLimits().toBuilder();
            this.transactionCheckInterval = server.transactionCheckInterval();
            this.transactionCheckMax = server.transactionCheckMax();
        }

        void finish() {
            if (asyncMasterNamed && !haPortNamed) {
                // Apache's ASYNC_MASTER serves its slaves on the port after its own: a file naming the role means
                // to have slaves (Ferry's default role, unnamed, opens no HA port)
                server.broker(b -> b.haPort(BrokerConfig.HA_PORT_AFTER_BROKER));
            }
            if (haHost != null && !haHost.equals(host)) {
                ignored.put("brokerIP2", "a master serves and advertises its HA port at brokerIP1 (host)");
            }
            server.brokerLimits(limits.build())
                    .remotingLimits(remoting.build())
                    .transactionChecks(transactionCheckInterval, transactionCheckMax)
                    .auth(new AuthConfig(authentication, authorization, initUser, innerCredentials))
                    .metrics(metrics.build());
            if (haHandshakeTimeout != null || haMaxPendingHandshakes != null) {
                HaLimits ha = new HaLimits(haHandshakeTimeout != null ? haHandshakeTimeout
                        : HaLimits.DEFAULTS.handshakeTimeout(), haMaxPendingHandshakes != null
                        ? haMaxPendingHandshakes : HaLimits.DEFAULTS.maxPendingHandshakes());
                server.broker(b -> b.haLimits(ha));
            }
            if (tlsMode != TlsConfig.Mode.DISABLED || tlsCert != null || tlsNeedClientAuth) {
                TlsConfig tls = TlsConfig.server(tlsMode, tlsCert, tlsKey);
                if (tlsNeedClientAuth) {
                    tls = tls.requiringClientCertificates(tlsTrust);
                } else if (tlsTrust != null) {
                    tls = new TlsConfig(tls.mode(), tlsCert, tlsKey, tlsTrust, false, true);
                }
                server.tls(tls);
            }
        }
    }

    private static final Map<String, BiConsumer<Target, String>> KEYS = keys();
    /** Apache's keys, left out of an unknown key's message, which names Ferry's own. */
    private static final Set<String> APACHE_KEYS = ApacheBrokerKeys.names();

    private FerryServerProperties() {
    }

    private static Map<String, BiConsumer<Target, String>> keys() {
        Map<String, BiConsumer<Target, String>> k = new LinkedHashMap<>();
        k.put("host", (t, v) -> {
            t.host = v;
            t.server.host(v);
        });
        k.put("namesrvPort", (t, v) -> t.server.namesrvPort(integer("namesrvPort", v)));
        k.put("brokerPort", (t, v) -> t.server.brokerPort(integer("brokerPort", v)));
        k.put("pluginDir", (t, v) -> t.server.pluginDir(Path.of(v)));
        k.put("brokerName", (t, v) -> t.server.brokerName(v));
        k.put("clusterName", (t, v) -> t.server.clusterName(v));
        k.put("namesrvAddr", (t, v) -> t.server.nameServers(FerryServerConfig.parseNameServers(v)));
        k.put("brokerId", (t, v) -> t.server.broker(b -> b.brokerId(longValue("brokerId", v))));
        k.put("brokerRole", (t, v) -> {
            BrokerRole role = BrokerRole.parse(v);
            t.asyncMasterNamed = role == BrokerRole.ASYNC_MASTER;
            t.server.broker(b -> b.brokerRole(role));
        });
        k.put("haListenPort", (t, v) -> {
            t.haPortNamed = true;
            t.server.broker(b -> b.haPort(integer("haListenPort", v)));
        });
        k.put("haHandshakeTimeout", (t, v) -> t.haHandshakeTimeout = DelayLevels.parseDuration(v,
                "haHandshakeTimeout"));
        k.put("haMaxPendingHandshakes", (t, v) -> t.haMaxPendingHandshakes = integer("haMaxPendingHandshakes", v));
        k.put("listenPort", FerryServerProperties::listenPort);
        k.put("slaveSyncInterval", (t, v) -> t.server.broker(b -> b.slaveSyncInterval(
                DelayLevels.parseDuration(v, "slaveSyncInterval"))));
        k.put("registerNameServerPeriod", (t, v) -> t.server.broker(b -> b.registerInterval(
                Duration.ofMillis(longValue("registerNameServerPeriod", v)))));
        // Apache's key (MessageStoreConfig): how young a queue's first message must be for a new group to start at it
        k.put("accessMessageInMemoryMaxRatio", (t, v) -> t.server.broker(b -> b.firstOffsetRule(
                b.firstOffsetRule().withRatio(integer("accessMessageInMemoryMaxRatio", v)))));
        k.put("strictLastOffset", (t, v) -> t.server.broker(b -> b.firstOffsetRule(
                b.firstOffsetRule().withStrict(bool("strictLastOffset", v)))));
        // Apache's keys (MessageStoreConfig): how timer messages are held
        k.put("timerWheelEnable", (t, v) -> t.server.broker(b -> b.timers(
                b.timers().withEnabled(bool("timerWheelEnable", v)))));
        k.put("timerPrecisionMs", (t, v) -> t.server.broker(b -> b.timers(
                b.timers().withPrecisionMs(integer("timerPrecisionMs", v)))));
        k.put("timerMaxDelaySec", (t, v) -> t.server.broker(b -> b.timers(
                b.timers().withMaxDelaySec(longValue("timerMaxDelaySec", v)))));
        k.put("timerCongestNumEachSlot", (t, v) -> t.server.broker(b -> b.timers(
                b.timers().withCongestNumEachSlot(integer("timerCongestNumEachSlot", v)))));
        k.put("ioThreads", (t, v) -> t.server.broker(b -> b.ioThreads(integer("ioThreads", v))));
        k.put("flushMode", (t, v) -> t.server.flushMode(flushMode(v)));
        k.put("commitLogSegmentSize", (t, v) -> t.server.commitLogSegmentSize(integer("commitLogSegmentSize", v)));
        k.put("autoCreateTopics", (t, v) -> t.server.autoCreateTopics(bool("autoCreateTopics", v)));
        k.put("traceTopicEnable", (t, v) -> t.server.broker(b -> b.traceTopicEnable(bool("traceTopicEnable", v))));
        k.put("msgTraceTopicName", (t, v) -> t.server.broker(b -> b.msgTraceTopicName(v)));
        k.put("sql92Enabled", (t, v) -> t.server.sql92Enabled(bool("sql92Enabled", v)));
        k.put("delayLevels", (t, v) -> t.server.delayLevels(DelayLevels.parse(v)));
        // Apache writes it in ms without a unit; Ferry's files with one
        k.put("transactionCheckInterval", (t, v) -> t.transactionCheckInterval =
                durationOrMillis("transactionCheckInterval", v));
        k.put("transactionCheckMax", (t, v) -> t.transactionCheckMax = integer("transactionCheckMax", v));
        k.put("maxTopics", (t, v) -> t.limits.maxTopics(integer("maxTopics", v)));
        k.put("maxSubscriptionGroups", (t, v) -> t.limits.maxSubscriptionGroups(integer("maxSubscriptionGroups", v)));
        k.put("maxConsumerOffsets", (t, v) -> t.limits.maxConsumerOffsets(integer("maxConsumerOffsets", v)));
        k.put("maxProducerGroups", (t, v) -> t.limits.maxProducerGroups(integer("maxProducerGroups", v)));
        k.put("maxGroupsPerConnection", (t, v) -> t.limits.maxGroupsPerConnection(integer("maxGroupsPerConnection", v)));
        k.put("maxMemberships", (t, v) -> t.limits.maxMemberships(integer("maxMemberships", v)));
        k.put("maxSubscriptionsPerGroup", (t, v) ->
                t.limits.maxSubscriptionsPerGroup(integer("maxSubscriptionsPerGroup", v)));
        k.put("maxExpressionLength", (t, v) -> t.limits.maxExpressionLength(integer("maxExpressionLength", v)));
        k.put("maxSubscriptionBytes", (t, v) -> t.limits.maxSubscriptionBytes(longValue("maxSubscriptionBytes", v)));
        k.put("filterCacheBytes", (t, v) -> t.limits.filterCacheBytes(longValue("filterCacheBytes", v)));
        k.put("maxHeldPulls", (t, v) -> t.limits.maxHeldPulls(integer("maxHeldPulls", v)));
        k.put("maxHeldPullsPerConnection", (t, v) ->
                t.limits.maxHeldPullsPerConnection(integer("maxHeldPullsPerConnection", v)));
        k.put("maxQueryResults", (t, v) -> t.limits.maxQueryResults(integer("maxQueryResults", v)));
        k.put("sendQueueCapacity", (t, v) -> t.limits.sendQueueCapacity(integer("sendQueueCapacity", v)));
        k.put("pullQueueCapacity", (t, v) -> t.limits.pullQueueCapacity(integer("pullQueueCapacity", v)));
        k.put("clientQueueCapacity", (t, v) -> t.limits.clientQueueCapacity(integer("clientQueueCapacity", v)));
        k.put("queryQueueCapacity", (t, v) -> t.limits.queryQueueCapacity(integer("queryQueueCapacity", v)));
        k.put("maxQueueLocks", (t, v) -> t.limits.maxQueueLocks(integer("maxQueueLocks", v)));
        k.put("nameServerMaxTopics", (t, v) -> t.server.nameServer(n ->
                n.maxTopics(integer("nameServerMaxTopics", v))));
        k.put("nameServerMaxTopicsPerBroker", (t, v) -> t.server.nameServer(n ->
                n.maxTopicsPerBroker(integer("nameServerMaxTopicsPerBroker", v))));
        k.put("nameServerMaxBrokersPerAddress", (t, v) -> t.server.nameServer(n ->
                n.maxBrokersPerAddress(integer("nameServerMaxBrokersPerAddress", v))));
        k.put("nameServerMaxKvBytes", (t, v) -> t.server.nameServer(n ->
                n.maxKvBytes(longValue("nameServerMaxKvBytes", v))));
        // Apache's name server key
        k.put("kvConfigPath", (t, v) -> t.server.nameServer(n -> n.kvConfigPath(Path.of(v))));
        k.put("nameServerMaxRegistrationBytes", (t, v) -> t.server.nameServer(n ->
                n.maxRegistrationBytes(integer("nameServerMaxRegistrationBytes", v))));
        k.put("maxConnections", (t, v) -> t.remoting.maxConnections(integer("maxConnections", v)));
        k.put("maxConnectionsPerAddress", (t, v) ->
                t.remoting.maxConnectionsPerAddress(integer("maxConnectionsPerAddress", v)));
        k.put("maxInboundBytes", (t, v) -> t.remoting.maxInboundBytes(longValue("maxInboundBytes", v)));
        k.put("maxInboundBytesPerConnection", (t, v) ->
                t.remoting.maxInboundBytesPerConnection(longValue("maxInboundBytesPerConnection", v)));
        k.put("frameTimeout", (t, v) -> t.remoting.frameTimeout(DelayLevels.parseDuration(v, "frameTimeout")));
        k.put("firstRequestTimeout", (t, v) ->
                t.remoting.firstRequestTimeout(DelayLevels.parseDuration(v, "firstRequestTimeout")));
        // Apache's keys (NettyServerConfig)
        k.put("writeBufferLowWaterMark", (t, v) ->
                t.remoting.writeBufferLowWaterMark(integer("writeBufferLowWaterMark", v)));
        k.put("writeBufferHighWaterMark", (t, v) ->
                t.remoting.writeBufferHighWaterMark(integer("writeBufferHighWaterMark", v)));
        k.put("maxOutboundBytes", (t, v) -> t.remoting.maxOutboundBytes(longValue("maxOutboundBytes", v)));
        k.put("writeStallTimeout", (t, v) ->
                t.remoting.writeStallTimeout(DelayLevels.parseDuration(v, "writeStallTimeout")));
        k.put("authenticationEnabled", (t, v) -> t.authentication = bool("authenticationEnabled", v));
        k.put("authorizationEnabled", (t, v) -> t.authorization = bool("authorizationEnabled", v));
        k.put("authenticateRouteQueries", (t, v) -> t.server.nameServer(n ->
                n.authenticateRouteQueries(bool("authenticateRouteQueries", v))));
        k.put("initAuthenticationUser", (t, v) ->
                t.initUser = Optional.of(AuthConfig.parseUser("initAuthenticationUser", v)));
        k.put("innerClientAuthenticationCredentials", (t, v) -> t.innerCredentials = Optional.of(
                AuthConfig.parseCredentials("innerClientAuthenticationCredentials", v)));
        k.put("tlsMode", (t, v) -> t.tlsMode = TlsConfig.Mode.parse(v));
        k.put("tlsCertPath", (t, v) -> t.tlsCert = Path.of(v));
        k.put("tlsKeyPath", (t, v) -> t.tlsKey = Path.of(v));
        k.put("tlsTrustCertPath", (t, v) -> t.tlsTrust = Path.of(v));
        k.put("tlsNeedClientAuth", (t, v) -> t.tlsNeedClientAuth = bool("tlsNeedClientAuth", v));
        k.put("metricsExporterType", (t, v) -> t.metrics.exporterType(MetricsConfig.ExporterType.parse(v)));
        k.put("metricsPromExporterHost", (t, v) -> t.metrics.host(v));
        k.put("metricsPromExporterPort", (t, v) -> t.metrics.port(integer("metricsPromExporterPort", v)));
        k.put("metricsHeaderTimeout", (t, v) -> t.metrics.headerTimeout(
                DelayLevels.parseDuration(v, "metricsHeaderTimeout")));
        k.put("metricsIdleTimeout", (t, v) -> t.metrics.idleTimeout(
                DelayLevels.parseDuration(v, "metricsIdleTimeout")));
        k.put("metricsMaxConnections", (t, v) -> t.metrics.maxConnections(integer("metricsMaxConnections", v)));
        k.put("metricsMaxHeaderBytes", (t, v) -> t.metrics.maxHeaderBytes(integer("metricsMaxHeaderBytes", v)));
        k.put("metricsScrapeThreads", (t, v) -> t.metrics.scrapeThreads(integer("metricsScrapeThreads", v)));
        ApacheBrokerKeys.add(k);
        return Collections.unmodifiableMap(k);
    }

    /** Every key, Apache's aliases included, sorted. */
    public static Set<String> keyNames() {
        Set<String> names = new TreeSet<>(KEYS.keySet());
        names.addAll(ApacheBrokerKeys.ALIASES.keySet());
        names.add(STORE_DIR);
        names.add(ApacheBrokerKeys.STORE_PATH_ROOT_DIR);
        return names;
    }

    /**
     * The key Ferry knows {@code key} by: Ferry's name of an Apache alias ({@code flushDiskType} is {@code flushMode},
     * {@code storePathRootDir} is {@code storeDir}), else {@code key} itself.
     */
    public static String canonicalName(String key) {
        if (key.equals(ApacheBrokerKeys.STORE_PATH_ROOT_DIR)) {
            return STORE_DIR;
        }
        return ApacheBrokerKeys.ALIASES.getOrDefault(key, key);
    }

    /**
     * Takes the store directory out of {@code properties}: {@code storeDir}, or Apache's {@code storePathRootDir}
     * (broker files set it), which is not a key of {@link #apply} since the builder is made with it.
     *
     * @return the directory, if either key was set
     * @throws IllegalArgumentException when both are set to different directories
     */
    public static Optional<Path> removeStoreDir(Properties properties) {
        String ferry = (String) properties.remove(STORE_DIR);
        String apache = (String) properties.remove(ApacheBrokerKeys.STORE_PATH_ROOT_DIR);
        if (ferry != null && apache != null && !samePath(ferry, apache)) {
            throw new IllegalArgumentException("storeDir = " + ferry.trim() + " and storePathRootDir = "
                    + apache.trim() + " name two directories: set one");
        }
        String chosen = ferry != null ? ferry : apache;
        return chosen == null || chosen.isBlank() ? Optional.empty() : Optional.of(Path.of(chosen.trim()));
    }

    /**
     * Applies the properties' values to {@code builder} ({@code storeDir}, which the builder was made with, is not a
     * key here); a value is checked when it is set or, for the part it belongs to, when the builder builds.
     *
     * @return {@code builder}
     * @throws IllegalArgumentException naming the key, value and rule of the first bad one, or an unknown key
     */
    public static FerryServerConfig.Builder apply(FerryServerConfig.Builder builder, Properties properties) {
        Reading reading = read(builder, properties);
        reading.warning().ifPresent(line -> LOG.log(System.Logger.Level.WARNING, line));
        return builder;
    }

    /**
     * As {@link #apply}, without logging: what was applied and which of Apache's keys were accepted without effect.
     *
     * @throws IllegalArgumentException naming the key, value and rule of the first bad one, or an unknown key
     */
    public static Reading read(FerryServerConfig.Builder builder, Properties properties) {
        Target target = new Target(builder);
        Map<String, String> byFerryName = new TreeMap<>();
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            String value = properties.getProperty(key).trim();
            String name = canonicalName(key);
            if (name.equals(STORE_DIR)) {
                requireBuilderStoreDir(builder, key, value);
                continue;
            }
            BiConsumer<Target, String> setter = KEYS.get(name);
            if (setter == null) {
                Set<String> ferryKeys = keyNames();
                ferryKeys.removeAll(APACHE_KEYS);
                throw new IllegalArgumentException("unknown key '" + key + "'; known keys: " + ferryKeys
                        + ", and the Apache broker keys docs/operations.md lists");
            }
            String earlier = byFerryName.put(name, key);
            if (earlier != null && !properties.getProperty(earlier).trim().equals(value)) {
                throw new IllegalArgumentException(earlier + " = " + properties.getProperty(earlier).trim() + " and "
                        + key + " = " + value + " set one thing two ways: set one");
            }
            try {
                setter.accept(target, value);
            } catch (IllegalArgumentException e) {
                throw name.equals(key) ? e : new IllegalArgumentException(key + " (Ferry's " + name + "): "
                        + e.getMessage(), e);
            }
        }
        target.finish();
        return new Reading(builder, target.ignored);
    }

    private static final String STORE_DIR = "storeDir";

    /** A file read after the builder was made may name its store directory, as Apache's do, but only that one. */
    private static void requireBuilderStoreDir(FerryServerConfig.Builder builder, String key, String value) {
        CHECK.require(samePath(value, builder.storeDir().toString()), key, value, "this broker's store directory is "
                + builder.storeDir() + " (set by the launcher's --store-dir or the adapter's storeDir)");
    }

    private static boolean samePath(String a, String b) {
        return Path.of(a.trim()).toAbsolutePath().normalize().equals(Path.of(b.trim()).toAbsolutePath().normalize());
    }

    /** A duration with a unit ({@code 30s}), or Apache's plain number of milliseconds. */
    static Duration durationOrMillis(String key, String value) {
        if (!value.isEmpty() && value.chars().allMatch(Character::isDigit)) {
            return Duration.ofMillis(longValue(key, value));
        }
        return DelayLevels.parseDuration(value, key);
    }

    /** Apache's listenPort: the port of what the process runs, which is ambiguous when it runs both. */
    private static void listenPort(Target target, String value) {
        int port = integer("listenPort", value);
        switch (target.server.role()) {
            case NAME_SERVER -> target.server.namesrvPort(port);
            case BROKER -> target.server.brokerPort(port);
            default -> CHECK.add("listenPort", value, "a process running a name server and a broker has two ports; "
                    + "set namesrvPort and brokerPort");
        }
    }

    static int integer(String key, String value) {
        return CHECK.parse(key, value, Integer::parseInt, "not an integer").orElseThrow();
    }

    static long longValue(String key, String value) {
        return CHECK.parse(key, value, Long::parseLong, "not an integer").orElseThrow();
    }

    static boolean bool(String key, String value) {
        CHECK.require(value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false"), key, value,
                "expected true or false");
        return Boolean.parseBoolean(value);
    }

    private static FlushMode flushMode(String value) {
        return CHECK.parse("flushMode", value, FlushMode::valueOf, "expected ASYNC_FLUSH or SYNC_FLUSH").orElseThrow();
    }
}
