package dev.ferry.remoting.protocol.body;

import java.util.Map;

/** GET_ALL_SUBSCRIPTIONGROUP_CONFIG answer: every group's settings, and their version. */
public record SubscriptionGroupWrapper(Map<String, SubscriptionGroupConfig> subscriptionGroupTable,
                                       DataVersion dataVersion) {

    public SubscriptionGroupWrapper {
        subscriptionGroupTable = subscriptionGroupTable == null ? Map.of() : Map.copyOf(subscriptionGroupTable);
    }
}
