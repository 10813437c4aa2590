package dev.ferry.api;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What a broker answered to a send.
 *
 * @param status how the message was stored
 * @param msgId the message's unique id (the {@code UNIQ_KEY} property); for a batch the ids of its
 *     messages, comma-separated, as RocketMQ reports them
 * @param offsetMsgId the id derived from the broker's store address and commit-log offset (for a batch,
 *     comma-separated)
 * @param messageQueue the queue the message went to
 * @param queueOffset the message's offset in that queue (for a batch, the first message's)
 */
public record SendResult(SendStatus status, String msgId, String offsetMsgId, MessageQueue messageQueue,
                         long queueOffset) {

    /** Checks the parts are present. */
    public SendResult {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(msgId, "msgId");
        Objects.requireNonNull(messageQueue, "messageQueue");
    }

    /** The queue id within {@link #messageQueue()}'s broker. */
    public int queueId() {
        return messageQueue.queueId();
    }

    /** The unique ids, one per message (one for a single send). */
    public List<String> msgIds() {
        return Arrays.stream(msgId.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
