package dev.ferry.strategies.allocate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.AllocateStrategyResolver;
import dev.ferry.spi.PluginConfig;
import dev.ferry.spi.PluginRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties every built-in allocation strategy keeps, over random queue and client sets. */
class AllocateStrategyPropertiesTest {

    private static final AllocateStrategyResolver STRATEGIES = AllocateStrategyResolver.over(
            PluginRegistry.load(AllocateStrategyProvider.KIND, AllocateStrategyPropertiesTest.class.getClassLoader()));

    private static final Map<String, PluginConfig> CONFIGS = Map.of(
            "averagely", PluginConfig.empty(),
            "averagely-by-circle", PluginConfig.empty(),
            "consistent-hash", PluginConfig.of("virtual-nodes", "7"),
            "machine-room", PluginConfig.of("consumer-idcs", "hz,sh"),
            "machine-room-nearby", PluginConfig.of("client-room-pattern", "@([a-z]+)-", "inner", "averagely-by-circle"),
            "sticky", PluginConfig.empty());

    /** Strategies whose shares differ by at most one queue. */
    private static final List<String> BALANCED = List.of("averagely", "averagely-by-circle", "machine-room", "sticky");

    @Property(tries = 150)
    void shouldGiveEveryQueueToExactlyOneClient(@ForAll("strategyNames") String name,
            @ForAll("queues") List<MessageQueue> queues, @ForAll("clientIds") List<String> clientIds) {
        List<MessageQueue> eligible = eligible(name, queues);
        Map<String, List<MessageQueue>> assignment = group(name).rebalance(eligible, clientIds);

        assertThat(GroupView.owners(assignment).keySet()).containsExactlyElementsOf(expectedAssigned(name, eligible));
    }

    @Property(tries = 150)
    void shouldGiveTheSameResultForTheSameInputs(@ForAll("strategyNames") String name,
            @ForAll("queues") List<MessageQueue> queues, @ForAll("clientIds") List<String> clientIds) {
        List<MessageQueue> eligible = eligible(name, queues);
        GroupView view = group(name);
        Map<String, List<MessageQueue>> first = view.rebalance(eligible, clientIds);

        assertThat(view.rebalance(eligible, clientIds)).isEqualTo(first);
        assertThat(group(name).rebalance(eligible, clientIds)).isEqualTo(first);
    }

    @Property(tries = 150)
    void shouldBalanceSharesWithinOneQueue(@ForAll("balancedNames") String name,
            @ForAll("queues") List<MessageQueue> queues, @ForAll("clientIds") List<String> clientIds) {
        IntSummaryStatistics shares = group(name).rebalance(queues, clientIds).values().stream()
                .mapToInt(List::size).summaryStatistics();

        assertThat(shares.getMax() - shares.getMin()).isLessThanOrEqualTo(1);
    }

    @Property(tries = 200)
    void shouldMoveNoMoreQueuesThanNecessaryWhenOneClientJoinsOrLeaves(@ForAll("queues") List<MessageQueue> queues,
            @ForAll("clientIds") List<String> clientIds, @ForAll("changes") List<Integer> changes) {
        // One instance stands for every member: they all see the same history, so they compute alike.
        AllocateStrategy sticky = STRATEGIES.create("sticky", PluginConfig.empty());
        List<String> members = new ArrayList<>(clientIds);
        Map<MessageQueue, String> before = ownersOf(sticky, queues, members);
        int nextId = 0;
        for (int change : changes) {
            int minimum;
            if (change < 0 && members.size() > 1) {
                String leaving = members.remove(Math.floorMod(change, members.size()));
                minimum = (int) before.values().stream().filter(leaving::equals).count();
            } else {
                members.add("joiner-" + nextId++);
                members.sort(null);
                minimum = queues.size() / members.size();
            }
            Map<MessageQueue, String> after = ownersOf(sticky, queues, members);

            long moved = queues.stream().filter(queue -> !after.get(queue).equals(before.get(queue))).count();
            assertThat(moved).isLessThanOrEqualTo(minimum);
            assertThat(after.keySet()).containsExactlyInAnyOrderElementsOf(queues);
            before.clear();
            before.putAll(after);
        }
    }

    @Provide
    Arbitrary<String> strategyNames() {
        return Arbitraries.of(CONFIGS.keySet());
    }

    @Provide
    Arbitrary<String> balancedNames() {
        return Arbitraries.of(BALANCED);
    }

    @Provide
    Arbitrary<List<MessageQueue>> queues() {
        return AllocationInputs.queues();
    }

    @Provide
    Arbitrary<List<String>> clientIds() {
        return AllocationInputs.clientIds();
    }

    @Provide
    Arbitrary<List<Integer>> changes() {
        return Arbitraries.integers().between(-20, 20).list().ofMinSize(1).ofMaxSize(6);
    }

    private static Map<MessageQueue, String> ownersOf(AllocateStrategy strategy, List<MessageQueue> queues,
            List<String> members) {
        Map<String, List<MessageQueue>> assignment = new TreeMap<>();
        for (String member : members) {
            assignment.put(member, strategy.allocate(GroupView.GROUP, member, queues, members));
        }
        return new HashMap<>(GroupView.owners(assignment));
    }

    private static GroupView group(String name) {
        Supplier<AllocateStrategy> factory = () -> STRATEGIES.create(name, CONFIGS.get(name));
        return new GroupView(factory);
    }

    /** Nearby needs every broker in a room; the others may take any queue. */
    private static List<MessageQueue> eligible(String name, List<MessageQueue> queues) {
        if (!name.equals("machine-room-nearby")) {
            return queues;
        }
        List<MessageQueue> inRooms = queues.stream().filter(queue -> queue.brokerName().contains("@")).toList();
        return inRooms.isEmpty() ? List.of(new MessageQueue("TopicA", "hz@broker-c", 0)) : inRooms;
    }

    /** Machine-room reads only brokers of its idcs; every other strategy assigns every queue. */
    private static Collection<MessageQueue> expectedAssigned(String name, List<MessageQueue> queues) {
        if (!name.equals("machine-room")) {
            return queues;
        }
        return queues.stream().filter(queue -> {
            String[] parts = queue.brokerName().split("@");
            return parts.length == 2 && (parts[0].equals("hz") || parts[0].equals("sh"));
        }).toList();
    }
}
