package dev.ferry.client;

import dev.ferry.api.FerryException;
import dev.ferry.api.MessageQueue;
import dev.ferry.format.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chooses the queue a message goes to: round robin over a topic's writable queues, skipping brokers that
 * failed a send within the last {@code failurePause} and the broker the previous attempt failed on; a
 * sharding key always maps to the same queue while the route stays the same. Thread-safe.
 */
final class QueueSelector {
    private final Clock clock;
    private final Duration failurePause;
    private final Map<String, AtomicInteger> nextIndex = new ConcurrentHashMap<>();
    private final Map<String, Instant> failedUntil = new ConcurrentHashMap<>();

    QueueSelector(Clock clock, Duration failurePause) {
        this.clock = clock;
        this.failurePause = failurePause;
    }

    /**
     * The next queue of the route in round-robin order that is not on {@code avoidBroker} nor on a
     * recently failed broker; when every broker is excluded, the next queue regardless.
     */
    MessageQueue select(TopicRoute route, String avoidBroker) {
        List<MessageQueue> queues = writeQueues(route);
        AtomicInteger counter = nextIndex.computeIfAbsent(route.topic(), t -> new AtomicInteger());
        Instant now = clock.instant();
        for (int i = 0; i < queues.size(); i++) {
            MessageQueue candidate = queues.get(Math.floorMod(counter.getAndIncrement(), queues.size()));
            if (!candidate.brokerName().equals(avoidBroker) && available(candidate.brokerName(), now)) {
                return candidate;
            }
        }
        return queues.get(Math.floorMod(counter.getAndIncrement(), queues.size()));
    }

    /** The queue of {@code shardingKey}: the same key always gets the same queue of the same route. */
    MessageQueue selectBySharding(TopicRoute route, String shardingKey) {
        List<MessageQueue> queues = writeQueues(route);
        return queues.get(Math.floorMod(shardingKey.hashCode(), queues.size()));
    }

    /** Remembers that a send to {@code brokerName} failed, so it is avoided for a while. */
    void brokerFailed(String brokerName) {
        failedUntil.put(brokerName, clock.instant().plus(failurePause));
    }

    /** Forgets an earlier failure of {@code brokerName}. */
    void brokerSucceeded(String brokerName) {
        failedUntil.remove(brokerName);
    }

    private boolean available(String brokerName, Instant now) {
        Instant until = failedUntil.get(brokerName);
        return until == null || !now.isBefore(until);
    }

    private static List<MessageQueue> writeQueues(TopicRoute route) {
        List<MessageQueue> queues = route.writeQueues();
        if (queues.isEmpty()) {
            throw new FerryException("topic '" + route.topic() + "' has no writable queue");
        }
        return queues;
    }
}
