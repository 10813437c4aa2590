package dev.ferry.client;

import dev.ferry.api.InvalidMessageException;
import dev.ferry.api.Message;
import dev.ferry.format.BatchBody;
import dev.ferry.format.BodyCompression;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.SysFlags;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns {@link Message}s into what SEND_MESSAGE_V2 and SEND_BATCH_MESSAGE carry. Pure functions. */
final class MessageEncoder {

    private MessageEncoder() {
    }

    /**
     * A single message's header properties and body.
     *
     * @param body the body, compressed when {@code sysFlag} says so
     * @param sysFlag the send header's sysFlag
     * @param properties the encoded properties
     */
    record Encoded(byte[] body, int sysFlag, String properties) {
    }

    /**
     * The properties a message travels with: user properties, then KEYS, UNIQ_KEY, WAIT, TAGS, and DELAY,
     * TIMER_DELIVER_MS or TIMER_DELAY_MS (what Apache's client writes for a delay level, {@code setDeliverTimeMs} and
     * {@code setDelayTimeMs}).
     */
    static Map<String, String> properties(Message message, String uniqKey) {
        Map<String, String> properties = new LinkedHashMap<>(message.properties());
        if (!message.keys().isEmpty()) {
            properties.put(MessageProperties.KEYS, String.join(MessageProperties.KEY_SEPARATOR, message.keys()));
        }
        properties.put(MessageProperties.UNIQ_KEY, uniqKey);
        properties.put(MessageProperties.WAIT, "true");
        message.tags().ifPresent(tags -> properties.put(MessageProperties.TAGS, tags));
        if (message.delayLevel() > 0) {
            properties.put(MessageProperties.DELAY, Integer.toString(message.delayLevel()));
        }
        message.deliveryTime().ifPresent(time -> properties.put(MessageProperties.TIMER_DELIVER_MS,
                Long.toString(epochMillisRoundedUp(time))));
        message.deliveryDelay().ifPresent(delay -> properties.put(MessageProperties.TIMER_DELAY_MS,
                Long.toString(millisRoundedUp(delay))));
        return properties;
    }

    /** Rounded up, so that the message never comes before its time; {@link Message} keeps it within a long. */
    static long epochMillisRoundedUp(Instant time) {
        return time.toEpochMilli() + (time.getNano() % 1_000_000 == 0 ? 0 : 1);
    }

    /** Rounded up, so that the message never comes before its time; {@link Message} keeps it within a long. */
    static long millisRoundedUp(Duration delay) {
        return delay.toMillis() + (delay.toNanosPart() % 1_000_000 == 0 ? 0 : 1);
    }

    /** One message, its body zlib-compressed when larger than {@code compressThreshold} bytes. */
    static Encoded single(Message message, Map<String, String> properties, int compressThreshold) {
        byte[] body = message.body();
        int sysFlag = 0;
        if (body.length > compressThreshold) {
            byte[] compressed = BodyCompression.deflate(body, BodyCompression.DEFAULT_LEVEL);
            if (compressed.length < body.length) {
                body = compressed;
                sysFlag = SysFlags.COMPRESSED | SysFlags.ZLIB;
            }
        }
        return new Encoded(body, sysFlag, MessageProperties.format(properties));
    }

    /** The body of SEND_BATCH_MESSAGE; batches are never compressed. */
    static byte[] batchBody(List<Message> messages, List<Map<String, String>> properties) {
        List<BatchBody.Item> items = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            items.add(new BatchBody.Item(0, messages.get(i).body(), MessageProperties.format(properties.get(i))));
        }
        try {
            return BatchBody.encode(items);
        } catch (IllegalArgumentException e) {
            throw new InvalidMessageException(e.getMessage());
        }
    }
}
