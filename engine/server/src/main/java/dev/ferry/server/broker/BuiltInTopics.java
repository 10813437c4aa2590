package dev.ferry.server.broker;

import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.protocol.body.Permission;
import dev.ferry.remoting.protocol.body.TopicConfig;
import java.util.Map;

/**
 * The topics a broker has before anyone creates one, added where missing (what the operator changed is kept): those
 * Apache's broker has at start, and those the store shows were in use.
 */
final class BuiltInTopics {
    private BuiltInTopics() {
    }

    /**
     * As Apache's broker: a topic named after its cluster (16 queues) and one after itself (1 queue), which Apache's
     * tools route by, and the cluster's reply topic, one queue on every broker (replies are pushed, never stored).
     * An Apache name server also refuses a broker's first registration of one topic.
     */
    static void seed(TopicConfigTable topics, BrokerConfig config) {
        int everything = Permission.READ | Permission.WRITE | Permission.INHERIT;
        topics.putIfAbsent(new TopicConfig(config.clusterName(), 16, 16, everything, null, 0, false, Map.of()));
        topics.putIfAbsent(new TopicConfig(config.brokerName(), 1, 1, everything, null, 0, false, Map.of()));
        topics.putIfAbsent(new TopicConfig(SystemTopics.replyTopic(config.clusterName()), 1, 1,
                Permission.READ | Permission.WRITE, null, 0, false, Map.of()));
    }

    /**
     * Brings back every topic {@code queuesInStore} holds messages of, both transaction topics once half messages
     * were stored (even when a crash lost them before the first decision was written), and the trace topic when
     * tracing is on.
     */
    static void restore(TopicConfigTable topics, Map<String, Integer> queuesInStore, BrokerConfig config) {
        topics.restoreFromStore(queuesInStore);
        if (queuesInStore.containsKey(SystemTopics.TRANSACTION_HALF_TOPIC)) {
            topics.ensureTransactionTopics();
        }
        config.traceTopic().ifPresent(topics::ensureTraceTopic);
    }
}
