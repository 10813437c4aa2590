package dev.ferry.spi;

import dev.ferry.api.MessageModel;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What an offset store is created for and may use, given by the consumer that owns it.
 *
 * @param group the consumer group
 * @param clientId the consumer's client id
 * @param messageModel how the group consumes; built-in stores do not check it, the consumer chooses
 * @param localDirectory a directory the store may write files below (created on demand)
 * @param brokerOffsets the way to query and commit offsets on brokers
 */
public record OffsetStoreContext(String group, String clientId, MessageModel messageModel, Path localDirectory,
        BrokerOffsetAccess brokerOffsets) {

    /** Checks every part is present. */
    public OffsetStoreContext {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(messageModel, "messageModel");
        Objects.requireNonNull(localDirectory, "localDirectory");
        Objects.requireNonNull(brokerOffsets, "brokerOffsets");
    }
}
