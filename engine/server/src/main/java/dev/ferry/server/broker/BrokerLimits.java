package dev.ferry.server.broker;

/**
 * How much of what clients send a {@link Broker} keeps, queues or holds: every table, cache and queue that a request
 * can grow has its bound here, validated once. docs/operations.md lists them with Apache RocketMQ's equivalents.
 *
 * @param maxTopics                  topics the broker serves, its own and auto-created ones together; a send that
 *                                   would create one more is refused. Each topic's queues map files, and the kernel
 *                                   allows a process about 65,000 mappings by default ({@code vm.max_map_count})
 * @param maxSubscriptionGroups      consumer groups the broker knows (created on a group's first heartbeat, pull or
 *                                   send-back, persisted in {@code subscriptionGroup.json})
 * @param maxConsumerOffsets         committed offsets kept, one per group, topic and queue
 * @param maxProducerGroups          producer groups with live clients
 * @param maxGroupsPerConnection      consumer groups, and producer groups, one connection may be a member of (and so
 *                                   one heartbeat may name); the rest are skipped
 * @param maxMemberships             client memberships of consumer groups, and of producer groups, over every
 *                                   connection
 * @param maxSubscriptionsPerGroup   topics one consumer group may subscribe to in one heartbeat
 * @param maxExpressionLength        characters of one subscription expression (TAG, SQL92 or a plugin's)
 * @param maxSubscriptionBytes       characters of the subscriptions of every group together, each subscription
 *                                   and each tag also counting what its objects take
 * @param filterCacheBytes           estimated memory of the compiled filters cached (weighted by expression length)
 * @param maxHeldPulls               pulls held for long polling at once
 * @param maxHeldPullsPerConnection  pulls one connection may have held at once
 * @param maxQueryResults            messages one QUERY_MESSAGE returns at most (Apache's maxMsgsNumBatch)
 * @param sendQueueCapacity          sends, batch sends and send-backs waiting for the send thread; beyond it
 *                                   SYSTEM_BUSY (Apache's sendThreadPoolQueueCapacity)
 * @param pullQueueCapacity          pulls waiting for a pull thread (Apache's pullThreadPoolQueueCapacity)
 * @param clientQueueCapacity        heartbeats, offsets, locks and lookups waiting (Apache's
 *                                   heartbeatThreadPoolQueueCapacity)
 * @param queryQueueCapacity         message queries and views waiting (Apache's queryThreadPoolQueueCapacity)
 * @param maxQueueLocks              queue locks of orderly consumers held at once, over every group; a queue beyond
 *                                   it is not locked (left out of the answer)
 */
