package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.protocol.body.ConsumerData;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import dev.ferry.server.MutableClock;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConsumerGroupsTest {
    private final MutableClock clock = new MutableClock(0);
    private final ConsumerGroups groups = new ConsumerGroups(clock);

    private static ConsumerData group(String name, long subVersion, String expression) {
        return new ConsumerData(name, "CONSUME_PASSIVELY", "CLUSTERING", "CONSUME_FROM_LAST_OFFSET",
                Set.of(new SubscriptionData("T", expression, Set.of(), Set.of(), subVersion, "TAG", false)), false);
    }

    @Test
    void shouldReportJoinsOnceAndListClientIdsSorted() {
        assertThat(groups.heartbeat(group("G", 1, "*"), "b", channel("1"))).isTrue();
        assertThat(groups.heartbeat(group("G", 1, "*"), "b", channel("1"))).isFalse();
        assertThat(groups.heartbeat(group("G", 1, "*"), "a", channel("2"))).isTrue();
        assertThat(groups.clientIds("G")).containsExactly("a", "b");
    }

    @Test
    void shouldKeepTheNewestSubscription() {
        groups.heartbeat(group("G", 5, "TagA"), "a", channel("1"));
        groups.heartbeat(group("G", 3, "TagOld"), "b", channel("2"));
        assertThat(groups.subscription("G", "T")).get().extracting(SubscriptionData::subString).isEqualTo("TagA");
        groups.heartbeat(group("G", 9, "TagB"), "a", channel("1"));
        assertThat(groups.subscription("G", "T")).get().extracting(SubscriptionData::subString).isEqualTo("TagB");
    }

    @Test
    void shouldDropClientsSilentForLongerThanTheExpiry() {
        groups.heartbeat(group("G", 1, "*"), "a", channel("1"));
        clock.advance(Duration.ofSeconds(60));
        groups.heartbeat(group("G", 1, "*"), "b", channel("2"));
        clock.advance(Duration.ofSeconds(61));
        assertThat(groups.expire(Duration.ofSeconds(120))).containsExactly("G");
        assertThat(groups.clientIds("G")).containsExactly("b");
        clock.advance(Duration.ofSeconds(120));
        assertThat(groups.expire(Duration.ofSeconds(120))).containsExactly("G");
        assertThat(groups.groupNames()).isEmpty();
    }

    @Test
    void shouldDropTheMembershipsOfAClosedConnection() {
        groups.heartbeat(group("G", 1, "*"), "a", channel("1"));
        groups.heartbeat(group("H", 1, "*"), "a", channel("1"));
        groups.heartbeat(group("G", 1, "*"), "b", channel("2"));
        assertThat(groups.connectionClosed("1")).containsExactlyInAnyOrder("G", "H");
        assertThat(groups.clientIds("G")).containsExactly("b");
        assertThat(groups.clientIds("H")).isEmpty();
    }

    private static RemoteChannel channel(String id) {
        return new FakeChannel(id);
    }
}
