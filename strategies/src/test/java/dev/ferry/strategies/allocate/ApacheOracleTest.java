package dev.ferry.strategies.allocate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.AllocateStrategyResolver;
import dev.ferry.spi.PluginConfig;
import dev.ferry.spi.PluginRegistry;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.rocketmq.client.consumer.AllocateMessageQueueStrategy;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMachineRoomNearby;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragelyByCircle;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueByConfig;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueByMachineRoom;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueConsistentHash;

/**
 * Ferry's strategies give every client the same queues as Apache RocketMQ 5.3.3's, so a group may mix
 * Apache and Ferry consumers. Each property runs over a thousand random groups, every member checked.
 */
class ApacheOracleTest {

    private static final AllocateStrategyResolver STRATEGIES = AllocateStrategyResolver.over(
            PluginRegistry.load(AllocateStrategyProvider.KIND, ApacheOracleTest.class.getClassLoader()));

    @Property(tries = 1000)
    void shouldAllocateAveragelyLikeApache(@ForAll("queues") List<MessageQueue> queues,
            @ForAll("clientIds") List<String> clientIds) {
        assertSameAsApache(STRATEGIES.create("averagely", PluginConfig.empty()), new AllocateMessageQueueAveragely(),
                queues, clientIds);
    }

    @Property(tries = 1000)
    void shouldAllocateAveragelyByCircleLikeApache(@ForAll("queues") List<MessageQueue> queues,
            @ForAll("clientIds") List<String> clientIds) {
        assertSameAsApache(STRATEGIES.create("averagely-by-circle", PluginConfig.empty()),
                new AllocateMessageQueueAveragelyByCircle(), queues, clientIds);
    }

    @Property(tries = 1000)
    void shouldAllocateByConsistentHashLikeApache(@ForAll("queues") List<MessageQueue> queues,
            @ForAll("clientIds") List<String> clientIds, @ForAll("virtualNodes") int virtualNodes) {
        assertSameAsApache(
                STRATEGIES.create("consistent-hash", PluginConfig.of("virtual-nodes", String.valueOf(virtualNodes))),
                new AllocateMessageQueueConsistentHash(virtualNodes), queues, clientIds);
    }

    @Property(tries = 1000)
    void shouldAllocateByMachineRoomLikeApache(@ForAll("queues") List<MessageQueue> queues,
            @ForAll("clientIds") List<String> clientIds) {
        AllocateMessageQueueByMachineRoom apache = new AllocateMessageQueueByMachineRoom();
        apache.setConsumeridcs(Set.of("hz", "bj", "odd"));

        assertSameAsApache(STRATEGIES.create("machine-room", PluginConfig.of("consumer-idcs", "hz,bj,odd")), apache,
                queues, clientIds);
    }

    @Property(tries = 1000)
    void shouldAllocateByMachineRoomNearbyLikeApache(@ForAll("roomQueues") List<MessageQueue> queues,
            @ForAll("clientIds") List<String> clientIds, @ForAll("innerNames") String inner) {
        AllocateMessageQueueStrategy apacheInner = inner.equals("averagely")
                ? new AllocateMessageQueueAveragely() : new AllocateMessageQueueConsistentHash(10);
        AllocateMachineRoomNearby apache = new AllocateMachineRoomNearby(apacheInner, new RegexResolver());

        assertSameAsApache(STRATEGIES.create("machine-room-nearby",
                PluginConfig.of("inner", inner, "client-room-pattern", RegexResolver.CLIENT_ROOM.pattern())),
                apache, queues, clientIds);
    }

    @Property(tries = 300)
    void shouldReturnTheConfiguredQueuesLikeApache(@ForAll("queues") List<MessageQueue> queues,
            @ForAll("clientIds") List<String> clientIds) {
        AllocateMessageQueueByConfig apache = new AllocateMessageQueueByConfig();
        apache.setMessageQueueList(toApache(queues));
        String list = String.join(",", queues.stream()
                .map(queue -> queue.topic() + ":" + queue.brokerName() + ":" + queue.queueId()).toList());

        assertSameAsApache(STRATEGIES.create("by-config", PluginConfig.of("queues", list)), apache, queues, clientIds);
    }

    @Provide
    Arbitrary<List<MessageQueue>> queues() {
        return AllocationInputs.queues();
    }

    @Provide
    Arbitrary<List<MessageQueue>> roomQueues() {
        return AllocationInputs.queues().map(queues -> queues.stream().filter(q -> q.brokerName().contains("@")).toList())
                .filter(queues -> !queues.isEmpty());
    }

    @Provide
    Arbitrary<List<String>> clientIds() {
        return AllocationInputs.clientIds();
    }

    @Provide
    Arbitrary<Integer> virtualNodes() {
        return Arbitraries.integers().between(1, 40);
    }

    @Provide
    Arbitrary<String> innerNames() {
        return Arbitraries.of("averagely", "consistent-hash");
    }

    private static void assertSameAsApache(AllocateStrategy ferry, AllocateMessageQueueStrategy apache,
            List<MessageQueue> queues, List<String> clientIds) {
        List<org.apache.rocketmq.common.message.MessageQueue> apacheQueues = toApache(queues);
        for (String clientId : clientIds) {
            List<MessageQueue> expected = apache.allocate(GroupView.GROUP, clientId, apacheQueues, clientIds).stream()
                    .map(queue -> new MessageQueue(queue.getTopic(), queue.getBrokerName(), queue.getQueueId()))
                    .toList();
            assertThat(ferry.allocate(GroupView.GROUP, clientId, queues, clientIds))
                    .as("queues of %s", clientId)
                    .containsExactlyElementsOf(expected);
        }
    }

    private static List<org.apache.rocketmq.common.message.MessageQueue> toApache(List<MessageQueue> queues) {
        return queues.stream().map(queue -> new org.apache.rocketmq.common.message.MessageQueue(queue.topic(),
                queue.brokerName(), queue.queueId())).toList();
    }

    /** Apache's resolver interface, answering with the same patterns Ferry's configuration uses. */
    private static final class RegexResolver implements AllocateMachineRoomNearby.MachineRoomResolver {

        static final Pattern BROKER_ROOM = Pattern.compile("^([^@]+)@");
        static final Pattern CLIENT_ROOM = Pattern.compile("@([a-z]+)-");

        @Override
        public String brokerDeployIn(org.apache.rocketmq.common.message.MessageQueue messageQueue) {
            return room(BROKER_ROOM, messageQueue.getBrokerName());
        }

        @Override
        public String consumerDeployIn(String clientId) {
            return room(CLIENT_ROOM, clientId);
        }

        private static String room(Pattern pattern, String text) {
            Matcher matcher = pattern.matcher(text);
            return matcher.find() ? matcher.group(1) : null;
        }
    }
}
