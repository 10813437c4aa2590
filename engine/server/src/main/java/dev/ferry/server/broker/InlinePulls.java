package dev.ferry.server.broker;

import dev.ferry.format.PullFlags;
import dev.ferry.remoting.InlineRule;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.body.SubscriptionData;

/**
 * The pulls the broker answers on the event loop that read them: at most {@value #MAX_MESSAGES} messages filtered by
 * tag, whose work is a few lookups in memory and slices of the mapped files, less than the two thread hand-offs of
 * the pull executor (a wake-up to it, and one back to the event loop for the answer). The event loop reads the
 * answer's bytes from the page cache when it writes them in any case. Larger batches and other filters (SQL92, a
 * user's plugin, whose code may take any time) go to the pull executor, as do pulls this cannot read cheaply.
 */
final class InlinePulls implements InlineRule {
    static final int MAX_MESSAGES = 64;

    private final ConsumerGroups groups;

    InlinePulls(ConsumerGroups groups) {
        this.groups = groups;
    }

    @Override
    public boolean inline(RemotingCommand request) {
        String maxMessages = request.extField("maxMsgNums");
        String sysFlag = request.extField("sysFlag");
        if (maxMessages == null || sysFlag == null || Integer.parseInt(maxMessages) > MAX_MESSAGES) {
            return false;
        }
        String type;
        if (PullFlags.has(Integer.parseInt(sysFlag), PullFlags.SUBSCRIPTION)) {
            type = request.extField("expressionType");
        } else {
            String group = request.extField("consumerGroup");
            String topic = request.extField("topic");
            if (group == null || topic == null) {
                return false;
            }
            type = groups.subscription(group, topic).map(SubscriptionData::expressionType).orElse(null);
        }
        return type == null || type.isBlank() || SubscriptionData.TAG.equals(type);
    }
}
