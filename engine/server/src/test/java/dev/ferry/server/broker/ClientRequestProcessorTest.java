package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ManualClock;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.ConsumerData;
import dev.ferry.remoting.protocol.body.HeartbeatData;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import dev.ferry.spi.MessageFilterProvider;
import dev.ferry.spi.PluginRegistry;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What the broker keeps of a heartbeat: only Apache's values for a group's settings, and subscriptions at cost. */
class ClientRequestProcessorTest {
    private static final String HUGE = "X".repeat(1 << 20);

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private final BodyCodec json = new BodyCodec();
    private ConsumerGroups consumers;
    private ClientRequestProcessor processor;

    private void start(BrokerLimits limits) {
        consumers = new ConsumerGroups(clock, limits.maxSubscriptionBytes(), limits.maxGroupsPerConnection(),
                limits.maxMemberships());
        TopicConfigTable topics = new TopicConfigTable(dir, clock, limits.maxTopics());
        SubscriptionGroupTable groups = new SubscriptionGroupTable(dir, clock, limits.maxSubscriptionGroups(), 16,
                List.of());
        RetryRouting retries = new RetryRouting(16, groups::get, topics, () -> { });
        SubscriptionFilters filters = new SubscriptionFilters(PluginRegistry.load(MessageFilterProvider.KIND,
                getClass().getClassLoader()), true, limits.maxExpressionLength(), limits.filterCacheBytes());
        processor = new ClientRequestProcessor(consumers, new ProducerGroups(clock, limits.maxProducerGroups()),
                groups, retries, filters, limits, json, group -> { }, group -> { });
    }

    private RemotingCommand heartbeat(String connection, ConsumerData... consumers) {
        HeartbeatData body = new HeartbeatData("client-" + connection, Set.of(), Set.of(consumers), 0, false);
        RemotingCommand request = RemotingCommand.request(RequestCode.HEART_BEAT).body(json.encode(body)).build();
        FakeChannel channel = new FakeChannel(connection);
        return processor.process(new RequestContext() {
            @Override
            public RemoteChannel channel() {
                return channel;
            }

            @Override
            public void respond(RemotingCommand response) {
                throw new AssertionError("a heartbeat is answered at once");
            }
        }, request);
    }

    private static ConsumerData consumer(String group, String consumeType, String messageModel,
                                         String consumeFromWhere) {
        return new ConsumerData(group, consumeType, messageModel, consumeFromWhere,
                Set.of(new SubscriptionData("TopicT", "*", Set.of(), Set.of(), 1, "TAG", false)), false);
    }

    static Stream<ConsumerData> settingsNoApacheClientSends() {
        return Stream.of(consumer("CG_BAD", "CONSUME_PASSIVELY", HUGE, "CONSUME_FROM_LAST_OFFSET"),
                consumer("CG_BAD", HUGE, "CLUSTERING", "CONSUME_FROM_LAST_OFFSET"),
                consumer("CG_BAD", "CONSUME_PASSIVELY", "CLUSTERING", HUGE),
                consumer("CG_BAD", "consume_passively", "CLUSTERING", "CONSUME_FROM_LAST_OFFSET"),
                consumer("CG_BAD", "CONSUME_PASSIVELY", "CLUSTERING", "CONSUME_FROM_NOWHERE"));
    }

