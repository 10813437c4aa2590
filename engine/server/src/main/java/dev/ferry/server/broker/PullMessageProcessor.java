package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.format.NameRules;
import dev.ferry.format.PullFlags;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.SubscriptionGroupConfig;
import dev.ferry.remoting.protocol.body.Permission;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.header.PullMessageRequestHeader;
import dev.ferry.remoting.protocol.header.PullMessageResponseHeader;
import dev.ferry.spi.FilterExpressionException;
import dev.ferry.store.GetMessageResult;
import dev.ferry.store.MessageFilterPredicate;
import dev.ferry.store.MessageReader;
import java.util.Optional;

/**
 * PULL_MESSAGE and LITE_PULL_MESSAGE: reads from the store through the subscription's filter
 * and answers with the stored records as they are on disk. When nothing is there yet and the
 * consumer allows it, the request is held ({@link PullRequestHold}) instead of answered empty.
 */
final class PullMessageProcessor implements RequestProcessor {

    private final PullSettings limits;
    private final MessageReader store;
    private final TopicConfigTable topics;
    private final ConsumerGroups groups;
    private final ConsumerOffsetTable offsets;
    private final SubscriptionFilters filters;
    private final PullRequestHold hold;
    private final Clock clock;
    private final TopicCounters counters;
    private final PullOffsets pullOffsets;
    private final SubscriptionGroupTable subscriptionGroups;

    PullMessageProcessor(PullSettings limits, MessageReader store, TopicConfigTable topics, ConsumerGroups groups,
                         ConsumerOffsetTable offsets, SubscriptionFilters filters, PullRequestHold hold, Clock clock,
                         TopicCounters counters, SubscriptionGroupTable subscriptionGroups,
                         PullOffsets pullOffsets) {
        this.pullOffsets = pullOffsets;
        this.subscriptionGroups = subscriptionGroups;
        this.counters = counters;
        this.limits = limits;
        this.store = store;
        this.topics = topics;
        this.groups = groups;
        this.offsets = offsets;
        this.filters = filters;
        this.hold = hold;
        this.clock = clock;
        hold.retryWith(this::retry);
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        PullMessageRequestHeader header = request.header(PullMessageRequestHeader.class);
        // Apache's order: the group (26 when it cannot be known), the topic (17), the queue (29)
        Optional<SubscriptionGroupConfig> settings = subscriptionGroups.findOrCreate(header.consumerGroup());
        if (settings.isEmpty()) {
            return error(request, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST,
                    subscriptionGroups.refusal(header.consumerGroup()));
        }
        // an operator's updateSubGroup: Apache's answers to a group that may not consume, or not by broadcast
        if (!settings.get().consumeEnable()) {
            return error(request, ResponseCode.NO_PERMISSION, "subscription group no permission, "
                    + header.consumerGroup());
        }
        if (!settings.get().consumeBroadcastEnable()
                && groups.group(header.consumerGroup()).map(ConsumerGroups.Group::broadcasting).orElse(false)) {
            return error(request, ResponseCode.NO_PERMISSION, "the consumer group[" + header.consumerGroup()
                    + "] can not consume by broadcast way");
        }
        String topicProblem = NameRules.topicProblem(header.topic());
        if (topicProblem != null) {
            return error(request, ResponseCode.TOPIC_NOT_EXIST, topicProblem);
        }
        long suspend = Math.min(Math.max(header.suspendTimeoutMillis(), 0), limits.maxSuspendMillis());
        commitOffset(header);
        return pull(context, request, header, clock.millis() + suspend, true);
    }

    private void retry(PullRequestHold.HeldPull held, boolean mayHoldAgain) {
        RemotingCommand response = pull(held.context(), held.request(), held.header(), held.deadlineMillis(),
                mayHoldAgain);
        if (response != null) {
            held.context().respond(response);
        }
    }

    private void commitOffset(PullMessageRequestHeader header) {
        if (!PullFlags.has(header.sysFlag(), PullFlags.COMMIT_OFFSET) || header.commitOffset() < 0) {
            return;
        }
        boolean broadcasting = groups.group(header.consumerGroup()).map(ConsumerGroups.Group::broadcasting)
                .orElse(false);
        if (!broadcasting && topics.contains(header.topic())) {
            try {
                offsets.commit(subscriptionGroups, topics, header.consumerGroup(), header.topic(), header.queueId(),
                        header.commitOffset());
            } catch (BadRequestException e) {
                // the pull itself is answered on its own merits (a bad queue id, say)
            }
        }
    }

