package dev.ferry.server.broker;

import dev.ferry.format.PullFlags;
import dev.ferry.remoting.InlineRule;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.body.SubscriptionData;

/**
 * The pulls the broker answers on the event loop that read them: at most {@value #MAX_MESSAGES} messages of a known
 * group whose subscription takes every message (tag {@code *}). Their work is a few lookups in memory, at most that
 * many consume-queue entries and slices of the mapped files, less than the two thread hand-offs of the pull executor
 * (a wake-up to it, and one back to the event loop for the answer); the event loop reads the answer's bytes when it
 * writes them in any case. Everything else goes to the pull executor: larger batches; tag lists, SQL92 and plugin
 * filters (a filter that rarely matches scans thousands of entries for one pull, and a plugin's code may take any
 * time); a group the broker does not know yet (creating it takes a lock its file writes hold); and pulls this cannot
 * read cheaply.
 */
final class InlinePulls implements InlineRule {
    static final int MAX_MESSAGES = 64;

    private final ConsumerGroups groups;
    private final SubscriptionGroupTable subscriptionGroups;

    InlinePulls(ConsumerGroups groups, SubscriptionGroupTable subscriptionGroups) {
        this.groups = groups;
        this.subscriptionGroups = subscriptionGroups;
    }

    @Override
    public boolean inline(RemotingCommand request) {
        String maxMessages = request.extField("maxMsgNums");
        String sysFlag = request.extField("sysFlag");
        String group = request.extField("consumerGroup");
        String topic = request.extField("topic");
        if (maxMessages == null || sysFlag == null || group == null || topic == null
                || Integer.parseInt(maxMessages) > MAX_MESSAGES || !subscriptionGroups.contains(group)) {
            return false;
        }
        if (PullFlags.has(Integer.parseInt(sysFlag), PullFlags.SUBSCRIPTION)) {
            return SubscriptionData.matchesAllTags(request.extField("expressionType"),
                    request.extField("subscription"));
        }
        return groups.subscription(group, topic).map(SubscriptionData::matchesAllTags).orElse(false);
    }
}
