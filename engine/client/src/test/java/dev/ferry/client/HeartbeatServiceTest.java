package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.HeartbeatData;
import dev.ferry.remoting.protocol.body.ProducerData;
import dev.ferry.remoting.protocol.header.UnregisterClientRequestHeader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Heartbeats and unregistrations against scripted brokers. */
class HeartbeatServiceTest {
    private static final String ME = "10.0.0.1@me";
    private static final BodyCodec CODEC = new BodyCodec();

    private final FixedRoutes routes = new FixedRoutes().topic("Orders", "broker-a", "10.0.0.7:10911", 4)
            .topic("Audit", "broker-b", "10.0.0.8:10911", 2);
    private final FakeBrokerCalls calls = new FakeBrokerCalls((address, request) -> address.startsWith("10.0.0.8")
            ? null : RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build());
    private final HeartbeatService heartbeats = new HeartbeatService(ME, calls, routes, CODEC, Duration.ofSeconds(3));

    private GroupMember member(String group, String topic) {
        PushConsumerConfig config = PushConsumerConfig.builder(group).subscribe(topic, "TagA || TagB").build();
        Map<String, SubscriptionFilter> filters = new ConcurrentHashMap<>();
        filters.put(topic, new SubscriptionFilter(Subscription.tags(topic, "TagA || TagB"), 5L));
        return new GroupMember(ConsumerSettings.of(config), filters, () -> { }, null);
    }

    @Test
    void shouldTellEveryBrokerEveryGroupOfTheClientAndCarryOnPastOneThatFails() {
        heartbeats.addProducer("PG");
        heartbeats.addConsumer(member("CG", "Orders"));

        heartbeats.sendToAllBrokers();

        List<FakeBrokerCalls.Sent> sent = calls.sent.stream().filter(s -> s.request().code() == RequestCode.HEART_BEAT)
                .toList();
        assertThat(sent).extracting(FakeBrokerCalls.Sent::address)
                .containsExactlyInAnyOrder("10.0.0.7:10911", "10.0.0.8:10911");
        HeartbeatData data = CODEC.decode(sent.get(0).request().body(), HeartbeatData.class);
        assertThat(data.clientID()).isEqualTo(ME);
        assertThat(data.producerDataSet()).extracting(ProducerData::groupName).containsExactly("PG");
        assertThat(data.consumerDataSet()).singleElement().satisfies(consumer -> {
            assertThat(consumer.groupName()).isEqualTo("CG");
            assertThat(consumer.messageModel()).isEqualTo("CLUSTERING");
            assertThat(consumer.subscriptionDataSet()).anySatisfy(s -> {
                assertThat(s.topic()).isEqualTo("Orders");
                assertThat(s.subString()).isEqualTo("TagA || TagB");
                assertThat(s.subVersion()).isEqualTo(5L);
            });
        });
    }

    @Test
    void shouldSendNothingWithoutGroupsAndGreetABrokerOnlyUntilItAnswered() {
        heartbeats.sendToAllBrokers();
        assertThat(calls.sent).isEmpty();

        heartbeats.addProducer("PG");
        ManualLater executor = new ManualLater();
        heartbeats.greet("10.0.0.7:10911", task -> executor.after(Duration.ZERO, task));
        executor.runAll();
        heartbeats.greet("10.0.0.7:10911", task -> executor.after(Duration.ZERO, task));

        assertThat(executor.delays()).as("greeted already").isEmpty();
        assertThat(calls.requests(RequestCode.HEART_BEAT)).hasSize(2);
    }

    @Test
    void shouldUnregisterAStoppedGroupFromEveryBrokerAndRefuseAGroupTwice() {
        heartbeats.addConsumer(member("CG", "Orders"));

        heartbeats.removeConsumer("CG");
        heartbeats.removeConsumer("CG");

        List<RemotingCommand> unregistered = calls.requests(RequestCode.UNREGISTER_CLIENT);
        assertThat(unregistered).hasSize(2).allSatisfy(r -> assertThat(r.header(UnregisterClientRequestHeader.class))
                .isEqualTo(new UnregisterClientRequestHeader(ME, null, "CG")));
        heartbeats.addProducer("PG");
        assertThatThrownBy(() -> heartbeats.addProducer("PG"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already runs in client " + ME);
        assertThat(heartbeats.consumer("CG")).isEmpty();
    }
}
