package dev.ferry.server.broker;

import dev.ferry.format.ConfigProblems;
import dev.ferry.format.DelayLevels;
import dev.ferry.format.NameRules;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.RemotingLimits;
import dev.ferry.remoting.RemotingServerConfig;
import dev.ferry.remoting.TlsConfig;
import dev.ferry.remoting.ha.HaLimits;
import dev.ferry.remoting.ha.HaStreamClient;
import dev.ferry.server.timer.TimerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings of a {@link Broker}, validated once; messages name the bad key and value.
 *
 * @param brokerName           the broker group's name
 * @param clusterName          the cluster it belongs to
 * @param host                 address to advertise (Apache's brokerIP1), and to listen on unless {@code bindAddress}
 *                             names another
 * @param port                 port to listen on (RocketMQ's default 10911; 0 picks a free one)
 * @param nameServers          name servers to register with ({@code host:port})
 * @param storeDir             where the message store and the broker's config files live
 * @param autoCreateTopics     create a topic on its first send
 * @param defaultTopicQueues   queues of an auto-created topic
 * @param maxMessageSize       largest message body accepted, in bytes
 * @param registerInterval     how often the broker re-registers with name servers
 * @param offsetPersistInterval how often consumer offsets are written to disk
 * @param channelExpiry        a client silent this long is dropped from its groups
 * @param maxPullMessages      most messages one pull returns
 * @param sql92Enabled         whether SQL92 subscriptions are served
 * @param delayLevels          the delays of levels 1..n, for delayed messages and retries
 * @param maxReconsumeTimes    deliveries a group's message gets before it goes to the group's DLQ, unless the
 *                             client says otherwise (RocketMQ's retryMaxTimes, 16)
 * @param transactionCheckInterval how often the broker asks producers about undecided transactions
 * @param transactionTimeout   a half message younger than this is not asked about yet
 * @param transactionCheckMax  how often one transaction is asked about before it is discarded
 * @param limits               what clients may make the broker keep, queue and hold
 * @param remotingLimits       connections and the memory their requests may hold
 * @param tls                  TLS of the broker's port
 * @param nameServerTls        TLS of its connections to name servers
 * @param nameServerCredentials what it signs its requests to name servers with (authentication on), or empty
 * @param brokerId             0 for the master of its broker group, 1 and up for slaves (Apache's brokerId)
 * @param brokerRole           its part in the broker group
 * @param haPort               where a master serves replication to slaves (Apache's haListenPort). 0 leaves an
 *                             ASYNC_MASTER without one (the port streams every message unauthenticated, so it is
 *                             opened only when asked for) and puts a SYNC_MASTER's on the port after {@code port};
 *                             {@link #HA_PORT_AFTER_BROKER} puts any master's there (what a config file naming its
 *                             role ASYNC_MASTER asks for, as Apache's broker opens it).
 *                             A SLAVE opens none: Ferry does not promote a running slave, so the port is kept for
 *                             when an operator restarts the broker as its group's master (Apache's sample slave
 *                             configs may set it)
 * @param slaveSyncInterval    how often a slave copies its master's topics, groups, consumer and delay offsets
 * @param ioThreads            event loops of the broker's port: they read, check and answer requests, and store the
 *                             sends and serve the pulls they may ({@link InlineSends}, {@link InlinePulls}). Fewer
 *                             loops put a producer's and a consumer's connections on one thread more often, which
 *                             spares the wake-up between them (a shorter latency tail); more spread many connections
 *                             over more cores
 * @param haLimits             what a master's HA port allows connections that have not yet proved they are its
 *                             slaves (the handshake's deadline, how many may be at it at once)
 * @param firstOffsetRule      where a consumer group with no committed offset on a queue starts
 * @param traceTopic           the topic for message traces the broker creates at start, one queue (Apache's
 *                             msgTraceTopicName when traceTopicEnable is true), or empty: then a client's traces
 *                             need the topic made another way (auto-creation, an admin)
 * @param autoCreateSubscriptionGroup whether a consumer group's first heartbeat, pull or send-back creates it
 *                             (Apache's autoCreateSubscriptionGroup, true); when false only groups created by an
 *                             operator (updateSubGroup) and Apache's system groups are served
 * @param timers               how timer messages are held (Apache's timerWheelEnable, timerPrecisionMs,
 *                             timerMaxDelaySec, timerCongestNumEachSlot)
 * @param bindAddress          address the broker's and the HA port listen on when it is not {@code host} (Apache's
 *                             bindAddress), or empty: behind a proxy or a NAT the address clients reach differs from
 *                             the one the process binds
 * @param haMasterAddress      a slave's fixed master HA address ({@code host:port}, Apache's haMasterAddress), used in
 *                             place of the one the name servers list, or empty
 */
public record BrokerConfig(String brokerName, String clusterName, String host, int port, List<String> nameServers,
                           Path storeDir, boolean autoCreateTopics, int defaultTopicQueues, int maxMessageSize,
                           Duration registerInterval, Duration offsetPersistInterval, Duration channelExpiry,
                           int maxPullMessages, boolean sql92Enabled, DelayLevels delayLevels,
                           int maxReconsumeTimes, Duration transactionCheckInterval, Duration transactionTimeout,
                           int transactionCheckMax, BrokerLimits limits, RemotingLimits remotingLimits,
                           TlsConfig tls, TlsConfig nameServerTls, Optional<Credentials> nameServerCredentials,
                           long brokerId, BrokerRole brokerRole, int haPort, Duration slaveSyncInterval,
                           int ioThreads, HaLimits haLimits, FirstOffsetRule firstOffsetRule,
                           Optional<String> traceTopic, boolean autoCreateSubscriptionGroup,
                           TimerSettings timers, Optional<String> bindAddress, Optional<String> haMasterAddress) {
    private static final ConfigProblems CHECK = ConfigProblems.FAIL_FAST;

    public static final int DEFAULT_PORT = 10911;

    public BrokerConfig {
        CHECK.require(NameRules.isValidBrokerName(brokerName), "brokerName", brokerName,
                NameRules.BROKER_NAME_RULE);
        CHECK.require(NameRules.isValidBrokerName(clusterName), "clusterName", clusterName,
                NameRules.BROKER_NAME_RULE);
        Objects.requireNonNull(host, "host");
        CHECK.require(port >= 0 && port <= 65535, "brokerPort", port, "must be within 0..65535");
        nameServers = List.copyOf(Objects.requireNonNull(nameServers, "nameServers"));
        Objects.requireNonNull(storeDir, "storeDir");
        CHECK.require(defaultTopicQueues > 0 && defaultTopicQueues <= 1024, "defaultTopicQueues", defaultTopicQueues,
                "must be within 1..1024");
        CHECK.require(maxMessageSize > 0, "maxMessageSize", maxMessageSize, "must be positive");
        CHECK.positive("registerInterval", registerInterval);
        CHECK.positive("offsetPersistInterval", offsetPersistInterval);
        CHECK.positive("channelExpiry", channelExpiry);
        CHECK.require(maxPullMessages > 0, "maxPullMessages", maxPullMessages, "must be positive");
        Objects.requireNonNull(delayLevels, "delayLevels");
        CHECK.require(maxReconsumeTimes >= 0, "maxReconsumeTimes", maxReconsumeTimes, "must not be negative");
        CHECK.positive("transactionCheckInterval", transactionCheckInterval);
        CHECK.require(transactionTimeout != null && !transactionTimeout.isNegative(), "transactionTimeout",
                transactionTimeout, "must not be negative");
        CHECK.require(transactionCheckMax > 0, "transactionCheckMax", transactionCheckMax, "must be positive");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(remotingLimits, "remotingLimits");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(nameServerTls, "nameServerTls");
        Objects.requireNonNull(nameServerCredentials, "nameServerCredentials");
        Objects.requireNonNull(brokerRole, "brokerRole");
        Objects.requireNonNull(traceTopic, "traceTopic");
        CHECK.require(haPort == HA_PORT_AFTER_BROKER || haPort >= 0 && haPort <= 65535, "haListenPort", haPort,
                "must be within 0..65535");
        CHECK.require(haPort <= 0 || haPort != port, "haListenPort", haPort, "must differ from the broker's port");
        if (brokerRole.isMaster()) {
            CHECK.require(brokerId == MASTER_ID, "brokerId", brokerId, "a master's must be 0 (brokerRole = "
                    + brokerRole + ")");
        } else {
            CHECK.require(brokerId > MASTER_ID, "brokerId", brokerId, "a slave's must be 1 or more");
        }
        CHECK.positive("slaveSyncInterval", slaveSyncInterval);
        CHECK.within("ioThreads", ioThreads, 1, MAX_IO_THREADS);
        Objects.requireNonNull(haLimits, "haLimits");
        Objects.requireNonNull(firstOffsetRule, "firstOffsetRule");
        Objects.requireNonNull(timers, "timers");
        CHECK.require(bindAddress != null && bindAddress.map(a -> !a.isBlank()).orElse(true), "bindAddress",
                bindAddress, "must not be blank");
        CHECK.require(haMasterAddress != null && haMasterAddress.map(HaStreamClient::isAddress).orElse(true),
                "haMasterAddress", haMasterAddress.orElse(null), "must be host:port");
    }

    /** The address the broker's ports listen on: {@code bindAddress}, else {@code host}. */
    public String listenHost() {
        return bindAddress.orElse(host);
    }

    /** Most event loops a broker's port may have. */
    public static final int MAX_IO_THREADS = 64;

    /** {@code haPort}: the port after the broker's, whatever the master's role. */
    public static final int HA_PORT_AFTER_BROKER = -1;
    /** The brokerId of a master. */
    public static final long MASTER_ID = 0;

    /**
     * The port a master serves slaves on, given the port the broker listens on: {@code haPort}; else, for a
     * SYNC_MASTER or with {@link #HA_PORT_AFTER_BROKER}, the one after the broker's (or any free one when the broker's was any free one); else, and always
     * for a SLAVE, -1: none.
     */
    public int haPort(int boundPort) {
        if (!brokerRole.isMaster()) {
            return -1;
        }
        if (haPort > 0) {
            return haPort;
        }
        if (brokerRole != BrokerRole.SYNC_MASTER && haPort != HA_PORT_AFTER_BROKER) {
            return -1;
        }
        return port == 0 ? 0 : boundPort + 1;
    }

    /** The address clients reach this broker at. */
    public String address(int boundPort) {
        return host + ":" + boundPort;
    }

    /** This config registering with {@code addresses} instead. */
    public BrokerConfig withNameServers(List<String> addresses) {
        return new BrokerConfig(brokerName, clusterName, host, port, addresses, storeDir, autoCreateTopics,
                defaultTopicQueues, maxMessageSize, registerInterval, offsetPersistInterval, channelExpiry,
                maxPullMessages, sql92Enabled, delayLevels, maxReconsumeTimes, transactionCheckInterval,
                transactionTimeout, transactionCheckMax, limits, remotingLimits, tls, nameServerTls,
                nameServerCredentials, brokerId, brokerRole, haPort, slaveSyncInterval, ioThreads, haLimits,
                firstOffsetRule, traceTopic, autoCreateSubscriptionGroup, timers, bindAddress, haMasterAddress);
    }

    public static Builder builder(Path storeDir) {
        return new Builder(storeDir);
    }

    /** Builds a {@link BrokerConfig}; defaults follow RocketMQ's where users rely on them. */
    public static final class Builder {
        private String brokerName = "broker-a";
        private String clusterName = SystemTopics.DEFAULT_CLUSTER;
        private String host = "127.0.0.1";
        private String bindAddress;
        private String haMasterAddress;
        private int port = DEFAULT_PORT;
        private List<String> nameServers = List.of();
        private final Path storeDir;
        private boolean autoCreateTopics = true;
        private boolean traceTopicEnable;
        private String msgTraceTopicName = SystemTopics.TRACE_TOPIC;
        private int defaultTopicQueues = 4;
        private int maxMessageSize = 4 * 1024 * 1024;
        private Duration registerInterval = Duration.ofSeconds(30);
        private Duration offsetPersistInterval = Duration.ofSeconds(5);
        private Duration channelExpiry = Duration.ofSeconds(120);
        private int maxPullMessages = 32;
        private boolean sql92Enabled = true;
        private DelayLevels delayLevels = DelayLevels.DEFAULT;
        private int maxReconsumeTimes = 16;
        private Duration transactionCheckInterval = Duration.ofSeconds(30);
        private Duration transactionTimeout = Duration.ofSeconds(6);
        private int transactionCheckMax = 15;
        private BrokerLimits limits = BrokerLimits.defaults();
        private RemotingLimits remotingLimits = RemotingLimits.defaults();
        private TlsConfig tls = TlsConfig.DISABLED;
        private TlsConfig nameServerTls = TlsConfig.DISABLED;
        private Optional<Credentials> nameServerCredentials = Optional.empty();
        private long brokerId = MASTER_ID;
        private BrokerRole brokerRole = BrokerRole.ASYNC_MASTER;
        private int haPort;
        private Duration slaveSyncInterval = Duration.ofSeconds(10);
        private int ioThreads = RemotingServerConfig.defaultIoThreads();
        private HaLimits haLimits = HaLimits.DEFAULTS;
        private FirstOffsetRule firstOffsetRule = FirstOffsetRule.defaults();
        private boolean autoCreateSubscriptionGroup = true;
        private TimerSettings timers = TimerSettings.defaults();

        private Builder(Path storeDir) {
            this.storeDir = storeDir;
        }

        public Builder tls(TlsConfig value) {
            this.tls = value;
            return this;
        }

        public Builder nameServerTls(TlsConfig value) {
            this.nameServerTls = value;
            return this;
        }

        public Builder nameServerCredentials(Optional<Credentials> value) {
            this.nameServerCredentials = value;
            return this;
        }

        public Builder brokerId(long value) {
            this.brokerId = value;
            return this;
        }

        public Builder brokerRole(BrokerRole value) {
            this.brokerRole = value;
            return this;
        }

        /** Apache's bindAddress: where the ports listen when not on {@code host}; null for {@code host}. */
        public Builder bindAddress(String value) {
            this.bindAddress = value;
            return this;
        }

        /** Apache's haMasterAddress: a slave's fixed master HA address; null to follow the name servers. */
        public Builder haMasterAddress(String value) {
            this.haMasterAddress = value;
            return this;
        }

        /** Where slaves replicate from; 0 for the port after the broker's. */
        public Builder haPort(int value) {
            this.haPort = value;
            return this;
        }

        public Builder slaveSyncInterval(Duration value) {
            this.slaveSyncInterval = value;
            return this;
        }

        public Builder timers(TimerSettings value) {
            this.timers = value;
            return this;
        }

        public TimerSettings timers() {
            return timers;
        }

        public Builder firstOffsetRule(FirstOffsetRule value) {
            this.firstOffsetRule = value;
            return this;
        }

        public FirstOffsetRule firstOffsetRule() {
            return firstOffsetRule;
        }

        public Builder haLimits(HaLimits value) {
            this.haLimits = value;
            return this;
        }

        public Builder autoCreateSubscriptionGroup(boolean value) {
            this.autoCreateSubscriptionGroup = value;
            return this;
        }

        public Builder ioThreads(int value) {
            this.ioThreads = value;
            return this;
        }

        public Builder brokerName(String value) {
            this.brokerName = value;
            return this;
        }

        public Builder clusterName(String value) {
            this.clusterName = value;
            return this;
        }

        public Builder host(String value) {
            this.host = value;
            return this;
        }

        public Builder port(int value) {
            this.port = value;
            return this;
        }

        public Builder nameServers(List<String> value) {
            this.nameServers = value;
            return this;
        }

        public Builder autoCreateTopics(boolean value) {
            this.autoCreateTopics = value;
            return this;
        }

        public Builder defaultTopicQueues(int value) {
            this.defaultTopicQueues = value;
            return this;
        }

        public Builder maxMessageSize(int value) {
            this.maxMessageSize = value;
            return this;
        }

        public Builder registerInterval(Duration value) {
            this.registerInterval = value;
            return this;
        }

        public Builder offsetPersistInterval(Duration value) {
            this.offsetPersistInterval = value;
            return this;
        }

        public Builder channelExpiry(Duration value) {
            this.channelExpiry = value;
            return this;
        }

        public Builder maxPullMessages(int value) {
            this.maxPullMessages = value;
            return this;
        }

        public Builder sql92Enabled(boolean value) {
            this.sql92Enabled = value;
            return this;
        }

        public Builder delayLevels(DelayLevels value) {
            this.delayLevels = value;
            return this;
        }

        public Builder maxReconsumeTimes(int value) {
            this.maxReconsumeTimes = value;
            return this;
        }

        public Builder transactionCheckInterval(Duration value) {
            this.transactionCheckInterval = value;
            return this;
        }

        public Builder transactionTimeout(Duration value) {
            this.transactionTimeout = value;
            return this;
        }

        public Builder transactionCheckMax(int value) {
            this.transactionCheckMax = value;
            return this;
        }

        public Builder limits(BrokerLimits value) {
            this.limits = value;
            return this;
        }

        public Builder remotingLimits(RemotingLimits value) {
            this.remotingLimits = value;
            return this;
        }

        /** Apache's traceTopicEnable: create the trace topic at start (default false). */
        public Builder traceTopicEnable(boolean value) {
            this.traceTopicEnable = value;
            return this;
        }

        /** Apache's msgTraceTopicName: the topic created when traceTopicEnable is true. */
        public Builder msgTraceTopicName(String value) {
            this.msgTraceTopicName = value;
            return this;
        }

        private Optional<String> traceTopic() {
            String problem = NameRules.topicProblem("msgTraceTopicName", msgTraceTopicName);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            return traceTopicEnable ? Optional.of(msgTraceTopicName) : Optional.empty();
        }

        public BrokerConfig build() {
            return new BrokerConfig(brokerName, clusterName, host, port, nameServers, storeDir, autoCreateTopics,
                    defaultTopicQueues, maxMessageSize, registerInterval, offsetPersistInterval, channelExpiry,
                    maxPullMessages, sql92Enabled, delayLevels, maxReconsumeTimes, transactionCheckInterval,
                    transactionTimeout, transactionCheckMax, limits, remotingLimits, tls, nameServerTls,
                    nameServerCredentials, brokerId, brokerRole, haPort, slaveSyncInterval, ioThreads, haLimits,
                firstOffsetRule, traceTopic(), autoCreateSubscriptionGroup, timers, Optional.ofNullable(bindAddress),
                Optional.ofNullable(haMasterAddress));
        }
    }
}
