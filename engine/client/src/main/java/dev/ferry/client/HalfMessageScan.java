package dev.ferry.client;

import dev.ferry.api.FerryException;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.PullFlags;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.GetMaxOffsetRequestHeader;
import dev.ferry.remoting.protocol.header.GetMinOffsetRequestHeader;
import dev.ferry.remoting.protocol.header.OffsetResponseHeader;
import dev.ferry.remoting.protocol.header.PullMessageRequestHeader;
import dev.ferry.remoting.protocol.header.PullMessageResponseHeader;
import dev.ferry.remoting.protocol.header.QueryConsumerOffsetRequestHeader;
import dev.ferry.remoting.protocol.header.QueryConsumerOffsetResponseHeader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Finds the half messages of one producer group that no END_TRANSACTION has decided yet, on every master the name
 * servers know: what a transaction manager's recovery must commit or roll back after a crash.
 *
 * <p>Reads each broker's half queue from where its transaction check stands (the {@code CID_RMQ_SYS_TRANS} offset,
 * Apache's; else the queue's first offset) to its end, and the decisions recorded in the op queue since, in either
 * broker's form: Apache's comma-separated half-queue offsets, Ferry's {@code commitLogOffset:queueOffset}. An Apache
 * broker's check stores a second copy of a half message it asks about; a message counts as decided when any copy is,
 * and otherwise its latest copy is returned. Memory holds only the group's half messages that carry the property asked
 * for, and at most {@code limit} of them.
 */
final class HalfMessageScan {
    private static final int BATCH = 32;

    private final BrokerCalls calls;
    private final Supplier<Map<String, String>> masters;
    private final MessageDecoder decoder;
    private final Duration timeout;
    private final int limit;

    HalfMessageScan(BrokerCalls calls, Supplier<Map<String, String>> masters, MessageDecoder decoder,
                    Duration timeout, int limit) {
        this.calls = calls;
        this.masters = masters;
        this.decoder = decoder;
        this.timeout = timeout;
        this.limit = limit;
    }

    /**
     * The undecided half messages of {@code producerGroup} that carry {@code property}.
     *
     * @throws FerryException when a broker cannot be read, or more than the limit are undecided
     */
    List<HalfMessage> undecided(String producerGroup, String property) {
        List<HalfMessage> found = new ArrayList<>();
        for (Map.Entry<String, String> broker : masters.get().entrySet()) {
            found.addAll(undecidedAt(broker.getKey(), broker.getValue(), producerGroup, property));
        }
        return found;
    }

    private List<HalfMessage> undecidedAt(String brokerName, String address, String producerGroup, String property) {
        // latest copy by message id, and which message each copy's half-queue offset belongs to
        Map<String, HalfMessage> latest = new HashMap<>();
        Map<Long, String> messageAt = new HashMap<>();
        readQueue(brokerName, address, SystemTopics.TRANSACTION_HALF_TOPIC, message -> {
            if (!producerGroup.equals(message.properties().get(MessageProperties.PRODUCER_GROUP))
                    || !message.properties().containsKey(property)) {
                return;
            }
            String id = message.msgId();
            HalfMessage copy = new HalfMessage(brokerName, message.property(MessageProperties.REAL_TOPIC)
                    .orElse(message.topic()), realQueueId(message), message.queueOffset(), message.commitLogOffset(),
                    id, message.properties());
            HalfMessage before = latest.get(id);
            if (before == null && latest.size() >= limit) {
                throw new FerryException("more than " + limit + " undecided half messages of group " + producerGroup
                        + " at " + brokerName);
            }
            if (before == null || before.queueOffset() < copy.queueOffset()) {
                latest.put(id, copy);
            }
            messageAt.put(copy.queueOffset(), id);
        });
        if (latest.isEmpty()) {
            return List.of();
        }
        Set<String> decided = new HashSet<>();
        readQueue(brokerName, address, SystemTopics.TRANSACTION_OP_TOPIC, op -> {
            for (long halfOffset : decidedOffsets(new String(op.body(), StandardCharsets.UTF_8))) {
                String id = messageAt.get(halfOffset);
                if (id != null) {
                    decided.add(id);
                }
            }
        });
        latest.keySet().removeAll(decided);
        return List.copyOf(latest.values());
    }

