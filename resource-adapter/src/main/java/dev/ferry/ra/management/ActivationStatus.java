package dev.ferry.ra.management;

import dev.ferry.api.MessageQueue;
import dev.ferry.client.FerryClient;
import dev.ferry.client.PausedQueue;
import dev.ferry.client.PushConsumer;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The management view of one activation, read from its consumer and client when asked, and its operations,
 * which the activation carries out ({@link ActivationControls}) with the caller's name for its log.
 */
public final class ActivationStatus implements ActivationStatusMBean {
    private final String group;
    private final String topic;
    private final String endpoint;
    private final FerryClient client;
    private final ActivationControls controls;

    public ActivationStatus(String group, String topic, String endpoint, FerryClient client,
                            ActivationControls controls) {
        this.group = group;
        this.topic = topic;
        this.endpoint = endpoint;
        this.client = client;
        this.controls = controls;
    }

    private PushConsumer.Stats stats() {
        return controls.consumer().map(PushConsumer::stats).orElse(new PushConsumer.Stats(0, 0, 0, 0, 0, 0));
    }

    @Override
    public String getConsumerGroup() {
        return group;
    }

    @Override
    public String getTopic() {
        return topic;
    }

    @Override
    public String getEndpoint() {
        return endpoint;
    }

    @Override
    public boolean isConsuming() {
        return controls.consumer().isPresent();
    }

    @Override
    public boolean isPaused() {
        return controls.paused();
    }

    @Override
    public boolean isNameServerReachable() {
        return client.nameServerReachable();
    }

    @Override
    public String getNameServerProblem() {
        return client.nameServerProblem().orElse("");
    }

    @Override
    public long getDelivered() {
        return stats().delivered();
    }

    @Override
    public long getFailed() {
        return stats().failed();
    }

    @Override
    public long getRetried() {
        return stats().retried();
    }

    @Override
    public long getDeadLettered() {
        return stats().deadLettered();
    }

    @Override
    public long getInFlight() {
        return stats().inFlight();
    }

    @Override
    public long getLag() {
        return stats().lag();
    }

    @Override
    public String[] getPausedQueues() {
        List<PausedQueue> paused = controls.consumer().map(PushConsumer::pausedQueues).orElse(List.of());
        return paused.stream().map(p -> name(p.queue()) + " msgId=" + p.msgId() + " offset=" + p.queueOffset()
                + " failures=" + p.failures() + " since=" + p.pausedAt() + " last=" + p.lastFailure())
                .toArray(String[]::new);
    }

    @Override
    public void pause() {
        controls.pause(JmxCaller.describe());
    }

    @Override
    public void resume() {
        controls.resume(JmxCaller.describe());
    }

    @Override
    public void resumeQueue(String queue) {
        resume(queue, false);
    }

    @Override
    public void skipMessage(String queue) {
        resume(queue, true);
    }

    private void resume(String queue, boolean skip) {
        if (!controls.resumeQueue(queue(queue), skip, JmxCaller.describe())) {
            throw new IllegalArgumentException("queue " + queue + " is not paused here; paused: "
                    + String.join("; ", getPausedQueues()));
        }
    }

    @Override
    public String replayFrom(String timestamp) {
        return describe(controls.replay(instant(timestamp), JmxCaller.describe()));
    }

    @Override
    public String replayOffsets(String offsets) {
        return describe(controls.replay(offsets(offsets), JmxCaller.describe()));
    }

    /** {@code topic:brokerName:queueId}. */
    public static String name(MessageQueue queue) {
        return queue.topic() + ":" + queue.brokerName() + ":" + queue.queueId();
    }

    /** Reads {@code topic:brokerName:queueId}; a topic has no colon, a broker name may. */
    static MessageQueue queue(String name) {
        String text = name == null ? "" : name.trim();
        int first = text.indexOf(':');
        int last = text.lastIndexOf(':');
        if (first <= 0 || last <= first + 1 || last == text.length() - 1) {
            throw new IllegalArgumentException("queue '" + name + "' must be topic:brokerName:queueId");
        }
        return new MessageQueue(text.substring(0, first), text.substring(first + 1, last),
                queueId(text.substring(last + 1), name));
    }

    private static int queueId(String text, String whole) {
        try {
            int id = Integer.parseInt(text);
            if (id >= 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("queue '" + whole + "': '" + text + "' is not a queue id");
    }

    /** ISO-8601 or epoch milliseconds. */
    static Instant instant(String text) {
        String value = text == null ? "" : text.trim();
        try {
            return value.chars().allMatch(Character::isDigit) && !value.isEmpty()
                    ? Instant.ofEpochMilli(Long.parseLong(value)) : Instant.parse(value);
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new IllegalArgumentException("timestamp '" + text + "' must be ISO-8601 (2026-12-01T10:00:00Z) "
                    + "or epoch milliseconds");
        }
    }

    /** {@code brokerName:queueId=offset,...}, of this activation's topic. */
    Map<MessageQueue, Long> offsets(String text) {
        Map<MessageQueue, Long> offsets = new TreeMap<>();
        for (String part : (text == null ? "" : text).split(",")) {
            String entry = part.trim();
            int equals = entry.lastIndexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("'" + entry + "' must be brokerName:queueId=offset");
            }
            MessageQueue queue = queue(topic + ":" + entry.substring(0, equals));
            long offset;
            try {
                offset = Long.parseLong(entry.substring(equals + 1).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + entry + "': the offset is not a number");
            }
            if (offset < 0) {
                throw new IllegalArgumentException("'" + entry + "': the offset must not be negative");
            }
            offsets.put(queue, offset);
        }
        return offsets;
    }

    private static String describe(Map<MessageQueue, Long> moved) {
        return moved.entrySet().stream().map(e -> name(e.getKey()) + "=" + e.getValue())
                .collect(Collectors.joining(", "));
    }
}
