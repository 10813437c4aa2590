package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.ferry.format.ManualClock;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.body.ConsumerData;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import dev.ferry.remoting.protocol.body.SubscriptionGroupConfig;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

class MembershipNoticesTest {
    private final ConsumerGroups consumers = new ConsumerGroups(new ManualClock(0), 1 << 20);
    private final Map<String, SubscriptionGroupConfig> groups = new HashMap<>();
    private final Queue<Runnable> sender = new ArrayDeque<>();
    private final MembershipNotices notices = new MembershipNotices(consumers,
            group -> Optional.ofNullable(groups.get(group)), sender::add);
    private final List<RemotingCommand> toA = new CopyOnWriteArrayList<>();
    private final List<RemotingCommand> toB = new CopyOnWriteArrayList<>();

    private void join(String group, String clientId, FakeChannel channel) {
        consumers.heartbeat(new ConsumerData(group, "CONSUME_PASSIVELY", "CLUSTERING", "CONSUME_FROM_LAST_OFFSET",
                Set.of(new SubscriptionData("T", "*", Set.of(), Set.of(), 1, "TAG", false)), false), clientId,
                channel, true);
    }

    private void send() {
        for (Runnable task; (task = sender.poll()) != null; ) {
            task.run();
        }
    }

    @Test
    void shouldTellEveryMemberOnTheSenderWhenTheGroupChanged() {
        join("G", "a", new FakeChannel("1", toA));
        join("G", "b", new FakeChannel("2", toB));

        notices.changed("G");

        assertThat(toA).as("not on the caller's thread").isEmpty();
        send();
        assertThat(toA).singleElement().satisfies(notice -> {
            assertThat(notice.code()).isEqualTo(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED);
            assertThat(notice.extField("consumerGroup")).isEqualTo("G");
        });
        assertThat(toB).hasSize(1);
    }

    @Test
    void shouldTellNobodyWhenTheGroupAsksNotToBeTold() {
        join("G", "a", new FakeChannel("1", toA));
        groups.put("G", new SubscriptionGroupConfig("G", true, true, true, false, 1, 16, null, 0, 1, false, 0, 15,
                null, Map.of()));

        notices.changed("G");

        assertThat(sender).isEmpty();
    }

    @Test
    void shouldTellNobodyOnceStopped() {
        join("G", "a", new FakeChannel("1", toA));

        notices.stop();
        notices.changed("G");

        assertThat(sender).isEmpty();
    }

    @Test
    void shouldNotThrowWhenTheSenderIsStopping() {
        join("G", "a", new FakeChannel("1", toA));
        MembershipNotices stopping = new MembershipNotices(consumers, group -> Optional.empty(), task -> {
            throw new RejectedExecutionException("stopping");
        });

        assertThatCode(() -> stopping.changed("G")).doesNotThrowAnyException();
    }

    @Test
    void shouldSendNothingForAGroupWithoutMembers() {
        notices.changed("Nobody");

        assertThat(sender).isEmpty();
    }
}
