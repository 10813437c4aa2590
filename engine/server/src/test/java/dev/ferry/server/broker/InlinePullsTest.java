package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ManualClock;
import dev.ferry.format.PullFlags;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.body.ConsumerData;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InlinePullsTest {
    private final ManualClock clock = new ManualClock(0);
    private final ConsumerGroups groups = new ConsumerGroups(clock, 1 << 20);
    @TempDir
    Path dir;
    private SubscriptionGroupTable subscriptionGroups;
    private InlinePulls rule;

    @BeforeEach
    void setUp() {
        subscriptionGroups = new SubscriptionGroupTable(dir, clock, 100, 16, List.of());
        rule = new InlinePulls(groups, subscriptionGroups);
    }

    /** A group the broker knows (as after its first heartbeat or pull), subscribed to topic T. */
    private void subscribe(String group, String type, String expression) {
        subscriptionGroups.findOrCreate(group);
        groups.heartbeat(new ConsumerData(group, "CONSUME_PASSIVELY", "CLUSTERING", "CONSUME_FROM_LAST_OFFSET",
                Set.of(new SubscriptionData("T", expression, Set.of(), Set.of(), 1, type, false)), false), "c",
                new FakeChannel("1"), true);
    }

    private static RemotingCommand.Builder pull(String group, int maxMessages, int sysFlag) {
        return RemotingCommand.request(RequestCode.PULL_MESSAGE).extField("consumerGroup", group)
                .extField("topic", "T").extField("maxMsgNums", Integer.toString(maxMessages))
                .extField("sysFlag", Integer.toString(sysFlag));
    }

    @Test
    void shouldInlineSmallPullsOfAKnownGroupThatTakesEveryMessage() {
        subscribe("G", "TAG", "*");

        assertThat(rule.inline(pull("G", 32, PullFlags.SUSPEND).build())).isTrue();
        assertThat(rule.inline(pull("G", InlinePulls.MAX_MESSAGES, 0).build())).isTrue();
        assertThat(rule.inline(pull("G", InlinePulls.MAX_MESSAGES + 1, 0).build())).as("a larger batch").isFalse();
        assertThat(rule.inline(pull("G", 32, PullFlags.SUBSCRIPTION).extField("subscription", "*").build()))
                .as("the pull names its own expression").isTrue();
    }

    @Test
    void shouldHandOffPullsWhoseFilterMayScanOrTakeAnyTime() {
        subscribe("Tags", "TAG", "TagA || TagB");
        subscribe("Sql", "SQL92", "a > 1");
        subscribe("Plugin", "my-plugin", "x");

        assertThat(rule.inline(pull("Tags", 32, 0).build())).as("a tag that rarely matches scans far").isFalse();
        assertThat(rule.inline(pull("Sql", 32, 0).build())).as("SQL92").isFalse();
        assertThat(rule.inline(pull("Plugin", 32, 0).build())).as("a plugin").isFalse();
        assertThat(rule.inline(pull("Tags", 32, PullFlags.SUBSCRIPTION).extField("expressionType", "SQL92")
                .extField("subscription", "*").build())).as("SQL92 named by the pull").isFalse();
    }

    @Test
    void shouldHandOffPullsOfGroupsOrSubscriptionsTheBrokerDoesNotKnow() {
        subscribe("G", "TAG", "*");

        assertThat(rule.inline(pull("Unknown", 32, PullFlags.SUBSCRIPTION).extField("subscription", "*").build()))
                .as("creating the group takes the lock its file writes hold").isFalse();
        assertThat(rule.inline(pull("G", 32, 0).extField("topic", "Other").build()))
                .as("no subscription of the topic").isFalse();
    }

    @Test
    void shouldHandOffPullsItCannotRead() {
        subscribe("G", "TAG", "*");

        assertThat(rule.inline(RemotingCommand.request(RequestCode.PULL_MESSAGE).build())).isFalse();
        assertThat(rule.inline(pull("G", 32, 0).extField("topic", null).build())).isFalse();
    }
}