    /** Answers the pull, or holds it and returns {@code null}. */
    private RemotingCommand pull(RequestContext context, RemotingCommand request, PullMessageRequestHeader header,
                                 long deadline, boolean mayHold) {
        Optional<TopicConfig> topic = topics.get(header.topic());
        if (topic.isEmpty()) {
            return error(request, ResponseCode.TOPIC_NOT_EXIST, "topic[" + header.topic()
                    + "] not exist, apply first please!");
        }
        if (!Permission.readable(topic.get().perm())) {
            return error(request, ResponseCode.NO_PERMISSION, "the topic[" + header.topic() + "] pulling message is forbidden");
        }
        if (header.queueId() < 0 || header.queueId() >= topic.get().readQueueNums()) {
            return error(request, ResponseCode.INVALID_PARAMETER, "queueId[" + header.queueId() + "] is illegal, topic:["
                    + header.topic() + "] topicConfig.readQueueNums:[" + topic.get().readQueueNums() + "] consumer:["
                    + context.channel().remoteAddress() + "]");
        }
        boolean suspend = PullFlags.has(header.sysFlag(), PullFlags.SUSPEND);
        String expressionType;
        String expression;
        if (PullFlags.has(header.sysFlag(), PullFlags.SUBSCRIPTION)) {
            expressionType = header.expressionType();
            expression = header.subscription();
        } else {
            Optional<SubscriptionData> subscription = groups.subscription(header.consumerGroup(), header.topic());
            if (subscription.isEmpty()) {
                return error(request, ResponseCode.SUBSCRIPTION_NOT_EXIST, "the consumer's subscription of "
                        + header.topic() + " does not exist: send a heartbeat first");
            }
            if (subscription.get().subVersion() < header.subVersion()
                    && !takesEveryTagMessage(subscription.get(), header)) {
                // The heartbeat with the newer subscription is on its way: wait for it rather than
                // bouncing the pull and stalling the consumer until its next heartbeat.
                if (mayHold && deadline > clock.millis()) {
                    RemotingCommand busy = holdOrBusy(context, request, header, deadline);
                    // A heartbeat taken between the look above and the hold found nothing to wake: look again.
                    if (busy == null && groups.subscription(header.consumerGroup(), header.topic())
                            .filter(latest -> latest.subVersion() >= header.subVersion()).isPresent()) {
                        hold.onSubscriptionChanged(header.consumerGroup());
                    }
                    return busy;
                }
                return error(request, ResponseCode.SUBSCRIPTION_NOT_LATEST, "the consumer's subscription is not latest");
            }
            expressionType = subscription.get().expressionType();
            expression = subscription.get().subString();
        }
        MessageFilterPredicate filter;
        String tooLong = filters.lengthProblem(expression);
        if (tooLong != null) {
            return error(request, ResponseCode.SUBSCRIPTION_PARSE_FAILED, tooLong);
        }
        try {
            filter = SystemTopics.isRetryTopic(header.topic()) ? MessageFilterPredicate.ALL
                    : filters.compile(expressionType, expression);
        } catch (FilterExpressionException e) {
            return error(request, ResponseCode.SUBSCRIPTION_PARSE_FAILED, "parse the consumer's subscription["
                    + expression + "] failed: " + e.getMessage());
        } catch (SubscriptionFilters.UnsupportedFilterException e) {
            return error(request, ResponseCode.SYSTEM_ERROR, e.getMessage());
        }

        int maxMessages = Math.min(Math.max(header.maxMsgNums(), 1), limits.maxPullMessages());
        int maxBytes = header.maxMsgBytes() == null || header.maxMsgBytes() <= 0 ? limits.defaultMaxBytes()
                : header.maxMsgBytes();
        GetMessageResult result = store.getMessages(header.topic(), header.queueId(), header.queueOffset(),
                maxMessages, maxBytes, filter);
        return switch (result.status()) {
            case FOUND -> {
                long bytes = 0;
                for (java.nio.ByteBuffer message : result.messages()) {
                    bytes += message.remaining();
                }
                counters.messagesOut(header.topic(), header.consumerGroup(), result.messages().size(), bytes);
                pullOffsets.pulled(header.consumerGroup(), header.topic(), header.queueId(),
                        result.nextBeginOffset());
                yield found(request, result);
            }
            // A queue not dispatched yet is "nothing yet", never "move to 0": right after a send
            // or a restart the dispatcher may lag the commit log, and a reset would replay history.
            case NO_NEW_MESSAGE, NO_MESSAGE_IN_QUEUE -> nothingYet(context, request, header, result, suspend, mayHold,
                    deadline);
            case NO_MATCHED_MESSAGE -> {
                // Everything up to the end was read and nothing matched: wait there for a match
                // rather than send the consumer back for another empty round.
                if (suspend && mayHold && deadline > clock.millis() && result.nextBeginOffset() >= result.nextOffset()) {
                    yield holdFrom(context, request, header, result.nextBeginOffset(), deadline);
                }
                yield answer(request, ResponseCode.PULL_RETRY_IMMEDIATELY, result, result.nextBeginOffset());
            }
            case OFFSET_TOO_SMALL -> answer(request, ResponseCode.PULL_OFFSET_MOVED, result, result.minOffset());
            case OFFSET_OVERFLOW -> store.dispatchedOffset() < store.commitLogEndOffset()
                    ? nothingYet(context, request, header, result, suspend, mayHold, deadline)
                    : answer(request, ResponseCode.PULL_OFFSET_MOVED, result, result.nextOffset());
            case OFFSET_OUT_OF_RANGE -> answer(request, ResponseCode.PULL_RETRY_IMMEDIATELY, result,
                    result.nextBeginOffset());
        };
    }

