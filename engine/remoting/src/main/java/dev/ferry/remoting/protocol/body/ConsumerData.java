package dev.ferry.remoting.protocol.body;

import java.util.Set;

/**
 * A consumer group as one client's heartbeat describes it.
 *
 * @param consumeType      {@code CONSUME_PASSIVELY} (push) or {@code CONSUME_ACTIVELY} (pull)
 * @param messageModel     {@code CLUSTERING} or {@code BROADCASTING}
 * @param consumeFromWhere where a queue without a committed offset starts
 */
public record ConsumerData(String groupName, String consumeType, String messageModel, String consumeFromWhere,
                           Set<SubscriptionData> subscriptionDataSet, boolean unitMode) {

    public ConsumerData {
        subscriptionDataSet = subscriptionDataSet == null ? Set.of() : Set.copyOf(subscriptionDataSet);
    }
}
