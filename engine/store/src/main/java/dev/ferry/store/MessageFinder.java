package dev.ferry.store;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.OffsetMessageId;
import dev.ferry.format.StoredMessageView;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Finds messages by key (through the {@link MessageIndex}, verifying every candidate against the stored message) and
 * by offset message id. Stateless; any thread.
 */
final class MessageFinder {
    private final MessageIndex index;
    private final CommitLog commitLog;

    MessageFinder(MessageIndex index, CommitLog commitLog) {
        this.index = index;
        this.commitLog = commitLog;
    }

    /** Messages of {@code topic} with {@code key} (UNIQ_KEY or one of KEYS) stored within [begin, end]. */
    List<ByteBuffer> byKey(String topic, String key, int maxResults, long beginTimestamp, long endTimestamp) {
        List<ByteBuffer> found = new ArrayList<>();
        for (long offset : index.query(topic, key, Math.max(64, maxResults * 4), beginTimestamp, endTimestamp)) {
            if (found.size() >= maxResults) {
                break;
            }
            commitLog.messageAt(offset)
                .filter(m -> m.topic().equals(topic) && hasKey(m, key))
                .filter(m -> m.storeTimestamp() >= beginTimestamp && m.storeTimestamp() <= endTimestamp)
                .ifPresent(m -> found.add(m.bytes()));
        }
        return found;
    }

    private static boolean hasKey(StoredMessageView message, String key) {
        String properties = message.propertiesString();
        if (key.equals(MessageProperties.find(properties, MessageProperties.UNIQ_KEY))) {
            return true;
        }
        String keys = MessageProperties.find(properties, MessageProperties.KEYS);
        return keys != null && Arrays.asList(keys.split(MessageProperties.KEY_SEPARATOR)).contains(key);
    }

    /** The message an offset message id names, if it is still stored and was stored by that host. */
    Optional<StoredMessageView> byOffsetMessageId(String offsetMessageId) {
        OffsetMessageId id = OffsetMessageId.decode(offsetMessageId);
        return commitLog.messageAt(id.physicalOffset()).filter(m -> m.storeHost().equals(id.storeHost()));
    }
}
