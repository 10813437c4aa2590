package dev.ferry.format;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * One record of a message trace, in the text RocketMQ's clients write to the trace topic and its tools
 * ({@code mqadmin queryMsgTraceById}, the Dashboard) read: the type's name, then the fields in a fixed order per type,
 * each followed by {@link #FIELD_SEPARATOR} except the last, which {@link #RECORD_END} ends. A trace message's body is
 * records one after another; its keys are the traced messages' ids and keys, so that a query by message id on the
 * trace topic finds it.
 *
 * <p>Absent text fields are written as {@code null}, as RocketMQ's clients write them.
 */
public sealed interface TraceRecord {
    /** Between the fields of a record (RocketMQ's {@code CONTENT_SPLITOR}). */
    char FIELD_SEPARATOR = (char) 1;
    /** After a record's last field (RocketMQ's {@code FIELD_SPLITOR}). */
    char RECORD_END = (char) 2;
    /** The region a broker reports and stamps on messages unless configured otherwise. */
    String DEFAULT_REGION = "DefaultRegion";
    /** The largest body of one trace message, in characters, as RocketMQ's clients batch them. */
    int MAX_BATCH_CHARS = 128_000;

    /** The traced message's id (its unique key), which the record is found by. */
    String msgId();

    /** The traced message's keys, or null. */
    String keys();

    /** Appends the record, its end included. */
    void appendTo(StringBuilder out);

    /** The type a message is traced as: the ordinal is what the record holds (RocketMQ's MessageType). */
    enum MessageType {
        NORMAL, TRANSACTION_HALF, TRANSACTION_COMMIT, DELAY, ORDER
    }

    /** A send: written by the producer after the broker answered. */
    record Pub(long timestamp, String regionId, String group, String topic, String msgId, String tags, String keys,
               String storeHost, int bodyLength, int costTime, MessageType messageType, String offsetMsgId,
               boolean success) implements TraceRecord {
        @Override
        public void appendTo(StringBuilder out) {
            fields(out, "Pub", timestamp, regionId, group, topic, msgId, tags, keys, storeHost, bodyLength, costTime,
                    messageType.ordinal(), offsetMsgId, success);
        }
    }

    /** A delivery about to be handed to the listener. */
    record SubBefore(long timestamp, String regionId, String group, String requestId, String msgId, int retryTimes,
                     String keys) implements TraceRecord {
        @Override
        public void appendTo(StringBuilder out) {
            fields(out, "SubBefore", timestamp, regionId, group, requestId, msgId, retryTimes, keys);
        }
    }

    /**
     * The listener's outcome.
     *
     * @param contextCode RocketMQ's ConsumeReturnType ordinal: 0 success, 1 time out, 2 exception, 3 returned null,
     *                    4 failed
     * @param group       the consumer group, which tools list a consumption under
     */
    record SubAfter(String requestId, String msgId, int costTime, boolean success, String keys, int contextCode,
                    long timestamp, String group) implements TraceRecord {
        @Override
        public void appendTo(StringBuilder out) {
            fields(out, "SubAfter", requestId, msgId, costTime, success, keys, contextCode, timestamp, group);
        }
    }

    /**
     * A transaction's end.
     *
     * @param transactionState RocketMQ's LocalTransactionState name: COMMIT_MESSAGE, ROLLBACK_MESSAGE or UNKNOW
     */
    record EndTransaction(long timestamp, String regionId, String group, String topic, String msgId, String tags,
                          String keys, String storeHost, MessageType messageType, String transactionId,
                          String transactionState, boolean fromTransactionCheck) implements TraceRecord {
        @Override
        public void appendTo(StringBuilder out) {
            fields(out, "EndTransaction", timestamp, regionId, group, topic, msgId, tags, keys, storeHost,
                    messageType.ordinal(), transactionId, transactionState, fromTransactionCheck);
        }
    }

    /** The body of a trace message holding {@code records}. */
    static byte[] body(Collection<? extends TraceRecord> records) {
        StringBuilder out = new StringBuilder(256 * records.size());
        records.forEach(record -> record.appendTo(out));
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The keys of a trace message holding {@code records}: each message id, and each message's keys if any (a
     * message's keys, space-separated in one property, one by one: the index sees the same keys either way).
     */
    static Set<String> keys(Collection<? extends TraceRecord> records) {
        Set<String> keys = new LinkedHashSet<>();
        for (TraceRecord record : records) {
            keys.add(String.valueOf(record.msgId()));
            if (record.keys() != null) {
                for (String key : record.keys().split(MessageProperties.KEY_SEPARATOR)) {
                    if (!key.isEmpty()) {
                        keys.add(key);
                    }
                }
            }
        }
        return keys;
    }

    private static void fields(StringBuilder out, String type, Object... values) {
        out.append(type);
        for (Object value : values) {
            out.append(FIELD_SEPARATOR).append(value);
        }
        out.append(RECORD_END);
    }
}
