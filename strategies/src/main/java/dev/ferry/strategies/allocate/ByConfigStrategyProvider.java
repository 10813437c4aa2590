package dev.ferry.strategies.allocate;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.AllocateStrategyResolver;
import dev.ferry.spi.PluginConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code by-config}: RocketMQ's {@code CONFIG}. Config: {@code queues}, required, a comma-separated list
 * of {@code topic:brokerName:queueId} (the broker name may itself contain colons).
 */
public final class ByConfigStrategyProvider implements AllocateStrategyProvider {

    /** Key of the queue list. */
    public static final String QUEUES = "queues";

    @Override
    public String name() {
        return ByConfigStrategy.NAME;
    }

    @Override
    public AllocateStrategy create(PluginConfig config, AllocateStrategyResolver strategies) {
        config.requiredString(QUEUES);
        List<MessageQueue> queues = new ArrayList<>();
        for (String item : config.list(QUEUES)) {
            queues.add(parse(config, item));
        }
        return new ByConfigStrategy(queues);
    }

    private static MessageQueue parse(PluginConfig config, String item) {
        int first = item.indexOf(':');
        int last = item.lastIndexOf(':');
        if (first > 0 && last > first + 1 && last < item.length() - 1) {
            try {
                return new MessageQueue(item.substring(0, first), item.substring(first + 1, last),
                        Integer.parseInt(item.substring(last + 1)));
            } catch (IllegalArgumentException e) {
                // NumberFormatException or a negative queue id: reported below
            }
        }
        throw config.invalid(QUEUES, "topic:brokerName:queueId items, but '" + item + "' is not one");
    }
}
