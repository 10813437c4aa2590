package dev.ferry.strategies.allocate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.AllocateStrategyResolver;
import dev.ferry.spi.PluginConfig;
import dev.ferry.spi.PluginRegistry;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The worked examples of features.md and the shared argument rules. */
class AllocateStrategyExamplesTest {

    private static final AllocateStrategyResolver STRATEGIES = AllocateStrategyResolver.over(
            PluginRegistry.load(AllocateStrategyProvider.KIND, AllocateStrategyExamplesTest.class.getClassLoader()));
    private static final List<MessageQueue> EIGHT = queues("broker-a", 8);
    private static final List<String> THREE = List.of("c0", "c1", "c2");

    @Test
    void shouldDealContiguousPagesAveragely() {
        AllocateStrategy averagely = STRATEGIES.create("averagely", PluginConfig.empty());

        assertThat(ids(averagely, "c0")).containsExactly(0, 1, 2);
        assertThat(ids(averagely, "c1")).containsExactly(3, 4, 5);
        assertThat(ids(averagely, "c2")).containsExactly(6, 7);
    }

    @Test
    void shouldDealRoundTheCircle() {
        AllocateStrategy circle = STRATEGIES.create("averagely-by-circle", PluginConfig.empty());

        assertThat(ids(circle, "c0")).containsExactly(0, 3, 6);
        assertThat(ids(circle, "c1")).containsExactly(1, 4, 7);
        assertThat(ids(circle, "c2")).containsExactly(2, 5);
    }

    @Test
    void shouldReadOnlyTheConsumersMachineRooms() {
        AllocateStrategy rooms = STRATEGIES.create("machine-room", PluginConfig.of("consumer-idcs", "hz"));
        List<MessageQueue> queues = List.of(new MessageQueue("T", "broker-x", 0), new MessageQueue("T", "hz@b", 0),
                new MessageQueue("T", "hz@b", 1), new MessageQueue("T", "sh@b", 0));

        assertThat(rooms.allocate("g", "c0", queues, List.of("c0", "c1"))).containsExactly(queues.get(1));
        assertThat(rooms.allocate("g", "c1", queues, List.of("c0", "c1"))).containsExactly(queues.get(2));
    }

    @Test
    void shouldPreferTheConsumersOwnRoomAndShareRoomsWithoutConsumers() {
        AllocateStrategy nearby = STRATEGIES.create("machine-room-nearby",
                PluginConfig.of("client-room-pattern", "^(\\w+):"));
        List<MessageQueue> queues = List.of(new MessageQueue("T", "hz@b", 0), new MessageQueue("T", "hz@b", 1),
                new MessageQueue("T", "sh@b", 0), new MessageQueue("T", "sh@b", 1));
        List<String> clients = List.of("hz:1", "hz:2");

        assertThat(nearby.allocate("g", "hz:1", queues, clients)).containsExactly(queues.get(0), queues.get(2));
        assertThat(nearby.allocate("g", "hz:2", queues, clients)).containsExactly(queues.get(1), queues.get(3));
    }

    @Test
    void shouldReturnTheConfiguredQueues() {
        AllocateStrategy byConfig = STRATEGIES.create("by-config", PluginConfig.of("queues", "T:hz@b:1, T:b:c:0"));

        assertThat(byConfig.allocate("g", "anyone", EIGHT, THREE))
                .containsExactly(new MessageQueue("T", "hz@b", 1), new MessageQueue("T", "b:c", 0));
    }

    @Test
    void shouldMoveOnlyTheQueuesTheNewMemberNeeds() {
        AllocateStrategy sticky = STRATEGIES.create("sticky", PluginConfig.empty());
        List<String> four = List.of("c0", "c1", "c2", "c3");
        assertThat(ids(sticky, "c0")).containsExactly(0, 1, 2);

        // c0 and c1 each hand over their last queue; averagely would have moved five of the eight.
        assertThat(sticky.allocate("g", "c3", EIGHT, four)).extracting(MessageQueue::queueId).containsExactly(2, 5);
        assertThat(sticky.allocate("g", "c0", EIGHT, four)).extracting(MessageQueue::queueId).containsExactly(0, 1);
        assertThat(sticky.allocate("g", "c2", EIGHT, four)).extracting(MessageQueue::queueId).containsExactly(6, 7);
    }

    @ParameterizedTest
    @ValueSource(strings = {"averagely", "averagely-by-circle", "consistent-hash", "sticky"})
    void shouldRejectBlankClientIdAndEmptyLists(String name) {
        AllocateStrategy strategy = STRATEGIES.create(name, PluginConfig.empty());

        assertThatThrownBy(() -> strategy.allocate("g", " ", EIGHT, THREE))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("clientId is blank");
        assertThatThrownBy(() -> strategy.allocate("g", "c0", List.of(), THREE))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("queues is null or empty");
        assertThatThrownBy(() -> strategy.allocate("g", "c0", EIGHT, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("clientIds is null or empty");
    }

    @ParameterizedTest
    @ValueSource(strings = {"averagely", "averagely-by-circle", "consistent-hash", "sticky"})
    void shouldGiveNothingToAClientMissingFromTheList(String name) {
        assertThat(STRATEGIES.create(name, PluginConfig.empty()).allocate("g", "stranger", EIGHT, THREE)).isEmpty();
    }

    private static List<Integer> ids(AllocateStrategy strategy, String clientId) {
        return strategy.allocate("g", clientId, EIGHT, THREE).stream().map(MessageQueue::queueId).toList();
    }

    private static List<MessageQueue> queues(String broker, int count) {
        return IntStream.range(0, count).mapToObj(id -> new MessageQueue("T", broker, id)).toList();
    }
}
