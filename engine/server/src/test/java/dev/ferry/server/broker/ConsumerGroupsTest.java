package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ManualClock;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.protocol.body.ConsumerData;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConsumerGroupsTest {
    private final ManualClock clock = new ManualClock(0);
    private final ConsumerGroups groups = new ConsumerGroups(clock, 1 << 20);

    private static ConsumerData group(String name, long subVersion, String expression) {
        return new ConsumerData(name, "CONSUME_PASSIVELY", "CLUSTERING", "CONSUME_FROM_LAST_OFFSET",
                Set.of(new SubscriptionData("T", expression, Set.of(), Set.of(), subVersion, "TAG", false)), false);
    }

    @Test
    void shouldReportJoinsOnceAndListClientIdsSorted() {
        assertThat(groups.heartbeat(group("G", 1, "*"), "b", channel("1"), true))
                .isEqualTo(ConsumerGroups.Heartbeat.JOINED);
        assertThat(groups.heartbeat(group("G", 1, "*"), "b", channel("1"), true))
                .isEqualTo(ConsumerGroups.Heartbeat.REFRESHED);
        assertThat(groups.heartbeat(group("G", 1, "*"), "a", channel("2"), true))
                .isEqualTo(ConsumerGroups.Heartbeat.JOINED);
        assertThat(groups.clientIds("G")).containsExactly("a", "b");
    }

    @Test
    void shouldKeepTheNewestSubscription() {
        groups.heartbeat(group("G", 5, "TagA"), "a", channel("1"), true);
        groups.heartbeat(group("G", 3, "TagOld"), "b", channel("2"), true);
        assertThat(groups.subscription("G", "T")).get().extracting(SubscriptionData::subString).isEqualTo("TagA");
        groups.heartbeat(group("G", 9, "TagB"), "a", channel("1"), true);
        assertThat(groups.subscription("G", "T")).get().extracting(SubscriptionData::subString).isEqualTo("TagB");
    }

    @Test
    void shouldDropClientsSilentForLongerThanTheExpiry() {
        groups.heartbeat(group("G", 1, "*"), "a", channel("1"), true);
        clock.advance(Duration.ofSeconds(60));
        groups.heartbeat(group("G", 1, "*"), "b", channel("2"), true);
        clock.advance(Duration.ofSeconds(61));
        assertThat(groups.expire(Duration.ofSeconds(120))).containsExactly("G");
        assertThat(groups.clientIds("G")).containsExactly("b");
        clock.advance(Duration.ofSeconds(120));
        assertThat(groups.expire(Duration.ofSeconds(120))).containsExactly("G");
        assertThat(groups.groupNames()).isEmpty();
    }

    @Test
    void shouldDropTheMembershipsOfAClosedConnection() {
        groups.heartbeat(group("G", 1, "*"), "a", channel("1"), true);
        groups.heartbeat(group("H", 1, "*"), "a", channel("1"), true);
        groups.heartbeat(group("G", 1, "*"), "b", channel("2"), true);
        assertThat(groups.connectionClosed("1")).containsExactlyInAnyOrder("G", "H");
        assertThat(groups.clientIds("G")).containsExactly("b");
        assertThat(groups.clientIds("H")).isEmpty();
    }

    @Test
    void shouldReplaceAGroupsSubscriptionsWithTheHeartbeatsAndKeepThemForAHeartbeatWithoutSubscriptions() {
        groups.heartbeat(group("G", 1, "*"), "a", channel("1"), true);
        ConsumerData other = new ConsumerData("G", "CONSUME_PASSIVELY", "CLUSTERING", "CONSUME_FROM_LAST_OFFSET",
                Set.of(new SubscriptionData("U", "*", Set.of(), Set.of(), 2, "TAG", false)), false);
        groups.heartbeat(other, "a", channel("1"), true);
        assertThat(groups.subscription("G", "T")).isEmpty();
        assertThat(groups.subscription("G", "U")).isPresent();

        groups.heartbeat(new ConsumerData("G", null, null, null, Set.of(), false), "a", channel("1"), false);
        assertThat(groups.subscription("G", "U")).isPresent();
    }

    @Test
    void shouldRefuseAHeartbeatWhoseSubscriptionsWouldExceedWhatAllGroupsMayHoldAndFreeAGroupsShareWhenItGoes() {
        // room for one subscription of 64 characters, and beside it one of 5, not two of 64
        ConsumerGroups small = new ConsumerGroups(clock, 2 * ConsumerGroups.SUBSCRIPTION_OVERHEAD + 100);
        String long60 = "x".repeat(60);
        assertThat(small.heartbeat(group("G", 1, long60), "a", channel("1"), true))
                .isEqualTo(ConsumerGroups.Heartbeat.JOINED);
        assertThat(small.heartbeat(group("H", 1, long60), "b", channel("2"), true))
                .isEqualTo(ConsumerGroups.Heartbeat.REFUSED);
        assertThat(small.groupNames()).containsExactly("G");
        assertThat(small.heartbeat(group("G", 2, "*"), "a", channel("1"), true))
                .as("a group may shrink its own share").isEqualTo(ConsumerGroups.Heartbeat.CHANGED);
        assertThat(small.heartbeat(group("H", 1, long60), "b", channel("2"), true))
                .isEqualTo(ConsumerGroups.Heartbeat.JOINED);

        small.connectionClosed("2");
        // topic T, "*", "TAG" of group G, and what the subscription's objects take
        assertThat(small.subscriptionChars()).isEqualTo(1 + 1 + 3 + ConsumerGroups.SUBSCRIPTION_OVERHEAD);
    }

    @Test
    void shouldBoundTheGroupsOfAConnectionAndAllMembershipsAndForgetThemWithTheirMembers() {
        ConsumerGroups bounded = new ConsumerGroups(clock, 1 << 20, 2, 3);
        assertThat(bounded.heartbeat(group("G1", 1, "*"), "a", channel("1"), true)).isEqualTo(
                ConsumerGroups.Heartbeat.JOINED);
        assertThat(bounded.heartbeat(group("G2", 1, "*"), "a", channel("1"), true)).isEqualTo(
                ConsumerGroups.Heartbeat.JOINED);
        assertThat(bounded.heartbeat(group("G3", 1, "*"), "a", channel("1"), true))
                .as("a third group on one connection").isEqualTo(ConsumerGroups.Heartbeat.TOO_MANY_MEMBERSHIPS);
        assertThat(bounded.heartbeat(group("G1", 1, "*"), "a", channel("1"), true))
                .as("a known membership").isEqualTo(ConsumerGroups.Heartbeat.REFRESHED);
        assertThat(bounded.heartbeat(group("G3", 1, "*"), "b", channel("2"), true)).isEqualTo(
                ConsumerGroups.Heartbeat.JOINED);
        assertThat(bounded.heartbeat(group("G4", 1, "*"), "c", channel("3"), true))
                .as("three memberships in all").isEqualTo(ConsumerGroups.Heartbeat.TOO_MANY_MEMBERSHIPS);

        bounded.connectionClosed("1");
        assertThat(bounded.memberships()).isEqualTo(1);
        assertThat(bounded.heartbeat(group("G4", 1, "*"), "c", channel("3"), true)).isEqualTo(
                ConsumerGroups.Heartbeat.JOINED);
    }

    @Test
    void shouldKeepTagCodesComputedFromTheTagsNeverTheOnesAClientSent() {
        ConsumerData data = new ConsumerData("G", "CONSUME_PASSIVELY", "CLUSTERING", "CONSUME_FROM_LAST_OFFSET",
                Set.of(new SubscriptionData("T", "TagA", Set.of("TagA"), Set.of(1, 2, 3, 4, 5), 1, "TAG", false)),
                false);
        groups.heartbeat(data, "a", channel("1"), true);
        assertThat(groups.subscription("G", "T")).get().extracting(SubscriptionData::codeSet)
                .isEqualTo(Set.of("TagA".hashCode()));
    }

    private static RemoteChannel channel(String id) {
        return new FakeChannel(id);
    }
}