public record BrokerLimits(int maxTopics, int maxSubscriptionGroups, int maxConsumerOffsets, int maxProducerGroups,
                           int maxGroupsPerConnection, int maxMemberships, int maxSubscriptionsPerGroup,
                           int maxExpressionLength,
                           long maxSubscriptionBytes, long filterCacheBytes, int maxHeldPulls,
                           int maxHeldPullsPerConnection, int maxQueryResults, int sendQueueCapacity,
                           int pullQueueCapacity, int clientQueueCapacity, int queryQueueCapacity,
                           int maxQueueLocks) {

    public BrokerLimits {
        positive("maxTopics", maxTopics);
        positive("maxSubscriptionGroups", maxSubscriptionGroups);
        positive("maxConsumerOffsets", maxConsumerOffsets);
        positive("maxProducerGroups", maxProducerGroups);
        positive("maxGroupsPerConnection", maxGroupsPerConnection);
        positive("maxMemberships", maxMemberships);
        positive("maxSubscriptionsPerGroup", maxSubscriptionsPerGroup);
        positive("maxExpressionLength", maxExpressionLength);
        positive("maxSubscriptionBytes", maxSubscriptionBytes);
        positive("filterCacheBytes", filterCacheBytes);
        positive("maxHeldPulls", maxHeldPulls);
        positive("maxHeldPullsPerConnection", maxHeldPullsPerConnection);
        positive("maxQueryResults", maxQueryResults);
        positive("sendQueueCapacity", sendQueueCapacity);
        positive("pullQueueCapacity", pullQueueCapacity);
        positive("clientQueueCapacity", clientQueueCapacity);
        positive("queryQueueCapacity", queryQueueCapacity);
        positive("maxQueueLocks", maxQueueLocks);
    }

    private static void positive(String key, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(key + " = " + value + ": must be positive");
        }
    }

    public static BrokerLimits defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().maxTopics(maxTopics).maxSubscriptionGroups(maxSubscriptionGroups)
                .maxConsumerOffsets(maxConsumerOffsets).maxProducerGroups(maxProducerGroups)
                .maxGroupsPerConnection(maxGroupsPerConnection).maxMemberships(maxMemberships)
                .maxSubscriptionsPerGroup(maxSubscriptionsPerGroup)
                .maxExpressionLength(maxExpressionLength).maxSubscriptionBytes(maxSubscriptionBytes)
                .filterCacheBytes(filterCacheBytes).maxHeldPulls(maxHeldPulls)
                .maxHeldPullsPerConnection(maxHeldPullsPerConnection).maxQueryResults(maxQueryResults)
                .sendQueueCapacity(sendQueueCapacity).pullQueueCapacity(pullQueueCapacity)
                .clientQueueCapacity(clientQueueCapacity).queryQueueCapacity(queryQueueCapacity)
                .maxQueueLocks(maxQueueLocks);
    }

    /** Builds {@link BrokerLimits}; the defaults are Apache's where Apache has a bound. */
    public static final class Builder {
        private int maxTopics = 10_000;
        private int maxSubscriptionGroups = 10_000;
        private int maxConsumerOffsets = 1_000_000;
        private int maxProducerGroups = 10_000;
        private int maxGroupsPerConnection = 1_000;
        private int maxMemberships = 100_000;
        private int maxSubscriptionsPerGroup = 1_000;
        private int maxExpressionLength = 16 * 1024;
        private long maxSubscriptionBytes = 64L << 20;
        private long filterCacheBytes = 32L << 20;
        private int maxHeldPulls = 100_000;
        private int maxHeldPullsPerConnection = 4_096;
        private int maxQueryResults = 64;
        private int sendQueueCapacity = 10_000;
        private int pullQueueCapacity = 100_000;
        private int clientQueueCapacity = 50_000;
        private int queryQueueCapacity = 20_000;
        private int maxQueueLocks = 100_000;

        public Builder maxTopics(int value) {
            this.maxTopics = value;
            return this;
        }

        public Builder maxSubscriptionGroups(int value) {
            this.maxSubscriptionGroups = value;
            return this;
        }

        public Builder maxConsumerOffsets(int value) {
            this.maxConsumerOffsets = value;
            return this;
        }

        public Builder maxProducerGroups(int value) {
            this.maxProducerGroups = value;
            return this;
        }

        public Builder maxGroupsPerConnection(int value) {
            this.maxGroupsPerConnection = value;
            return this;
        }

        public Builder maxMemberships(int value) {
            this.maxMemberships = value;
            return this;
        }

        public Builder maxSubscriptionsPerGroup(int value) {
            this.maxSubscriptionsPerGroup = value;
            return this;
        }

        public Builder maxExpressionLength(int value) {
            this.maxExpressionLength = value;
            return this;
        }

        public Builder maxSubscriptionBytes(long value) {
            this.maxSubscriptionBytes = value;
            return this;
        }

        public Builder filterCacheBytes(long value) {
            this.filterCacheBytes = value;
            return this;
        }

        public Builder maxHeldPulls(int value) {
            this.maxHeldPulls = value;
            return this;
        }

        public Builder maxHeldPullsPerConnection(int value) {
            this.maxHeldPullsPerConnection = value;
            return this;
        }

        public Builder maxQueryResults(int value) {
            this.maxQueryResults = value;
            return this;
        }

        public Builder sendQueueCapacity(int value) {
            this.sendQueueCapacity = value;
            return this;
        }

        public Builder pullQueueCapacity(int value) {
            this.pullQueueCapacity = value;
            return this;
        }

        public Builder clientQueueCapacity(int value) {
            this.clientQueueCapacity = value;
            return this;
        }

        public Builder queryQueueCapacity(int value) {
            this.queryQueueCapacity = value;
            return this;
        }

        public Builder maxQueueLocks(int value) {
            this.maxQueueLocks = value;
            return this;
        }

        public BrokerLimits build() {
            return new BrokerLimits(maxTopics, maxSubscriptionGroups, maxConsumerOffsets, maxProducerGroups,
                    maxGroupsPerConnection, maxMemberships, maxSubscriptionsPerGroup, maxExpressionLength,
                    maxSubscriptionBytes, filterCacheBytes, maxHeldPulls, maxHeldPullsPerConnection, maxQueryResults,
                    sendQueueCapacity, pullQueueCapacity, clientQueueCapacity, queryQueueCapacity, maxQueueLocks);
        }
    }
}
