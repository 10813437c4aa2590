package dev.ferry.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/**
 * The keys of Apache RocketMQ 5.3.3's BrokerConfig, MessageStoreConfig and NettyServerConfig that broker config files
 * set, as {@link FerryServerProperties} reads them: Apache's names of Ferry's keys ({@link #ALIASES}); Apache's keys
 * whose unit differs from Ferry's (hours, percent, milliseconds), converted; and keys Ferry accepts without acting on
 * them, each with why, or refuses when the value asks for what Ferry does not do and a user would rely on.
 */
final class ApacheBrokerKeys {
    /** Apache's name of the store directory, which the builder is made with. */
    static final String STORE_PATH_ROOT_DIR = "storePathRootDir";

    /** Apache's name to Ferry's, where the meaning and the value's form are the same. */
    static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("brokerClusterName", "clusterName"),
            Map.entry("brokerIP1", "host"),
            Map.entry("flushDiskType", "flushMode"),
            Map.entry("mappedFileSizeCommitLog", "commitLogSegmentSize"),
            Map.entry("autoCreateTopicEnable", "autoCreateTopics"),
            Map.entry("messageDelayLevel", "delayLevels"),
            Map.entry("enablePropertyFilter", "sql92Enabled"),
            Map.entry("sendThreadPoolQueueCapacity", "sendQueueCapacity"),
            Map.entry("pullThreadPoolQueueCapacity", "pullQueueCapacity"),
            Map.entry("heartbeatThreadPoolQueueCapacity", "clientQueueCapacity"),
            Map.entry("queryThreadPoolQueueCapacity", "queryQueueCapacity"),
            Map.entry("maxMsgsNumBatch", "maxQueryResults"));

    private static final String THREADS = "Ferry serves requests on its ioThreads event loops and a few fixed "
            + "lanes, not on a pool per request kind";
    private static final String NETTY = "Ferry's own network settings apply (ioThreads, maxConnections, "
            + "write-buffer marks)";
    private static final String FLUSH = "Ferry forces the commit log every flushIntervalCommitLog (ASYNC_FLUSH) or on "
            + "every send (SYNC_FLUSH), whatever the page count";
    private static final String DELETION = "Ferry deletes commit-log segments older than fileReservedTime (in the "
            + "deleteWhen hours), checking every cleanResourceInterval, and the oldest early while the disk is above "
            + "diskMaxUsedSpaceRatio";
    private static final String BUSY = "Ferry answers SYSTEM_BUSY when a request queue is full "
            + "(sendThreadPoolQueueCapacity ...), not after a wait";
    private static final String PULL_SIZE = "a pull returns at most 32 messages, read from the page cache or disk "
            + "alike";
    private static final String TIMERS = "Ferry's timer store sizes its log and ring itself and fires on one "
            + "thread (docs/architecture.md, Timer messages)";
    private static final String HA = "a Ferry slave follows its master over Apache's HA protocol with fixed "
            + "intervals and batches";
    private static final String STATS = "Ferry's figures are its metrics (metricsExporterType) and "
            + "BrokerStatistics";

    private ApacheBrokerKeys() {
    }

    /** Every key of Apache's this class reads: aliases, converted, ignored and conditional ones. */
    static Set<String> names() {
        Map<String, BiConsumer<FerryServerProperties.Target, String>> keys = new java.util.HashMap<>();
        add(keys);
        Set<String> names = new TreeSet<>(keys.keySet());
        names.addAll(ALIASES.keySet());
        names.add(STORE_PATH_ROOT_DIR);
        return names;
    }

    /** Adds Apache's keys that are not plain aliases to {@code keys}. */
    static void add(Map<String, BiConsumer<FerryServerProperties.Target, String>> keys) {
        for (String alias : ALIASES.keySet()) {
            if (keys.containsKey(alias)) {
                throw new IllegalStateException(alias + " is both a key of Ferry's table and an alias");
            }
        }
        honoured(keys);
        conditional(keys);
        ignored(keys);
    }

    /** Apache's keys Ferry has the behaviour of, where the unit or the value's form differs from Ferry's key. */
    private static void honoured(Map<String, BiConsumer<FerryServerProperties.Target, String>> k) {
        define(k, "storePathCommitLog", (t, v) -> t.server.store(s -> s.commitLogDir(Path.of(v))));
        define(k, "fileReservedTime", (t, v) -> t.server.store(s -> s.fileRetention(Duration.ofHours(
                range("fileReservedTime", v, 1, 100_000)))));
        define(k, "deleteWhen", (t, v) -> t.server.store(s -> s.deleteHours(deleteHours(v))));
        define(k, "diskMaxUsedSpaceRatio", (t, v) -> t.server.store(s -> s.diskCleanRatio(
                range("diskMaxUsedSpaceRatio", v, 10, 95) / 100.0)));
        define(k, "diskSpaceWarningLevelRatio", (t, v) -> t.server.store(s -> s.diskRejectRatio(
                range("diskSpaceWarningLevelRatio", v, 10, 99) / 100.0)));
        define(k, "cleanResourceInterval", (t, v) -> t.server.store(s -> s.retentionCheckInterval(
                millis("cleanResourceInterval", v))));
        define(k, "flushIntervalCommitLog", (t, v) -> t.server.store(s -> s.flushInterval(
                millis("flushIntervalCommitLog", v))));
        define(k, "syncFlushTimeout", (t, v) -> t.server.store(s -> s.syncFlushTimeout(
                millis("syncFlushTimeout", v))));
        define(k, "mappedFileSizeConsumeQueue", (t, v) -> t.server.store(s -> s.consumeQueueEntriesPerSegment(
                consumeQueueEntries(v))));
        define(k, "maxHashSlotNum", (t, v) -> t.server.store(s -> s.indexHashSlots(
                FerryServerProperties.integer("maxHashSlotNum", v))));
        define(k, "maxIndexNum", (t, v) -> t.server.store(s -> s.indexMaxEntries(
                FerryServerProperties.integer("maxIndexNum", v))));
        define(k, "maxMessageSize", (t, v) -> {
            int size = range("maxMessageSize", v, 1, Integer.MAX_VALUE);
            t.server.broker(b -> b.maxMessageSize(size)).store(s -> s.maxMessageBodySize(size));
        });
        define(k, "defaultTopicQueueNums", (t, v) -> t.server.broker(b -> b.defaultTopicQueues(
                FerryServerProperties.integer("defaultTopicQueueNums", v))));
        define(k, "flushConsumerOffsetInterval", (t, v) -> t.server.broker(b -> b.offsetPersistInterval(
                millis("flushConsumerOffsetInterval", v))));
        define(k, "channelExpiredTimeout", (t, v) -> t.server.broker(b -> b.channelExpiry(
                millis("channelExpiredTimeout", v))));
        define(k, "transactionTimeOut", (t, v) -> t.server.transactionTimeout(millis("transactionTimeOut", v)));
        define(k, "brokerIP2", (t, v) -> t.haHost = v);
        define(k, "bindAddress", (t, v) -> t.server.broker(b -> b.bindAddress(v.isBlank() ? null : v.trim())));
        define(k, "haMasterAddress", (t, v) -> t.server.broker(b -> b.haMasterAddress(v.isBlank() ? null
                : v.trim())));
        define(k, "autoCreateSubscriptionGroup", (t, v) -> t.server.broker(b -> b.autoCreateSubscriptionGroup(
                FerryServerProperties.bool("autoCreateSubscriptionGroup", v))));
    }

    /**
     * Apache's keys whose one value is what Ferry does (accepted silently); another value is refused when ignoring it
     * would weaken what a user relies on, else accepted with a warning.
     */
    private static void conditional(Map<String, BiConsumer<FerryServerProperties.Target, String>> k) {
        refusedUnless(k, "aclEnable", "false", "ACL 1.0 (plain_acl.yml) is not implemented; Ferry's access "
                + "control is Apache 5's ACL 2.0: authenticationEnabled and authorizationEnabled (docs/security.md)");
        refusedUnless(k, "enableDLegerCommitLog", "false", "Ferry has no DLedger (Raft) commit log: a broker "
                + "group is a master and slaves replicating over Apache's HA protocol (brokerRole, brokerId)");
        refusedUnless(k, "enableControllerMode", "false", "Ferry has no controller: a slave is never promoted "
                + "automatically");
        refusedUnless(k, "brokerPermission", "6", "a Ferry broker always reads and writes (6); a read-only or "
                + "write-only broker is not implemented");
        refusedUnless(k, "rejectTransactionMessage", "false", "Ferry always takes transactional messages");
        warnedUnless(k, "slaveReadEnable", "false", "clients read a broker group's queues from its master, and "
                + "from a slave only while no master is listed");
        warnedUnless(k, "longPollingEnable", "true", "Ferry always holds a pull that finds nothing (long "
                + "polling)");
        warnedUnless(k, "messageIndexEnable", "true", "Ferry always indexes messages by key and id");
        warnedUnless(k, "enableSlaveActingMaster", "false", "a Ferry slave takes no writes and acts for no master");
        warnedUnless(k, "transientStorePoolEnable", "false", "Ferry writes the commit log's mapped or open files "
                + "directly");
        warnedUnless(k, "fetchNamesrvAddrByAddressServer", "false", "Ferry registers with the name servers of "
                + "namesrvAddr");
        warnedUnless(k, "storeType", "default", "Ferry has one store: commit log, consume queues and index files");
        // Apache 5 counts the master among the replicas a SYNC_MASTER waits for: 2 is the master and one slave, what
        // Ferry's always waits for; its default, 1, waits for none
        define(k, "inSyncReplicas", (t, v) -> {
            int replicas = range("inSyncReplicas", v, 1, 64);
            if (replicas > 2) {
                throw new IllegalArgumentException("inSyncReplicas = " + v + ": refused, a Ferry SYNC_MASTER "
                        + "acknowledges once one slave has a message, not " + (replicas - 1)
                        + " (inSyncReplicas = 2 is what Ferry does)");
            }
            if (replicas == 1) {
                t.ignored.put("inSyncReplicas", "set to 1: a Ferry SYNC_MASTER waits for its slave all the same "
                        + "(Apache 5's waits for none with 1)");
            }
        });
        warnedUnless(k, "minInSyncReplicas", "1", "a Ferry SYNC_MASTER without a slave in sync stores a send and "
                + "answers SLAVE_NOT_AVAILABLE; it refuses none for want of replicas");
        warnedUnless(k, "totalReplicas", "1", "Ferry counts no replicas: a SYNC_MASTER waits for one slave");
        warnedUnless(k, "enableAutoInSyncReplicas", "false", "Ferry has no in-sync replica set to shrink: a "
                + "SYNC_MASTER waits for one slave");
        warnedUnless(k, "allAckInSyncStateSet", "false", "Ferry has no controller and no in-sync state set");
        // Apache 5's timer store drops a due timer message after three refused re-puts (a full disk) unless told to
        // retry until success; Ferry's walks the refused batch again on every tick until it is stored
        warnedUnless(k, "timerEnableRetryUntilSuccess", "true", "Ferry's timer store retries a due timer message "
                + "until it is stored and never drops one (Apache 5's, with false, drops it after three refusals)");
        warnedUnless(k, "timerSkipUnknownError", "false", "Ferry's timer store skips no timer message on an error: "
                + "it retries until the message is stored");
    }

    /** Apache's keys that change nothing in Ferry, each with why. */
    private static void ignored(Map<String, BiConsumer<FerryServerProperties.Target, String>> k) {
        for (String key : new String[] {"diskSpaceCleanForciblyRatio", "cleanFileForciblyEnable",
                "deleteCommitLogFilesInterval", "deleteConsumeQueueFilesInterval", "destroyMapedFileIntervalForcibly",
                "redeleteHangedFileInterval", "deleteFileBatchMax"}) {
            ignore(k, key, DELETION);
        }
        for (String key : new String[] {"flushCommitLogLeastPages", "flushCommitLogThoroughInterval",
                "flushCommitLogTimed", "flushIntervalConsumeQueue", "flushConsumeQueueLeastPages",
                "flushConsumeQueueThoroughInterval", "commitIntervalCommitLog", "commitCommitLogLeastPages",
                "commitCommitLogThoroughInterval", "warmMapedFileEnable", "flushLeastPagesWhenWarmMapedFile",
                "useReentrantLockWhenPutMessage", "transientStorePoolSize"}) {
            ignore(k, key, FLUSH);
        }
        for (String key : new String[] {"sendMessageThreadPoolNums", "putMessageFutureThreadPoolNums",
                "pullMessageThreadPoolNums", "litePullMessageThreadPoolNums", "ackMessageThreadPoolNums",
                "processReplyMessageThreadPoolNums", "queryMessageThreadPoolNums", "adminBrokerThreadPoolNums",
                "clientManageThreadPoolNums", "consumerManageThreadPoolNums", "heartbeatThreadPoolNums",
                "endTransactionThreadPoolNums", "loadBalanceProcessorThreadPoolNums", "recoverThreadPoolNums"}) {
            ignore(k, key, THREADS);
        }
        for (String key : new String[] {"serverWorkerThreads", "serverCallbackExecutorThreads",
                "serverSelectorThreads", "serverOnewaySemaphoreValue", "serverAsyncSemaphoreValue",
                "serverChannelMaxIdleTimeSeconds", "serverSocketSndBufSize", "serverSocketRcvBufSize",
                "serverSocketBacklog", "serverPooledByteBufAllocatorEnable", "serverNettyWorkerGroupEnable",
                "useEpollNativeSelector", "enableShutdownGracefully", "shutdownWaitTimeSeconds"}) {
            ignore(k, key, NETTY);
        }
        for (String key : new String[] {"osPageCacheBusyTimeOutMills", "brokerFastFailureEnable",
                "waitTimeMillsInSendQueue", "waitTimeMillsInPullQueue", "waitTimeMillsInHeartbeatQueue",
                "waitTimeMillsInTransactionQueue", "waitTimeMillsInAckQueue", "waitTimeMillsInLitePullQueue",
                "waitTimeMillsInAdminBrokerQueue", "clientManagerThreadPoolQueueCapacity",
                "consumerManagerThreadPoolQueueCapacity", "endTransactionPoolQueueCapacity",
                "adminBrokerThreadPoolQueueCapacity", "putThreadPoolQueueCapacity", "ackThreadPoolQueueCapacity",
                "replyThreadPoolQueueCapacity", "litePullThreadPoolQueueCapacity"}) {
            ignore(k, key, BUSY);
        }
        for (String key : new String[] {"maxTransferBytesOnMessageInMemory", "maxTransferCountOnMessageInMemory",
                "maxTransferBytesOnMessageInDisk", "maxTransferCountOnMessageInDisk"}) {
            ignore(k, key, PULL_SIZE);
        }
        for (String key : new String[] {"timerRollWindowSlot", "timerFlushIntervalMs", "timerGetMessageThreadNum",
                "timerPutMessageThreadNum", "mappedFileSizeTimerLog"}) {
            ignore(k, key, TIMERS);
        }
        for (String key : new String[] {"haSendHeartbeatInterval", "haHousekeepingInterval",
                "haTransferBatchSize", "haMaxGapNotInSync", "slaveTimeout"}) {
            ignore(k, key, HA);
        }
        for (String key : new String[] {"traceOn", "accountStatsEnable", "enableDetailStat",
                "autoDeleteUnusedStats"}) {
            ignore(k, key, STATS);
        }
        ignore(k, "rocketmqHome", "Ferry needs no home directory: its files are under storePathRootDir");
        ignore(k, "brokerConfigPath", "Ferry does not write its config back: change it with updateBrokerConfig");
        ignore(k, "brokerTopicEnable", "Ferry does not create a topic named after the broker");
        ignore(k, "clusterTopicEnable", "Ferry does not create a topic named after the cluster");
        ignore(k, "compressedRegister", "Ferry registers uncompressed");
        ignore(k, "forceRegister", "Ferry registers every registerNameServerPeriod and whenever its topics change");
        ignore(k, "registerBrokerTimeoutMills", "Ferry waits 10 s for each name server's answer");
        ignore(k, "notifyConsumerIdsChangedEnable", "Ferry always tells a group's consumers when members change");
        ignore(k, "transactionOpMsgMaxSize", "Ferry keeps transaction decisions its own way");
        ignore(k, "transactionOpBatchInterval", "Ferry keeps transaction decisions its own way");
        ignore(k, "enableCalcFilterBitMap", "Ferry evaluates filters when it reads");
        ignore(k, "flushDelayOffsetInterval", "Ferry writes delay progress (delayOffset.json) when it changes");
        ignore(k, "maxRecoveryCommitlogFiles", "Ferry recovers from its checkpoint, however many files that is");
        ignore(k, "checkCRCOnRecover", "Ferry checks every entry it recovers, body CRC included");
    }

    /** Adds {@code key}; a key Ferry's table already has is a mistake here, not something to replace silently. */
    private static void define(Map<String, BiConsumer<FerryServerProperties.Target, String>> k, String key,
                               BiConsumer<FerryServerProperties.Target, String> setter) {
        if (k.putIfAbsent(key, setter) != null) {
            throw new IllegalStateException(key + " is in Ferry's key table already");
        }
    }

    private static void ignore(Map<String, BiConsumer<FerryServerProperties.Target, String>> k, String key,
                               String why) {
        define(k, key, (t, v) -> t.ignored.put(key, why));
    }

    private static void refusedUnless(Map<String, BiConsumer<FerryServerProperties.Target, String>> k, String key,
                                      String accepted, String why) {
        define(k, key, (t, v) -> {
            if (!v.equalsIgnoreCase(accepted)) {
                throw new IllegalArgumentException(key + " = " + v + ": refused, " + why + " (" + key + " = "
                        + accepted + " is what Ferry does)");
            }
        });
    }

    private static void warnedUnless(Map<String, BiConsumer<FerryServerProperties.Target, String>> k, String key,
                                     String silent, String why) {
        define(k, key, (t, v) -> {
            if (!v.equalsIgnoreCase(silent)) {
                t.ignored.put(key, "set to " + v.toLowerCase(Locale.ROOT) + ": " + why);
            }
        });
    }

    private static int range(String key, String value, int min, int max) {
        int n = FerryServerProperties.integer(key, value);
        if (n < min || n > max) {
            throw new IllegalArgumentException(key + " = " + value + ": must be within " + min + ".." + max);
        }
        return n;
    }

    private static Duration millis(String key, String value) {
        long ms = FerryServerProperties.longValue(key, value);
        if (ms <= 0) {
            throw new IllegalArgumentException(key + " = " + value + ": must be a positive number of milliseconds");
        }
        return Duration.ofMillis(ms);
    }

    /** Apache's deleteWhen: hours of the day, {@code 04} or {@code 01;02;03}. */
    private static Set<Integer> deleteHours(String value) {
        Set<Integer> hours = new TreeSet<>();
        for (String hour : value.split(";")) {
            if (!hour.isBlank()) {
                hours.add(range("deleteWhen", hour.trim(), 0, 23));
            }
        }
        if (hours.isEmpty()) {
            throw new IllegalArgumentException("deleteWhen = " + value + ": names no hour (04, or 01;02;03)");
        }
        return hours;
    }

    /** Apache sizes a consume-queue file in bytes, Ferry in its 20-byte entries. */
    private static int consumeQueueEntries(String value) {
        int bytes = range("mappedFileSizeConsumeQueue", value, 20, Integer.MAX_VALUE);
        if (bytes % 20 != 0) {
            throw new IllegalArgumentException("mappedFileSizeConsumeQueue = " + value + ": must be a multiple of "
                    + "20, the size of a consume-queue entry");
        }
        return bytes / 20;
    }
}
