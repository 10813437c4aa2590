package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.PullFlags;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.body.ConsumerData;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import dev.ferry.server.MutableClock;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InlinePullsTest {
    private final ConsumerGroups groups = new ConsumerGroups(new MutableClock(0), 1 << 20);
    private final InlinePulls rule = new InlinePulls(groups);

    private void subscribe(String group, String topic, String type, String expression) {
        groups.heartbeat(new ConsumerData(group, "CONSUME_PASSIVELY", "CLUSTERING", "CONSUME_FROM_LAST_OFFSET",
                Set.of(new SubscriptionData(topic, expression, Set.of(), Set.of(), 1, type, false)), false), "c",
                new FakeChannel("1"), true);
    }

    private static RemotingCommand.Builder pull(int maxMessages, int sysFlag) {
        return RemotingCommand.request(RequestCode.PULL_MESSAGE).extField("consumerGroup", "G")
                .extField("topic", "T").extField("maxMsgNums", Integer.toString(maxMessages))
                .extField("sysFlag", Integer.toString(sysFlag));
    }

    @Test
    void shouldInlineSmallPullsOfATagSubscription() {
        subscribe("G", "T", "TAG", "TagA || TagB");

        assertThat(rule.inline(pull(32, PullFlags.SUSPEND).build())).isTrue();
        assertThat(rule.inline(pull(InlinePulls.MAX_MESSAGES, 0).build())).isTrue();
        assertThat(rule.inline(pull(InlinePulls.MAX_MESSAGES + 1, 0).build())).as("a larger batch").isFalse();
    }

    @Test
    void shouldHandOffPullsWhoseFilterMayTakeAnyTime() {
        subscribe("G", "T", "SQL92", "a > 1");
        subscribe("P", "T", "my-plugin", "x");

        assertThat(rule.inline(pull(32, 0).build())).as("the group's SQL92 subscription").isFalse();
        assertThat(rule.inline(pull(32, 0).extField("consumerGroup", "P").build())).as("a plugin").isFalse();
        assertThat(rule.inline(pull(32, PullFlags.SUBSCRIPTION).extField("expressionType", "SQL92").build()))
                .as("SQL92 named by the pull").isFalse();
        assertThat(rule.inline(pull(32, PullFlags.SUBSCRIPTION).extField("expressionType", "TAG").build()))
                .as("the pull names its own tag expression").isTrue();
    }

    @Test
    void shouldInlineAPullOfAnUnknownSubscriptionWhichTheProcessorRefusesAtOnce() {
        assertThat(rule.inline(pull(32, 0).extField("consumerGroup", "Unknown").build())).isTrue();
    }

    @Test
    void shouldHandOffPullsItCannotRead() {
        assertThat(rule.inline(RemotingCommand.request(RequestCode.PULL_MESSAGE).build())).isFalse();
        assertThat(rule.inline(pull(32, 0).extField("topic", null).build())).isFalse();
    }
}
