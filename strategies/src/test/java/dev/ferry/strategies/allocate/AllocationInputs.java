package dev.ferry.strategies.allocate;

import dev.ferry.api.MessageQueue;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Random sorted queue and client lists, shared by the property and oracle tests. */
final class AllocationInputs {

    static final List<String> BROKERS = List.of("broker-a", "broker-b", "hz@broker-c", "sh@broker-d", "bj@broker-e",
            "hz@broker-f", "odd@x@y");

    private AllocationInputs() {
    }

    static Arbitrary<List<MessageQueue>> queues() {
        Arbitrary<MessageQueue> queue = Combinators.combine(
                Arbitraries.of("TopicA", "TopicB"), Arbitraries.of(BROKERS), Arbitraries.integers().between(0, 15))
                .as(MessageQueue::new);
        return queue.set().ofMinSize(1).ofMaxSize(48).map(set -> set.stream().sorted().toList());
    }

    static Arbitrary<List<String>> clientIds() {
        Arbitrary<String> id = Combinators.combine(Arbitraries.of("hz", "sh", "bj"), Arbitraries.integers().between(1, 60))
                .as((room, host) -> "10.0." + host + ".1@" + room + "-" + host);
        return id.set().ofMinSize(1).ofMaxSize(12).map(set -> set.stream().sorted().toList());
    }
}
