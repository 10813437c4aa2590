package dev.ferry.server.broker;

import dev.ferry.format.StoredMessageView;
import dev.ferry.spi.FilterableMessage;
import java.util.Map;
import java.util.Optional;

/**
 * A stored message as filters see it, decoding its properties only when a filter asks: a tag filter
 * for {@code *} never looks, and one for named tags needs only the {@value #TAGS} property, so a
 * pull does not build a property map for every message it hands out. Used by one thread, once.
 */
final class StoredFilterableMessage implements FilterableMessage {
    private final StoredMessageView message;
    private Map<String, String> properties;

    StoredFilterableMessage(StoredMessageView message) {
        this.message = message;
    }

    @Override
    public Map<String, String> properties() {
        if (properties == null) {
            properties = message.properties();
        }
        return properties;
    }

    @Override
    public Optional<String> tags() {
        return Optional.ofNullable(properties != null ? properties.get(TAGS) : message.property(TAGS));
    }
}
