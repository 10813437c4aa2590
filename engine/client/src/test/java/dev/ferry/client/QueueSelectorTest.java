package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.api.MessageQueue;
import dev.ferry.format.ManualClock;
import dev.ferry.remoting.protocol.body.BrokerData;
import dev.ferry.remoting.protocol.body.QueueData;
import dev.ferry.remoting.protocol.body.TopicRouteData;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Round robin, failed-broker avoidance (timed by a fake clock) and sharding keys. */
class QueueSelectorTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final QueueSelector selector = new QueueSelector(clock, Duration.ofSeconds(10));
    private final TopicRoute route = TopicRoute.of("T", new TopicRouteData(
            List.of(new QueueData("a", 2, 2, 6, 0), new QueueData("b", 2, 2, 6, 0), new QueueData("ro", 2, 2, 4, 0)),
            List.of(new BrokerData("c", "a", Map.of(0L, "h:1"), false),
                    new BrokerData("c", "b", Map.of(0L, "h:2"), false),
                    new BrokerData("c", "ro", Map.of(0L, "h:3"), false)), Map.of()));

    private List<MessageQueue> select(int count) {
        List<MessageQueue> chosen = new ArrayList<>();
        IntStream.range(0, count).forEach(i -> chosen.add(selector.select(route, null)));
        return chosen;
    }

    @Test
    void shouldGoRoundRobinOverWritableQueues() {
        assertThat(select(8)).extracting(q -> q.brokerName() + q.queueId())
                .containsExactly("a0", "a1", "b0", "b1", "a0", "a1", "b0", "b1");
    }

    @Test
    void shouldAvoidAFailedBrokerUntilItsPauseEnds() {
        selector.brokerFailed("a");
        assertThat(select(4)).allMatch(q -> q.brokerName().equals("b"));
        clock.advance(Duration.ofSeconds(10));
        assertThat(select(4)).anyMatch(q -> q.brokerName().equals("a"));
    }

    @Test
    void shouldAvoidTheBrokerOfThePreviousAttempt() {
        for (int i = 0; i < 4; i++) {
            assertThat(selector.select(route, "b").brokerName()).isEqualTo("a");
        }
    }

    @Test
    void shouldStillChooseAQueueWhenEveryBrokerFailed() {
        selector.brokerFailed("a");
        selector.brokerFailed("b");
        assertThat(select(2)).hasSize(2);
    }

    @Test
    void shouldMapASharingKeyToOneQueue() {
        MessageQueue first = selector.selectBySharding(route, "order-42");
        for (int i = 0; i < 10; i++) {
            selector.select(route, null);
            assertThat(selector.selectBySharding(route, "order-42")).isEqualTo(first);
        }
    }
}
