package dev.ferry.server.broker;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.NameRules;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.ConsumerSendMsgBackRequestHeader;
import dev.ferry.store.AppendResult;
import dev.ferry.store.MessageStore;
import dev.ferry.store.MessageToStore;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * CONSUMER_SEND_MSG_BACK: a consumer could not consume a message. The broker looks the message up
 * by its commit-log offset and stores it again for the group: in the retry topic behind a delay,
 * or in the group's DLQ once its attempts are used up. The copy keeps the body, the producer's
 * properties and id ({@code UNIQ_KEY}), and records where it came from ({@code RETRY_TOPIC},
 * {@code ORIGIN_MESSAGE_ID}); its reconsume count is one higher. Like a send, it is answered once
 * the copy is durable, without holding the send thread for the flush. The offset may point at a message of any topic:
 * nothing is copied unless {@link MessageAccess} lets the sender consume that message.
 */
final class SendBackProcessor implements RequestProcessor {
    private static final System.Logger LOG = System.getLogger(SendBackProcessor.class.getName());

    private final MessageStore store;
    private final RetryRouting routing;
    private final ScheduleService schedule;
    private final Supplier<InetSocketAddress> storeHost;
    private final SubscriptionGroupTable groups;
    /** Where messages sent to a DLQ are counted. */
    private final TopicCounters deadLetters;
    private final MessageAccess access;

    SendBackProcessor(MessageStore store, RetryRouting routing, ScheduleService schedule,
                      Supplier<InetSocketAddress> storeHost, SubscriptionGroupTable groups,
                      TopicCounters deadLetters, MessageAccess access) {
        this.deadLetters = deadLetters;
        this.access = access;
        this.groups = groups;
        this.store = store;
        this.routing = routing;
        this.schedule = schedule;
        this.storeHost = storeHost;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        ConsumerSendMsgBackRequestHeader h = request.header(ConsumerSendMsgBackRequestHeader.class);
        // Apache's answer to a group it does not know and cannot create, an invalid one included
        if (groups.findOrCreate(h.group()).isEmpty()) {
            return error(request, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, groups.refusal(h.group()));
        }
        Optional<String> retryTopic = routing.retryTopic(h.group());
        if (retryTopic.isEmpty()) {
            return error(request, ResponseCode.SYSTEM_ERROR, "topic[" + SystemTopics.retryTopic(h.group())
                    + "] not exist: " + routing.refusal(SystemTopics.retryTopic(h.group())));
        }
        Optional<StoredMessageView> found = store.messageAt(h.offset());
        if (found.isEmpty()) {
            return error(request, ResponseCode.SYSTEM_ERROR, "look message by offset failed, " + h.offset());
        }
        RemotingCommand refusal = access.refusal(context.channel(), request, found.get());
        if (refusal != null) {
            return refusal;
        }
        StoredMessageView original = found.get();
        int reconsumeTimes = original.reconsumeTimes();
        String originId = h.originMsgId() == null || h.originMsgId().isBlank()
                ? firstNonNull(original.property(MessageProperties.UNIQ_KEY), original.offsetMessageId())
                : h.originMsgId();
        MessageRewrite copy = MessageRewrite.of(original).reconsumeTimes(reconsumeTimes + 1)
                .propertyIfAbsent(MessageProperties.RETRY_TOPIC, original.topic())
                .propertyIfAbsent(MessageProperties.ORIGIN_MESSAGE_ID, originId)
                .property(MessageProperties.DELAY, null);
        MessageToStore next;
        if (reconsumeTimes >= routing.maxReconsumeTimes(h.maxReconsumeTimes(), h.group()) || h.delayLevel() < 0) {
            String dlq = SystemTopics.deadLetterTopic(h.group());
            Optional<String> created = routing.deadLetterTopic(h.group());
            if (created.isEmpty()) {
                return error(request, ResponseCode.SYSTEM_ERROR, "topic[" + dlq + "] not exist: "
                        + routing.refusal(dlq));
            }
            next = copy.to(created.get(), 0, storeHost.get());
            String topic = countedTopic(copy.property(MessageProperties.RETRY_TOPIC), original.topic());
            deadLetters.deadLettered(topic, h.group());
            LOG.log(System.Logger.Level.INFO, "message {0} of {1} goes to the DLQ of group {2} after {3} attempts",
                    NameRules.shown(originId), topic, h.group(), reconsumeTimes + 1);
        } else {
            int level = RetryRouting.retryLevel(h.delayLevel(), reconsumeTimes);
            next = schedule.delay(copy.to(retryTopic.get(), 0, storeHost.get()), level);
        }
        CompletableFuture<AppendResult> appended = store.appendAsync(next);
        return DeferredAnswer.when(appended, context, request, () -> answer(request, appended.join()));
    }

    private static RemotingCommand answer(RemotingCommand request, AppendResult result) {
        if (!result.isStored()) {
            return error(request, ResponseCode.SYSTEM_ERROR, "cannot store the message for a retry: "
                    + result.status() + " " + result.detail());
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }

    /**
     * The topic a dead letter is counted under: the one it first came from ({@code RETRY_TOPIC}) when that is a valid
     * topic name, else the topic it was stored in. A producer can set {@code RETRY_TOPIC} to any text, and the count's
     * key is kept for as long as the broker runs and shown as a metric label.
     */
    static String countedTopic(String retryTopic, String storedTopic) {
        return retryTopic != null && NameRules.isValidTopic(retryTopic) ? retryTopic : storedTopic;
    }

    private static String firstNonNull(String first, String second) {
        return first != null ? first : second;
    }

    private static RemotingCommand error(RemotingCommand request, int code, String remark) {
        return RemotingCommand.responseTo(request, code).remark(remark).build();
    }
}