    private static int realQueueId(ReceivedMessage half) {
        try {
            return Integer.parseInt(half.property(MessageProperties.REAL_QUEUE_ID).orElse("-1"));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The half-queue offsets an op message decides, in Apache's form or Ferry's. */
    static List<Long> decidedOffsets(String body) {
        List<Long> offsets = new ArrayList<>();
        String text = body.trim();
        int colon = text.indexOf(':');
        try {
            if (colon >= 0) {
                offsets.add(Long.parseLong(text.substring(colon + 1).trim()));
            } else {
                for (String part : text.split(",")) {
                    if (!part.isBlank()) {
                        offsets.add(Long.parseLong(part.trim()));
                    }
                }
            }
        } catch (NumberFormatException e) {
            // not a decision this scan understands: it decides nothing
        }
        return offsets;
    }

    /** Hands every message of queue 0 of {@code topic}, from the check's position to the end, to {@code each}. */
    private void readQueue(String brokerName, String address, String topic, Consumer<ReceivedMessage> each) {
        OptionalLong end = offset(address, RemotingCommand.request(RequestCode.GET_MAX_OFFSET,
                new GetMaxOffsetRequestHeader(topic, 0, null, brokerName)).build(), brokerName, topic);
        if (end.isEmpty() || end.getAsLong() <= 0) {
            return; // no transaction ever reached this broker
        }
        OptionalLong checked = checkedOffset(brokerName, address, topic);
        long offset = checked.isPresent() ? checked.getAsLong() : offset(address, RemotingCommand.request(
                RequestCode.GET_MIN_OFFSET, new GetMinOffsetRequestHeader(topic, 0, brokerName)).build(), brokerName,
                topic).orElse(0);
        while (offset < end.getAsLong()) {
            PullMessageRequestHeader header = new PullMessageRequestHeader(SystemTopics.TRANSACTION_CHECK_GROUP,
                    topic, 0, offset, BATCH, PullFlags.SUBSCRIPTION, 0, 0, "*", 0, "TAG", null, brokerName);
            RemotingCommand response = calls.call(address, RemotingCommand.request(RequestCode.PULL_MESSAGE, header)
                    .build(), timeout);
            long next;
            switch (response.code()) {
                case ResponseCode.SUCCESS -> {
                    decoder.decodeAll(response.body(), brokerName).forEach(each);
                    next = response.header(PullMessageResponseHeader.class).nextBeginOffset();
                }
                case ResponseCode.PULL_NOT_FOUND, ResponseCode.PULL_RETRY_IMMEDIATELY,
                     ResponseCode.PULL_OFFSET_MOVED -> next = response.header(PullMessageResponseHeader.class)
                        .nextBeginOffset();
                default -> throw WireErrors.fromResponse(response, "reading " + topic + " at " + brokerName);
            }
            if (next <= offset) {
                return; // nothing more to read now
            }
            offset = next;
        }
    }

    private OptionalLong checkedOffset(String brokerName, String address, String topic) {
        RemotingCommand response = calls.call(address, RemotingCommand.request(RequestCode.QUERY_CONSUMER_OFFSET,
                new QueryConsumerOffsetRequestHeader(SystemTopics.TRANSACTION_CHECK_GROUP, topic, 0, false,
                        brokerName)).build(), timeout);
        return response.code() == ResponseCode.SUCCESS
                ? OptionalLong.of(response.header(QueryConsumerOffsetResponseHeader.class).offset())
                : OptionalLong.empty();
    }

    private OptionalLong offset(String address, RemotingCommand request, String brokerName, String topic) {
        RemotingCommand response = calls.call(address, request, timeout);
        if (response.code() == ResponseCode.TOPIC_NOT_EXIST) {
            return OptionalLong.empty();
        }
        if (response.code() != ResponseCode.SUCCESS) {
            throw WireErrors.fromResponse(response, "offsets of " + topic + " at " + brokerName);
        }
        return OptionalLong.of(response.header(OffsetResponseHeader.class).offset());
    }
}
