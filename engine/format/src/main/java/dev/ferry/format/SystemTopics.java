package dev.ferry.format;

import java.util.Set;

/**
 * The names RocketMQ reserves: its system topics, the retry and dead-letter topics derived from group names, and its
 * system groups. The one place these names are spelled (property names are {@link MessageProperties}'); a test keeps
 * every other main source file free of them.
 */
public final class SystemTopics {
    /** The topic whose route producers use for a topic that does not exist yet. */
    public static final String AUTO_CREATE_TOPIC = "TBW102";
    public static final String RETRY_PREFIX = "%RETRY%";
    public static final String DLQ_PREFIX = "%DLQ%";
    /** Where delayed messages wait, one queue per delay level. */
    public static final String SCHEDULE_TOPIC = "SCHEDULE_TOPIC_XXXX";
    public static final String TRANSACTION_HALF_TOPIC = "RMQ_SYS_TRANS_HALF_TOPIC";
    public static final String TRANSACTION_OP_TOPIC = "RMQ_SYS_TRANS_OP_HALF_TOPIC";
    /** The group whose offsets on the two transaction topics mark how far a broker's transaction check has come. */
    public static final String TRANSACTION_CHECK_GROUP = "CID_RMQ_SYS_TRANS";
    /** Where message traces go unless a client or broker names another topic (Apache's msgTraceTopicName). */
    public static final String TRACE_TOPIC = "RMQ_SYS_TRACE_TOPIC";
    /** Where timer messages wait for their time, one queue (Apache's timer topic). */
    public static final String TIMER_TOPIC = "rmq_sys_wheel_timer";
    /** The cluster a broker belongs to unless told otherwise (Apache's brokerClusterName), also a topic it seeds. */
    public static final String DEFAULT_CLUSTER = "DefaultCluster";

    private static final Set<String> BROKER_ONLY = Set.of(AUTO_CREATE_TOPIC, SCHEDULE_TOPIC, TRANSACTION_HALF_TOPIC,
            TRANSACTION_OP_TOPIC, TIMER_TOPIC);

    /** Topics Apache reserves (besides those with {@link #SYSTEM_PREFIX}): no operator creates or deletes them. */
    private static final Set<String> RESERVED = Set.of(AUTO_CREATE_TOPIC, SCHEDULE_TOPIC, TRANSACTION_HALF_TOPIC,
            TRANSACTION_OP_TOPIC, "BenchmarkTest", TRACE_TOPIC, "TRANS_CHECK_MAX_TIME_TOPIC",
            "SELF_TEST_TOPIC", "OFFSET_MOVED_EVENT", "CHECKPOINT_TOPIC");
    /** The prefix of Apache's own consumer groups, which its broker creates on first use whatever its settings. */
    public static final String SYSTEM_GROUP_PREFIX = "CID_RMQ_SYS_";
    /** Groups Apache's broker creates at start (its tools use them), besides those with the prefix above. */
    private static final Set<String> SYSTEM_GROUPS = Set.of("TOOLS_CONSUMER", "FILTERSRV_CONSUMER",
            "SELF_TEST_C_GROUP", "CID_ONS-HTTP-PROXY", "CID_ONSAPI_PERMISSION", "CID_ONSAPI_OWNER", "CID_ONSAPI_PULL");
    /** What a cluster's name is followed by in the name of its reply topic, Apache's {@code <cluster>_REPLY_TOPIC}. */
    public static final String REPLY_TOPIC_SUFFIX = "_REPLY_TOPIC";
    /** The prefix of Apache's newer system topics. */
    public static final String SYSTEM_PREFIX = "rmq_sys_";

    private SystemTopics() {
    }

    public static String retryTopic(String group) {
        return RETRY_PREFIX + group;
    }

    /**
     * The topic replies to requests are sent to in {@code cluster}: every broker of the cluster has it (one queue),
     * so that a replier can reach any of them; a reply is pushed to its requester's connection, not kept there.
     */
    public static String replyTopic(String cluster) {
        return cluster + REPLY_TOPIC_SUFFIX;
    }

    public static String deadLetterTopic(String group) {
        return DLQ_PREFIX + group;
    }

    public static boolean isRetryTopic(String topic) {
        return topic.startsWith(RETRY_PREFIX);
    }

    public static boolean isDeadLetterTopic(String topic) {
        return topic.startsWith(DLQ_PREFIX);
    }

    /** The group a retry or dead-letter topic belongs to, or {@code null} for any other topic. */
    public static String groupOf(String topic) {
        if (isRetryTopic(topic)) {
            return topic.substring(RETRY_PREFIX.length());
        }
        return isDeadLetterTopic(topic) ? topic.substring(DLQ_PREFIX.length()) : null;
    }

    /** Whether {@code topic} is one the system reserves, so that admin requests may not create or delete it. */
    public static boolean isSystemTopic(String topic) {
        return RESERVED.contains(topic) || topic.startsWith(SYSTEM_PREFIX);
    }

    /** Whether {@code group} is one of Apache's own consumer groups ({@link #SYSTEM_GROUP_PREFIX}). */
    public static boolean hasSystemGroupPrefix(String group) {
        return group != null && group.startsWith(SYSTEM_GROUP_PREFIX);
    }

    /** Whether {@code group} is one Apache's broker has without being asked: its own groups and its tools'. */
    public static boolean isSystemGroup(String group) {
        return hasSystemGroupPrefix(group) || SYSTEM_GROUPS.contains(group);
    }

    /** Whether only the broker itself writes to {@code topic}: producers may not send to it. */
    public static boolean isBrokerOnly(String topic) {
        return BROKER_ONLY.contains(topic);
    }
}