    @ParameterizedTest
    @MethodSource("settingsNoApacheClientSends")
    void shouldSkipAGroupWhoseSettingsAreNotApachesAndKeepTheHeartbeatsOtherGroups(ConsumerData bad) {
        start(BrokerLimits.defaults());
        ConsumerData good = consumer("CG_GOOD", "CONSUME_ACTIVELY", "BROADCASTING", "CONSUME_FROM_TIMESTAMP");

        RemotingCommand answer = heartbeat("1", bad, good);

        assertThat(answer.code()).as(answer.remark()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(answer.remark()).startsWith("skipped 1: consumer group CG_BAD: ").hasSizeLessThan(512);
        assertThat(consumers.groupNames()).containsExactly("CG_GOOD");
        ConsumerGroups.Group kept = consumers.group("CG_GOOD").orElseThrow();
        assertThat(List.of(kept.consumeType, kept.messageModel, kept.consumeFromWhere))
                .containsExactly("CONSUME_ACTIVELY", "BROADCASTING", "CONSUME_FROM_TIMESTAMP");
    }

    @Test
    void shouldTakeEveryValueApachesClientsSend() {
        start(BrokerLimits.defaults());
        List<String> types = Stream.of(org.apache.rocketmq.remoting.protocol.heartbeat.ConsumeType.values())
                .map(Enum::name).toList();
        List<String> models = Stream.of(org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel.values())
                .map(Enum::name).toList();
        List<String> starts = Stream.of(org.apache.rocketmq.common.consumer.ConsumeFromWhere.values())
                .map(Enum::name).toList();
        assertThat(ConsumerModes.CONSUME_TYPES).containsExactlyInAnyOrderElementsOf(types);
        assertThat(ConsumerModes.MESSAGE_MODELS).containsExactlyInAnyOrderElementsOf(models);
        assertThat(ConsumerModes.CONSUME_FROM_WHERE).containsExactlyInAnyOrderElementsOf(starts);

        for (int i = 0; i < starts.size(); i++) {
            String start = starts.get(i);
            ConsumerData data = consumer("CG_" + i, types.get(i % types.size()), models.get(i % models.size()),
                    start);
            RemotingCommand answer = heartbeat("1", data);
            assertThat(answer.code()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(answer.remark()).as(start).isNull();
            assertThat(consumers.group(data.groupName()).orElseThrow().consumeFromWhere).isEqualTo(start);
        }
        assertThat(heartbeat("1", consumer("CG_0", null, null, null)).remark()).as("none named").isNull();
        assertThat(consumers.group("CG_0").orElseThrow().consumeFromWhere).isEqualTo(starts.get(0));
    }

    @Test
    void shouldChargeEachSubscriptionItsObjectsSoThatManySmallOnesHitTheByteBound() {
        long bound = 1 << 20;
        start(BrokerLimits.builder().maxSubscriptionBytes(bound).build());
        // a flood of groups of 1,000 one-character subscriptions each: 5 characters apiece as written
        int groups = 0;
        for (int g = 0; g < 50; g++) {
            Set<SubscriptionData> subscriptions = new HashSet<>();
            for (int t = 0; t < 1_000; t++) {
                subscriptions.add(new SubscriptionData(Integer.toString(t, 36), "*", Set.of(), Set.of(), 1, "TAG",
                        false));
            }
            RemotingCommand answer = heartbeat("c" + g, new ConsumerData("CG_FLOOD_" + g, "CONSUME_PASSIVELY",
                    "CLUSTERING", "CONSUME_FROM_LAST_OFFSET", subscriptions, false));
            if (answer.remark() == null) {
                groups++;
            } else {
                assertThat(answer.remark()).contains("beyond " + bound + " characters of subscriptions");
            }
        }
        long kept = groups * 1_000L;
        assertThat(kept * ConsumerGroups.SUBSCRIPTION_OVERHEAD).as("each kept subscription is charged its objects")
                .isLessThanOrEqualTo(consumers.subscriptionChars());
        assertThat(consumers.subscriptionChars()).isLessThanOrEqualTo(bound);
        assertThat(groups).isLessThan(50);

        consumers.connectionClosed("c0");
        assertThat(heartbeat("normal", consumer("CG_NORMAL", "CONSUME_PASSIVELY", "CLUSTERING",
                "CONSUME_FROM_LAST_OFFSET")).remark()).as("a normal group once there is room again").isNull();
        assertThat(consumers.subscription("CG_NORMAL", "TopicT")).isPresent();
    }
}
