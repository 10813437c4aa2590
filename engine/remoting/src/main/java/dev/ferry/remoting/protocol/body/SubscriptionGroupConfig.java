package dev.ferry.remoting.protocol.body;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * A consumer group's settings, with Apache's field names and defaults. Ferry acts on {@code consumeEnable},
 * {@code consumeBroadcastEnable}, {@code retryQueueNums}, {@code retryMaxTimes} and
 * {@code notifyConsumerIdsChangedEnable}; the others are kept and answered as set, as Apache's broker keeps them.
 *
 * @param groupRetryPolicy        kept as sent (Apache's broker does not read it either); the broker takes at most
 *                                4 KiB of JSON
 * @param subscriptionDataSet     kept as sent; the broker takes at most 4 KiB of JSON
 */
public record SubscriptionGroupConfig(String groupName, boolean consumeEnable, boolean consumeFromMinEnable,
                                      boolean consumeBroadcastEnable, boolean consumeMessageOrderly,
                                      int retryQueueNums, int retryMaxTimes, JsonNode groupRetryPolicy,
                                      long brokerId, long whichBrokerWhenConsumeSlowly,
                                      Boolean notifyConsumerIdsChangedEnable, int groupSysFlag,
                                      Integer consumeTimeoutMinute, JsonNode subscriptionDataSet,
                                      Map<String, String> attributes) {

    /** Apache's default deliveries before a message goes to the group's DLQ. */
    public static final int DEFAULT_RETRY_MAX_TIMES = 16;

    public SubscriptionGroupConfig {
        notifyConsumerIdsChangedEnable = notifyConsumerIdsChangedEnable == null || notifyConsumerIdsChangedEnable;
        consumeTimeoutMinute = consumeTimeoutMinute == null ? 15 : consumeTimeoutMinute;
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
    }

    /** A group created with Apache's defaults on first use. */
    public static SubscriptionGroupConfig of(String group, int retryMaxTimes) {
        return new SubscriptionGroupConfig(group, true, true, true, false, 1, retryMaxTimes, null, 0, 1, true, 0, 15,
                null, Map.of());
    }

    /** Whether heartbeats and departures of the group's clients tell the others to rebalance. */
    public boolean notifiesConsumerIdsChanged() {
        return notifyConsumerIdsChangedEnable;
    }
}