    /**
     * Whether the stored subscription serves a pull that expects a newer one of TAG type: {@code *} takes every
     * message, a superset of any tag expression the consumer may have now, and a consumer matches the tags of what
     * it pulls once more itself (the broker's tag filter compares hash codes only, so RocketMQ's clients do). Apache's
     * client bumps the version at each rebalance and may skip the heartbeat that carries it (its periodic heartbeat
     * holds the lock), leaving its pulls to wait 20-30 s for the next one; this serves them at once.
     */
    private static boolean takesEveryTagMessage(SubscriptionData stored, PullMessageRequestHeader header) {
        return stored.matchesAllTags() && SubscriptionData.isTagType(header.expressionType());
    }

    private RemotingCommand nothingYet(RequestContext context, RemotingCommand request, PullMessageRequestHeader header,
                                       GetMessageResult result, boolean suspend, boolean mayHold, long deadline) {
        if (suspend && mayHold && deadline > clock.millis()) {
            return holdFrom(context, request, header, header.queueOffset(), deadline);
        }
        return answer(request, ResponseCode.PULL_NOT_FOUND, result, header.queueOffset());
    }

    /** Holds the pull, to continue from {@code offset}; returns {@code null} (no answer yet). */
    private RemotingCommand holdFrom(RequestContext context, RemotingCommand request, PullMessageRequestHeader header,
                                     long offset, long deadline) {
        PullMessageRequestHeader from = offset == header.queueOffset() ? header : new PullMessageRequestHeader(
                header.consumerGroup(), header.topic(), header.queueId(), offset, header.maxMsgNums(),
                header.sysFlag(), header.commitOffset(), header.suspendTimeoutMillis(), header.subscription(),
                header.subVersion(), header.expressionType(), header.maxMsgBytes(), header.brokerName());
        RemotingCommand busy = holdOrBusy(context, request, from, deadline);
        if (busy != null) {
            return busy;
        }
        // A message dispatched between the read and the hold would not wake it: look again.
        long max = store.nextOffset(header.topic(), header.queueId());
        if (max > offset) {
            hold.onArrival(header.topic(), header.queueId(), max);
        }
        return null;
    }

    /** Holds the pull ({@code null}: no answer yet), or answers SYSTEM_BUSY when nothing more may be held. */
    private RemotingCommand holdOrBusy(RequestContext context, RemotingCommand request, PullMessageRequestHeader header,
                                       long deadline) {
        if (hold.hold(new PullRequestHold.HeldPull(context, request, header, deadline))) {
            return null;
        }
        return error(request, ResponseCode.SYSTEM_BUSY, "[OVERLOAD]too many pulls held, the broker's or this "
                + "connection's maximum; pull again later");
    }

    private static RemotingCommand found(RemotingCommand request, GetMessageResult result) {
        // The stored records go out as they are on disk: slices of the mapped files, not copied here.
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).remark("FOUND")
                .header(responseHeader(result, result.nextBeginOffset())).bodyParts(result.messages()).build();
    }

    private static RemotingCommand answer(RemotingCommand request, int code, GetMessageResult result, long next) {
        return RemotingCommand.responseTo(request, code).header(responseHeader(result, next)).build();
    }

    private static PullMessageResponseHeader responseHeader(GetMessageResult result, long nextBeginOffset) {
        return new PullMessageResponseHeader(0L, nextBeginOffset, result.minOffset(), result.nextOffset(), null, 0, 0,
                null);
    }

    private static RemotingCommand error(RemotingCommand request, int code, String remark) {
        return RemotingCommand.responseTo(request, code).remark(remark).build();
    }
}
