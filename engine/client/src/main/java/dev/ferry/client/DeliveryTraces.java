package dev.ferry.client;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.Clock;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.TraceRecord;
import dev.ferry.format.UniqueMessageIds;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Writes a SubBefore record as a traced push consumer hands a message to its listener and a SubAfter record with the
 * outcome, as RocketMQ's consumer does, and both records of each message a traced pull consumer's poll hands out; a message whose TRACE_ON property is {@code false} is not traced. Thread-safe.
 */
final class DeliveryTraces implements AutoCloseable {
    /** RocketMQ's ConsumeReturnType ordinals a SubAfter record holds. */
    static final int RETURNED = 0;
    static final int THREW = 2;

    private final TraceWriter writer;
    private final String group;
    private final Clock clock;
    private final UniqueMessageIds requestIds;

    /**
     * @param requestIds makes the id that pairs a delivery's two records
     */
    DeliveryTraces(TraceWriter writer, String group, Clock clock, UniqueMessageIds requestIds) {
        this.writer = writer;
        this.group = group;
        this.clock = clock;
        this.requestIds = requestIds;
    }

    TraceWriter writer() {
        return writer;
    }

    /** {@code listener}, its deliveries traced. */
    MessageListener traced(MessageListener listener) {
        return message -> {
            if ("false".equals(message.properties().get(MessageProperties.TRACE_SWITCH))) {
                listener.onMessage(message);
                return;
            }
            String requestId = requestIds.next();
            String keys = message.properties().get(MessageProperties.KEYS);
            writer.write(new TraceRecord.SubBefore(clock.millis(), region(message), group, requestId,
                    message.msgId(), message.reconsumeTimes(), keys));
            long start = clock.nanos();
            boolean success = false;
            try {
                listener.onMessage(message);
                success = true;
            } finally {
                int costTime = (int) TimeUnit.NANOSECONDS.toMillis(clock.nanos() - start);
                writer.write(new TraceRecord.SubAfter(requestId, message.msgId(), costTime, success, keys,
                        success ? RETURNED : THREW, clock.millis(), group));
            }
        };
    }

    /**
     * Traces messages a lite pull consumer's poll hands out, as RocketMQ's does: one request id for the poll, a
     * SubBefore and at once a successful SubAfter for each message, since the application's handling is not seen.
     */
    void polled(List<ReceivedMessage> messages) {
        List<ReceivedMessage> traced = messages.stream()
                .filter(message -> !"false".equals(message.properties().get(MessageProperties.TRACE_SWITCH)))
                .toList();
        if (traced.isEmpty()) {
            return;
        }
        String requestId = requestIds.next();
        long now = clock.millis();
        for (ReceivedMessage message : traced) {
            writer.write(new TraceRecord.SubBefore(now, region(message), group, requestId, message.msgId(),
                    message.reconsumeTimes(), message.properties().get(MessageProperties.KEYS)));
        }
        for (ReceivedMessage message : traced) {
            writer.write(new TraceRecord.SubAfter(requestId, message.msgId(), 0, true,
                    message.properties().get(MessageProperties.KEYS), RETURNED, now, group));
        }
    }

    private static String region(ReceivedMessage message) {
        String region = message.properties().get(MessageProperties.MESSAGE_REGION);
        return region == null ? TraceRecord.DEFAULT_REGION : region;
    }

    @Override
    public void close() {
        writer.close();
    }
}
