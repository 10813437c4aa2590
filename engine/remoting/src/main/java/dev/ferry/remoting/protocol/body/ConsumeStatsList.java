package dev.ferry.remoting.protocol.body;

import java.util.List;
import java.util.Map;

/**
 * GET_BROKER_CONSUME_STATS answer: every group's progress at one broker, each list item a one-entry map from a group
 * to its statistics per topic (Apache's shape).
 */
public record ConsumeStatsList(List<Map<String, List<ConsumeStats>>> consumeStatsList, String brokerAddr,
                               long totalDiff, long totalInflightDiff) implements ObjectKeyedBody {

    public ConsumeStatsList {
        consumeStatsList = consumeStatsList == null ? List.of() : List.copyOf(consumeStatsList);
    }
}
