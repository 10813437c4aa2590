package dev.ferry.server.broker;

import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.InlineRule;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeaderV2;

/**
 * The sends the broker stores on the event loop that read them: one message (no batch) to a topic it has, neither a
 * retry nor a transaction's half message, unless a request that writes to the store waits or runs in the
 * {@link SendLane}. Such a send is a few lookups, an append to the mapped commit log and perhaps the dispatch of what
 * it wrote: less than the two thread hand-offs of the lane (a wake-up of the send thread, and one back to the event
 * loop for the answer), which cost the broker about a fifth of its CPU per sync send and a tenth of it per async send
 * in the side-by-side harness; and a pull it wakes on the same connection is answered by the same thread, after it.
 * A send queued in the lane keeps its connection's next ones off the event loop, so a connection's sends are stored
 * in the order they arrived whichever way each goes; sends of other connections run on their own event loops
 * meanwhile.
 *
 * <p>What may write a file or wait goes to the lane: creating a topic (the table is saved), a retry topic (its group
 * may be created), a transaction's half message (its topics may be created), and batches, whose decoding is bounded
 * only by the frame. A store under sync flush answers from its flush thread as it does for the lane.
 */
final class InlineSends implements InlineRule {
    private final SendLane lane;
    private final TopicConfigTable topics;

    InlineSends(SendLane lane, TopicConfigTable topics) {
        this.lane = lane;
        this.topics = topics;
    }

    @Override
    public boolean inline(RemotingCommand request) {
        if (!lane.idle()) {
            return false;
        }
        boolean shortNames = request.code() == RequestCode.SEND_MESSAGE_V2;
        if (!shortNames && request.code() != RequestCode.SEND_MESSAGE) {
            return false;
        }
        String topic = request.extField(shortNames ? SendMessageRequestHeaderV2.TOPIC : "topic");
        String sysFlag = request.extField(shortNames ? SendMessageRequestHeaderV2.SYS_FLAG : "sysFlag");
        String batch = request.extField(shortNames ? SendMessageRequestHeaderV2.BATCH : "batch");
        if (topic == null || sysFlag == null || Boolean.parseBoolean(batch)
                || SystemTopics.isRetryTopic(topic) || TransactionService.isPrepared(Integer.parseInt(sysFlag))) {
            return false;
        }
        return topics.get(topic).isPresent();
    }
}
