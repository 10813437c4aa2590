package dev.ferry.client;

import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.Clock;
import dev.ferry.remoting.protocol.body.ConsumeMessageDirectlyResult;
import dev.ferry.remoting.protocol.body.ConsumerRunningInfo;
import dev.ferry.remoting.protocol.body.MessageQueueBody;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.ReadOffsetType;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * What one consumer tells and does for admin tools, as Apache's clients do when a broker asks: its running info
 * (settings, subscriptions, the queues it holds and their offsets), its offsets on a topic, an offset reset applied
 * to the queues it holds, and one message handed to its listener directly.
 */
final class ConsumerAdmin {
    /** The client version Apache's tools show; Ferry speaks 5.3.3's protocol. */
    static final String CLIENT_VERSION = "V5_3_3";
    /** A thread dump longer than this is cut: it travels in one response. */
    static final int MAX_JSTACK_CHARS = 512 * 1024;

    /**
     * What a consumer is made of, as admin tools see it.
     *
     * @param config      the consumer's configuration record; its plain components are shown (never plugin configs,
     *                    which may hold secrets)
     * @param queues      the queues it holds now
     * @param listener    its listener, for direct consumption; empty for a pull consumer
     * @param restart     starts pulling a queue again after a reset moved it
     */
    record Parts(Record config, ConsumerSettings settings, boolean orderly, int consumeThreads,
                 Map<String, SubscriptionFilter> filters, Supplier<Map<MessageQueue, ProcessQueue>> queues,
                 OffsetStore offsets, java.util.List<String> nameServers, Optional<BatchDelivery> listener,
                 Consumer<ProcessQueue> restart, Clock clock) {
    }

    private static final System.Logger LOG = System.getLogger(ConsumerAdmin.class.getName());

    private final Parts parts;
    private final long startMillis;

    ConsumerAdmin(Parts parts) {
        this.parts = parts;
        this.startMillis = parts.clock().millis();
    }

    /** Apache's ConsumerRunningInfo: admin tools need the consume type and start time among the properties. */
    ConsumerRunningInfo runningInfo(boolean withThreads) {
        Map<String, String> properties = new HashMap<>(configProperties());
        ConsumerSettings settings = parts.settings();
        properties.put("consumerGroup", settings.group());
        properties.put("messageModel", settings.messageModel().name());
        properties.put("consumeFromWhere", settings.consumeFromWhere().wireName());
        properties.put("pullBatchSize", String.valueOf(settings.pullBatchSize()));
        properties.put("pullThresholdForQueue", String.valueOf(settings.pullThresholdForQueue()));
        properties.put("consumeThreadMin", String.valueOf(parts.consumeThreads()));
        properties.put("consumeThreadMax", String.valueOf(parts.consumeThreads()));
        properties.put(ConsumerRunningInfo.PROP_NAMESERVER_ADDR, parts.nameServers().stream()
                .map(address -> address + ";").collect(Collectors.joining()));
        properties.put(ConsumerRunningInfo.PROP_CONSUME_TYPE, settings.consumeType());
        properties.put(ConsumerRunningInfo.PROP_CONSUME_ORDERLY, String.valueOf(parts.orderly()));
        properties.put(ConsumerRunningInfo.PROP_THREADPOOL_CORE_SIZE, String.valueOf(parts.consumeThreads()));
        properties.put(ConsumerRunningInfo.PROP_CONSUMER_START_TIMESTAMP, String.valueOf(startMillis));
        properties.put(ConsumerRunningInfo.PROP_CLIENT_VERSION, CLIENT_VERSION);
        Set<SubscriptionData> subscriptions = parts.filters().values().stream().map(SubscriptionFilter::data)
                .collect(Collectors.toSet());
        Map<MessageQueueBody, ConsumerRunningInfo.ProcessQueueInfo> held = new HashMap<>();
        parts.queues().get().forEach((queue, processQueue) -> {
            ProcessQueue.Snapshot s = processQueue.snapshot();
            long committed = parts.offsets().read(queue, ReadOffsetType.MEMORY_FIRST_THEN_STORE);
            held.put(body(queue), new ConsumerRunningInfo.ProcessQueueInfo(committed, s.minOffset(), s.maxOffset(),
                    s.count(), (int) (s.bytes() >> 20), 0, 0, 0, s.locked(), 0, s.lockedAtMillis(), s.dropped(),
                    s.lastPullMillis(), s.lastConsumeMillis()));
        });
        return new ConsumerRunningInfo(properties, subscriptions, held, Map.of(), Map.of(), Map.of(),
                withThreads ? threadDump() : null);
    }

