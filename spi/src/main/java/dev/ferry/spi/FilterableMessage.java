package dev.ferry.spi;

import dev.ferry.format.MessageProperties;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link MessageFilter} may look at in a message: its user and system properties. The tags
 * are the {@value #TAGS} property, as in RocketMQ, so SQL92 selectors can address them by that name.
 */
public interface FilterableMessage {

    /** The property holding a message's tags. */
    String TAGS = MessageProperties.TAGS;

    /** @return the message's properties; never {@code null} */
    Map<String, String> properties();

    /** @return the message's tags, if it has any */
    default Optional<String> tags() {
        return Optional.ofNullable(properties().get(TAGS));
    }

    /**
     * @param properties the properties, not copied
     * @return a view over them
     */
    static FilterableMessage of(Map<String, String> properties) {
        Objects.requireNonNull(properties, "properties");
        return () -> properties;
    }
}
