package dev.ferry.client;

import dev.ferry.api.Message;
import dev.ferry.api.SendResult;
import dev.ferry.api.SendStatus;
import dev.ferry.format.Clock;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.TraceRecord;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Writes a Pub record of every message a traced producer sent, once the broker answered, as RocketMQ's producer does:
 * a send that failed leaves no record. Tracing never changes the send's outcome. Thread-safe.
 */
final class SendTraces implements AutoCloseable {
    private final TraceWriter writer;
    private final String group;
    private final Clock clock;
    private final Function<String, String> brokerAddress;

    /**
     * @param brokerAddress the address of a broker by name, or null when unknown
     */
    SendTraces(TraceWriter writer, String group, Clock clock,
               Function<String, String> brokerAddress) {
        this.writer = writer;
        this.group = group;
        this.clock = clock;
        this.brokerAddress = brokerAddress;
    }

    TraceWriter writer() {
        return writer;
    }

    /**
     * {@code send}, which recording its trace follows.
     *
     * @param messages   what was sent: one message, or a batch's, whose ids and offset ids the result joins by commas
     * @param half       whether they were sent as half messages of a transaction
     * @param startNanos the clock's nanoseconds when the send began
     */
    CompletableFuture<SendResult> traced(List<Message> messages, boolean half, long startNanos,
                                         CompletableFuture<SendResult> send) {
        long startMillis = clock.millis() - TimeUnit.NANOSECONDS.toMillis(clock.nanos() - startNanos);
        return send.whenComplete((result, failure) -> {
            if (result != null) {
                record(messages, half, startMillis, startNanos, result);
            }
        });
    }

    private void record(List<Message> messages, boolean half, long startMillis, long startNanos, SendResult result) {
        int costTime = (int) TimeUnit.NANOSECONDS.toMillis(clock.nanos() - startNanos);
        String[] ids = result.msgId().split(",");
        String[] offsetIds = result.offsetMsgId() == null ? new String[0] : result.offsetMsgId().split(",");
        String storeHost = brokerAddress.apply(result.messageQueue().brokerName());
        for (int i = 0; i < messages.size() && i < ids.length; i++) {
            Message message = messages.get(i);
            writer.write(new TraceRecord.Pub(startMillis, TraceRecord.DEFAULT_REGION, group, message.topic(), ids[i],
                    message.tags().orElse(null), keys(message), storeHost, message.bodySize(), costTime,
                    type(message, half), i < offsetIds.length ? offsetIds[i] : null,
                    result.status() == SendStatus.SEND_OK));
        }
    }

    /** The keys as the KEYS property holds them, or null. */
    static String keys(Message message) {
        return message.keys().isEmpty() ? null : String.join(MessageProperties.KEY_SEPARATOR, message.keys());
    }

    private static TraceRecord.MessageType type(Message message, boolean half) {
        if (half) {
            return TraceRecord.MessageType.TRANSACTION_HALF;
        }
        return message.delayLevel() > 0 ? TraceRecord.MessageType.DELAY : TraceRecord.MessageType.NORMAL;
    }

    @Override
    public void close() {
        writer.close();
    }
}
