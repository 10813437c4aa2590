package dev.ferry.client;

import dev.ferry.api.ReceivedMessage;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import dev.ferry.spi.FilterableMessage;
import dev.ferry.spi.MessageFilter;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One subscription as the client sends it (heartbeats, pulls) and re-checks it: the broker pre-filters
 * TAG subscriptions by tag hash code, so the client drops hash collisions and untagged messages itself.
 * SQL92 is the broker's job alone. A filter plugin the client has itself is evaluated here: the broker is asked
 * for every message of the topic, so any broker serves it; one the client lacks is left to the broker. Immutable.
 */
final class SubscriptionFilter {
    private final Subscription subscription;
    private final Set<String> tags;
    private final long subVersion;
    /** The client's own filter plugin for the subscription, or {@code null} when the broker filters. */
    private final MessageFilter local;

    SubscriptionFilter(Subscription subscription, long subVersion) {
        this(subscription, subVersion, null);
    }

    SubscriptionFilter(Subscription subscription, long subVersion, MessageFilter local) {
        this.subscription = subscription;
        this.subVersion = subVersion;
        this.local = local;
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

    /** The expression the broker is asked to apply. */
    String expression() {
        return local != null ? "*" : subscription.expression();
    }

    /** The expression type the broker is asked to apply. */
    String expressionType() {
        return local != null ? Subscription.TAG : subscription.expressionType();
    }

    /** The filter plugin the client evaluates itself, if any. */
    Optional<MessageFilter> localFilter() {
        return Optional.ofNullable(local);
    }

    long subVersion() {
        return subVersion;
    }

    /** Whether the client hands the message on. */
    boolean accepts(ReceivedMessage message) {
        if (local != null) {
            return local.matches(FilterableMessage.of(message.properties()));
        }
        if (tags.isEmpty()) {
            return true;
        }
        return message.tags().map(tags::contains).orElse(false);
    }

    /** The subscription as heartbeats carry it. */
    SubscriptionData data() {
        Set<Integer> codes = tags.stream().map(String::hashCode).collect(Collectors.toSet());
        return new SubscriptionData(subscription.topic(), expression(), tags, codes, subVersion, expressionType(),
                false);
    }
}
