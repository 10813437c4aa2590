package dev.ferry.strategies.allocate;

import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.AllocateStrategyResolver;
import dev.ferry.spi.PluginConfig;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code machine-room-nearby}: RocketMQ's {@code MACHINE_ROOM_NEARBY}. Config:
 * <ul>
 * <li>{@code inner}: the strategy dividing each room's queues, default {@code averagely}; its own
 *     settings go under {@code inner.}, for example {@code inner.virtual-nodes};</li>
 * <li>{@code broker-room-pattern}: a regular expression whose group 1, found in a broker name, is the
 *     broker's room; default {@code ^([^@]+)@} (the {@code <idc>@<name>} convention);</li>
 * <li>{@code client-room-pattern}: required, the same for client ids.</li>
 * </ul>
 */
public final class MachineRoomNearbyStrategyProvider implements AllocateStrategyProvider {

    /** Key of the inner strategy's name; its settings are the {@code inner.} section. */
    public static final String INNER = "inner";
    /** Key of the broker-name pattern. */
    public static final String BROKER_ROOM_PATTERN = "broker-room-pattern";
    /** Key of the client-id pattern. */
    public static final String CLIENT_ROOM_PATTERN = "client-room-pattern";

    @Override
    public String name() {
        return MachineRoomNearbyStrategy.NAME;
    }

    @Override
    public AllocateStrategy create(PluginConfig config, AllocateStrategyResolver strategies) {
        RoomResolver rooms = new RoomResolver(pattern(config, BROKER_ROOM_PATTERN, "^([^@]+)@"),
                pattern(config, CLIENT_ROOM_PATTERN, null));
        AllocateStrategy inner = strategies.create(config.string(INNER, AveragelyStrategy.NAME), config.section(INNER));
        return new MachineRoomNearbyStrategy(inner, rooms);
    }

    private static Pattern pattern(PluginConfig config, String key, String defaultValue) {
        String text = defaultValue == null ? config.requiredString(key) : config.string(key, defaultValue);
        try {
            Pattern pattern = Pattern.compile(text);
            if (pattern.matcher("").groupCount() >= 1) {
                return pattern;
            }
        } catch (PatternSyntaxException e) {
            // reported below, with the key and the value
        }
        throw config.invalid(key, "a regular expression with a group for the room");
    }
}
