package dev.ferry.client;

import dev.ferry.api.ReceivedMessage;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One subscription as the client sends it (heartbeats, pulls) and re-checks it: the broker pre-filters
 * TAG subscriptions by tag hash code, so the client drops hash collisions and untagged messages itself.
 * Other expression types (SQL92, plugins) are the broker's job alone. Immutable.
 */
final class SubscriptionFilter {
    private final Subscription subscription;
    private final Set<String> tags;
    private final long subVersion;

    SubscriptionFilter(Subscription subscription, long subVersion) {
        this.subscription = subscription;
        this.subVersion = subVersion;
        this.tags = isTag() && !"*".equals(subscription.expression())
                ? Arrays.stream(subscription.expression().split("\\|\\|")).map(String::trim)
                        .filter(t -> !t.isEmpty()).collect(Collectors.toCollection(LinkedHashSet::new))
                : Set.of();
    }

    private boolean isTag() {
        return Subscription.TAG.equalsIgnoreCase(subscription.expressionType());
    }

    String topic() {
        return subscription.topic();
    }

    String expression() {
        return subscription.expression();
    }

    String expressionType() {
        return subscription.expressionType();
    }

    long subVersion() {
        return subVersion;
    }

    /** Whether the client hands the message on. */
    boolean accepts(ReceivedMessage message) {
        if (tags.isEmpty()) {
            return true;
        }
        return message.tags().map(tags::contains).orElse(false);
    }

    /** The subscription as heartbeats carry it. */
    SubscriptionData data() {
        Set<Integer> codes = tags.stream().map(String::hashCode).collect(Collectors.toSet());
        return new SubscriptionData(subscription.topic(), subscription.expression(), tags, codes, subVersion,
                subscription.expressionType(), false);
    }
}
