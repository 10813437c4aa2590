package dev.ferry.server.broker;

import static dev.ferry.server.broker.RawRequests.command;
import static dev.ferry.server.broker.RawRequests.pull;
import static dev.ferry.server.broker.RawRequests.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.Clock;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** What the group admin requests let a client make the broker keep, and what a deleted group leaves behind. */
@Tag("integration")
class GroupAdminTest {
    private static final long TIMEOUT_MILLIS = 10_000;

    @TempDir
    Path dir;
    private FerryServer server;
    @RegisterExtension
    static final ClassRawClient raw = new ClassRawClient();
    private String broker;

    @BeforeEach
    void start() {
        server = new FerryServer(FerryServerConfig.builder(dir).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(4 << 20).build(), Clock.system(),
                new DefaultThreadFactory("group-admin", true)).start();
        broker = "127.0.0.1:" + server.brokerPort();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private RemotingCommand invoke(RemotingCommand request) throws Exception {
        return raw.invokeSync(broker, request, TIMEOUT_MILLIS);
    }

    private RemotingCommand putGroup(String json) throws Exception {
        RemotingCommand request = command(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, Map.of());
        request.setBody(json.getBytes(StandardCharsets.UTF_8));
        return invoke(request);
    }

    private RemotingCommand getGroup(String group) throws Exception {
        return invoke(command(RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG, Map.of("group", group)));
    }

    @Test
    void shouldRefuseAGroupWhoseSettingsKeptAsSentAreLargerThanTheCapAndTakeApachesOwn() throws Exception {
        String longList = "[" + "1,".repeat(512 * 1024) + "1]"; // 1 MiB of JSON
        RemotingCommand policy = putGroup("{\"groupName\":\"CG_POLICY\",\"groupRetryPolicy\":{\"type\":\"CUSTOMIZED\","
                + "\"customizedRetryPolicy\":{\"next\":" + longList + "}}}");
        assertThat(policy.getCode()).isEqualTo(ResponseCode.INVALID_PARAMETER);
        assertThat(policy.getRemark()).startsWith("groupRetryPolicy is ").endsWith("at most 4096 are kept");
        RemotingCommand subscriptions = putGroup("{\"groupName\":\"CG_SUBS\",\"subscriptionDataSet\":" + longList
                + "}");
        assertThat(subscriptions.getCode()).isEqualTo(ResponseCode.INVALID_PARAMETER);
        assertThat(subscriptions.getRemark()).startsWith("subscriptionDataSet is ");
        assertThat(getGroup("CG_POLICY").getCode()).isEqualTo(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST);
        assertThat(getGroup("CG_SUBS").getCode()).isEqualTo(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST);

        SubscriptionGroupConfig apaches = new SubscriptionGroupConfig(); // with Apache's default retry policy
        apaches.setGroupName("CG_APACHE");
        assertThat(putGroup(RemotingSerializable.toJson(apaches, false)).getCode())
                .isEqualTo(ResponseCode.SUCCESS);
        RemotingCommand kept = getGroup("CG_APACHE");
        assertThat(kept.getCode()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(RemotingSerializable.decode(kept.getBody(), SubscriptionGroupConfig.class).getGroupRetryPolicy()
                .getType()).isEqualTo(apaches.getGroupRetryPolicy().getType());
    }

    @Test
    void shouldForgetADeletedGroupsCountsAndPullOffsetsAndCountItAfreshWhenItComesBack() throws Exception {
        assertThat(invoke(send("TopicGone", "m", "")).getCode()).isEqualTo(ResponseCode.SUCCESS);
        for (String group : new String[] {"CG_GONE", "CG_STAYS"}) {
            await().atMost(Duration.ofSeconds(10)).until(() -> invoke(pull(group, "TopicGone", 0)).getCode()
                    == ResponseCode.SUCCESS);
        }
        assertThat(server.broker().figures().messagesOut()).extracting(BrokerFigures.GroupTraffic::group)
                .containsExactlyInAnyOrder("CG_GONE", "CG_STAYS");
        assertThat(server.broker().pullOffsets().size()).isEqualTo(2);

        assertThat(invoke(command(RequestCode.DELETE_SUBSCRIPTIONGROUP, Map.of("groupName", "CG_GONE",
                "cleanOffset", "false"))).getCode()).isEqualTo(ResponseCode.SUCCESS);

        assertThat(server.broker().figures().messagesOut()).extracting(BrokerFigures.GroupTraffic::group)
                .containsExactly("CG_STAYS");
        assertThat(server.broker().pullOffsets().size()).isEqualTo(1);
        assertThat(server.broker().pullOffsets().pulledUpTo("CG_STAYS", "TopicGone", 0)).hasValue(1);

        assertThat(invoke(pull("CG_GONE", "TopicGone", 0)).getCode()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(server.broker().figures().messagesOut()).extracting(BrokerFigures.GroupTraffic::group)
                .containsExactlyInAnyOrder("CG_GONE", "CG_STAYS");
    }
}
