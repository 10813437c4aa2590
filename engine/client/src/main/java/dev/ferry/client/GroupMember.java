package dev.ferry.client;

import dev.ferry.remoting.protocol.body.ConsumerData;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A consumer as the client's heartbeats and the broker's group notifications see it: its group, model,
 * subscriptions, and how to make it rebalance soon. Reads the consumer's live subscription map.
 */
final class GroupMember {
    private final ConsumerSettings settings;
    private final Map<String, SubscriptionFilter> filters;
    private final Runnable rebalanceSoon;
    private final ConsumerAdmin admin;

    GroupMember(ConsumerSettings settings, Map<String, SubscriptionFilter> filters, Runnable rebalanceSoon,
                ConsumerAdmin admin) {
        this.settings = settings;
        this.filters = filters;
        this.rebalanceSoon = rebalanceSoon;
        this.admin = admin;
    }

    /** What the consumer answers admin tools. */
    ConsumerAdmin admin() {
        return admin;
    }

    /** The consumer group. */
    String group() {
        return settings.group();
    }

    /** What heartbeats say about the consumer. */
    ConsumerData consumerData() {
        Set<SubscriptionData> subscriptions = filters.values().stream().map(SubscriptionFilter::data)
                .collect(Collectors.toSet());
        return new ConsumerData(settings.group(), settings.consumeType(), settings.messageModel().name(),
                settings.consumeFromWhere().wireName(), subscriptions, false);
    }

    /** Re-divides queues soon, on the client's scheduler (the broker said the group changed). */
    void rebalanceSoon() {
        rebalanceSoon.run();
    }
}
