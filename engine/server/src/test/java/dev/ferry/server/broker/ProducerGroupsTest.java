package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProducerGroupsTest {
    private final ManualClock clock = new ManualClock(0);
    private final ProducerGroups groups = new ProducerGroups(clock, 2);

    @Test
    void shouldForgetAGroupWhenItsLastClientGoesHoweverItGoes() {
        groups.heartbeat("PG_CLOSED", "a", new FakeChannel("1"));
        groups.heartbeat("PG_UNREGISTERED", "b", new FakeChannel("2"));
        groups.connectionClosed("1");
        groups.unregister("PG_UNREGISTERED", "b");
        assertThat(groups.size()).isZero();

        groups.heartbeat("PG_SILENT", "c", new FakeChannel("3"));
        clock.advance(Duration.ofSeconds(121));
        groups.expire(Duration.ofSeconds(120));
        assertThat(groups.size()).isZero();
        assertThat(groups.channels("PG_SILENT")).isEmpty();
    }

    @Test
    void shouldRefuseAGroupBeyondTheCapButKeepServingTheKnownOnes() {
        assertThat(groups.heartbeat("PG_1", "a", new FakeChannel("1"))).isTrue();
        assertThat(groups.heartbeat("PG_2", "a", new FakeChannel("1"))).isTrue();
        assertThat(groups.heartbeat("PG_3", "a", new FakeChannel("1"))).isFalse();
        assertThat(groups.heartbeat("PG_1", "b", new FakeChannel("2"))).as("a known group").isTrue();
        assertThat(groups.channels("PG_1")).hasSize(2);
    }

    @Test
    void shouldFindAClientsConnectionByItsIdInAnyGroupUntilItGoes() {
        FakeChannel requester = new FakeChannel("1");
        groups.heartbeat("PG_1", "other@client", new FakeChannel("2"));
        groups.heartbeat("PG_2", "requester@client", requester);

        assertThat(groups.channelOf("requester@client")).contains(requester);
        assertThat(groups.channelOf("unknown@client")).isEmpty();
        groups.connectionClosed("1");
        assertThat(groups.channelOf("requester@client")).isEmpty();
    }
}
