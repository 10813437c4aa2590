package dev.ferry.client;

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

    /** {@code delivery}, its messages traced: one request id a batch, a SubBefore and a SubAfter a message. */
    BatchDelivery traced(BatchDelivery delivery) {
        return batch -> {
            List<ReceivedMessage> traced = batch.stream()
                    .filter(message -> !"false".equals(message.properties().get(MessageProperties.TRACE_SWITCH)))
                    .toList();
            if (traced.isEmpty()) {
                return delivery.deliver(batch);
            }
            String requestId = requestIds.next();
            long now = clock.millis();
            for (ReceivedMessage message : traced) {
                writer.write(new TraceRecord.SubBefore(now, region(message), group, requestId, message.msgId(),
                        message.reconsumeTimes(), message.properties().get(MessageProperties.KEYS)));
            }
            long start = clock.nanos();
            BatchDelivery.Outcome outcome = delivery.deliver(batch);
            int costTime = (int) TimeUnit.NANOSECONDS.toMillis(clock.nanos() - start);
            for (ReceivedMessage message : traced) {
                boolean success = outcome.consumed(message);
                writer.write(new TraceRecord.SubAfter(requestId, message.msgId(), costTime, success,
                        message.properties().get(MessageProperties.KEYS), success ? RETURNED : THREW, clock.millis(),
                        group));
            }
            return outcome;
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