    /** The record's plain components by name: numbers, text, booleans, enums, durations and instants. */
    private Map<String, String> configProperties() {
        Map<String, String> values = new HashMap<>();
        for (RecordComponent component : parts.config().getClass().getRecordComponents()) {
            try {
                Object value = component.getAccessor().invoke(parts.config());
                if (value instanceof Optional<?> optional) {
                    value = optional.orElse(null);
                }
                if (value instanceof Number || value instanceof CharSequence || value instanceof Boolean
                        || value instanceof Enum<?> || value instanceof Duration || value instanceof Instant) {
                    values.put(component.getName(), String.valueOf(value));
                }
            } catch (ReflectiveOperationException e) {
                LOG.log(System.Logger.Level.DEBUG, "cannot read " + component.getName() + ": " + e);
            }
        }
        return values;
    }

    /** A held queue's lag: messages the broker had last time it answered, not yet committed by this consumer. */
    record QueueLag(MessageQueue queue, long messages) {
    }

    /** The lag of every queue the consumer holds and has pulled at least once. */
    java.util.List<QueueLag> lag() {
        java.util.List<QueueLag> lag = new java.util.ArrayList<>();
        parts.queues().get().forEach((queue, processQueue) -> {
            long next = processQueue.brokerNextOffset();
            long committed = parts.offsets().read(queue, ReadOffsetType.READ_FROM_MEMORY);
            if (next >= 0) {
                lag.add(new QueueLag(queue, Math.max(0, next - Math.max(committed, 0))));
            }
        });
        return lag;
    }

    /** The consumer group. */
    String group() {
        return parts.settings().group();
    }

    /** The consumer's committed offsets on {@code topic}, of the queues it holds (GET_CONSUMER_STATUS_FROM_CLIENT). */
    Map<MessageQueueBody, Long> offsets(String topic) {
        Map<MessageQueueBody, Long> offsets = new HashMap<>();
        for (MessageQueue queue : parts.queues().get().keySet()) {
            if (queue.topic().equals(topic)) {
                long offset = parts.offsets().read(queue, ReadOffsetType.MEMORY_FIRST_THEN_STORE);
                if (offset >= 0) {
                    offsets.put(body(queue), offset);
                }
            }
        }
        return offsets;
    }

    /**
     * Moves the queues of {@code topic} this consumer holds to the offsets given (RESET_CONSUMER_CLIENT_OFFSET): what
     * was pulled is forgotten, the new offsets are committed at once and pulling starts there. Returns how many.
     */
    int resetOffsets(String topic, Map<MessageQueueBody, Long> targets) {
        Map<MessageQueue, ProcessQueue> held = parts.queues().get();
        int moved = 0;
        for (Map.Entry<MessageQueueBody, Long> target : targets.entrySet()) {
            MessageQueueBody q = target.getKey();
            MessageQueue queue = new MessageQueue(q.topic(), q.brokerName(), q.queueId());
            ProcessQueue processQueue = held.get(queue);
            if (!queue.topic().equals(topic) || processQueue == null || target.getValue() < 0) {
                continue;
            }
            processQueue.seek(target.getValue());
            parts.offsets().update(queue, target.getValue(), false);
            parts.offsets().persist(queue);
            parts.restart().accept(processQueue);
            moved++;
        }
        LOG.log(System.Logger.Level.INFO, "consumer group {0}: reset {1} queues of {2} as an admin asked",
                parts.settings().group(), moved, topic);
        return moved;
    }

    /**
     * Hands one message to the listener, outside the queues (CONSUME_MESSAGE_DIRECTLY): nothing is committed or sent
     * back. Empty for a consumer without a listener.
     */
    Optional<ConsumeMessageDirectlyResult> consumeDirectly(ReceivedMessage message) {
        if (parts.listener().isEmpty()) {
            return Optional.empty();
        }
        long start = parts.clock().millis();
        BatchDelivery.Outcome outcome = parts.listener().get().deliver(List.of(message));
        // a Ferry listener fails a message to have it consumed again later: Apache's RECONSUME_LATER
        String result = outcome.failed().isEmpty() ? "CR_SUCCESS" : "CR_LATER";
        String remark = outcome.failed().isEmpty() ? null : String.valueOf(outcome.failure());
        return Optional.of(new ConsumeMessageDirectlyResult(parts.orderly(), true, result, remark,
                parts.clock().millis() - start));
    }

    private static MessageQueueBody body(MessageQueue queue) {
        return new MessageQueueBody(queue.topic(), queue.brokerName(), queue.queueId());
    }

    private static String threadDump() {
        StringBuilder dump = new StringBuilder();
        for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
            dump.append(thread.getKey().getName()).append(" ").append(thread.getKey().getState()).append('\n');
            for (StackTraceElement frame : thread.getValue()) {
                dump.append("\tat ").append(frame).append('\n');
            }
            if (dump.length() > MAX_JSTACK_CHARS) {
                return dump.substring(0, MAX_JSTACK_CHARS);
            }
        }
        return dump.toString();
    }
}
