package dev.ferry.server.broker;

import dev.ferry.format.StoredMessageView;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingTimeoutException;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.ConsumerStatusBody;
import dev.ferry.remoting.protocol.body.MessageQueueBody;
import dev.ferry.remoting.protocol.body.ResetOffsetBody;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.header.ConsumeMessageDirectlyRequestHeader;
import dev.ferry.remoting.protocol.header.ConsumerRunningInfoRequestHeader;
import dev.ferry.remoting.protocol.header.ConsumerStatusRequestHeader;
import dev.ferry.remoting.protocol.header.ResetOffsetRequestHeader;
import dev.ferry.store.MessageStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What an admin asks of a group's clients through the broker: their running info (GET_CONSUMER_RUNNING_INFO) and a
 * message consumed directly (CONSUME_MESSAGE_DIRECTLY), forwarded to the client and its answer relayed as it is;
 * their offsets (INVOKE_BROKER_TO_GET_CONSUMER_STATUS); and an offset reset by time (INVOKE_BROKER_TO_RESET_OFFSET),
 * which online clients apply themselves (RESET_CONSUMER_CLIENT_OFFSET, as Apache's broker asks them) and which the
 * broker applies to its committed offsets when the group has no client online. Nothing here waits on a client with
 * the processor's thread.
 */
final class ConsumerCallsProcessor implements RequestProcessor {
    static final int[] CODES = {RequestCode.GET_CONSUMER_RUNNING_INFO, RequestCode.CONSUME_MESSAGE_DIRECTLY,
        RequestCode.INVOKE_BROKER_TO_RESET_OFFSET, RequestCode.INVOKE_BROKER_TO_GET_CONSUMER_STATUS};
    /** Apache's wait for a client's answer. */
    static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(10);
    private static final System.Logger LOG = System.getLogger(ConsumerCallsProcessor.class.getName());

    private final String brokerName;
    private final TopicConfigTable topics;
    private final SubscriptionGroupTable groups;
    private final ConsumerOffsetTable offsets;
    private final ConsumerGroups consumers;
    private final MessageStore store;
    private final BodyCodec json;
    private final MessageAccess access;

    ConsumerCallsProcessor(String brokerName, TopicConfigTable topics, SubscriptionGroupTable groups,
                           ConsumerOffsetTable offsets, ConsumerGroups consumers, MessageStore store,
                           BodyCodec json, MessageAccess access) {
        this.brokerName = brokerName;
        this.topics = topics;
        this.groups = groups;
        this.offsets = offsets;
        this.consumers = consumers;
        this.store = store;
        this.json = json;
        this.access = access;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.GET_CONSUMER_RUNNING_INFO -> {
                ConsumerRunningInfoRequestHeader h = request.header(ConsumerRunningInfoRequestHeader.class);
                yield forward(context, request, h.consumerGroup(), h.clientId(), request.body());
            }
            case RequestCode.CONSUME_MESSAGE_DIRECTLY -> consumeDirectly(context, request);
            case RequestCode.INVOKE_BROKER_TO_RESET_OFFSET -> resetOffsets(request);
            case RequestCode.INVOKE_BROKER_TO_GET_CONSUMER_STATUS -> consumerStatus(context, request);
            default -> RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED).build();
        };
    }

    private RemotingCommand consumeDirectly(RequestContext context, RemotingCommand request) {
        ConsumeMessageDirectlyRequestHeader h = request.header(ConsumeMessageDirectlyRequestHeader.class);
        Optional<StoredMessageView> message = h.msgId() == null ? Optional.empty()
                : store.messageByOffsetId(h.msgId());
        if (message.isEmpty()) {
            return error(request, ResponseCode.SYSTEM_ERROR, "can not find message by the id " + h.msgId());
        }
        // the id may name a message of any topic: it goes to the group's client only if the asker may see it
        RemotingCommand refusal = access.refusal(context.channel(), request, message.get());
        if (refusal != null) {
            return refusal;
        }
        Map<String, String> fields = new HashMap<>(request.extFields());
        fields.put("brokerName", brokerName);
        fields.put("topicSysFlag", String.valueOf(topics.get(message.get().topic()).map(TopicConfig::topicSysFlag)
                .orElse(0)));
        fields.put("groupSysFlag", "0");
        byte[] body = new byte[message.get().bytes().remaining()];
        message.get().bytes().duplicate().get(body);
        return forward(context, request.toBuilder().extFields(fields).build(), h.consumerGroup(), h.clientId(), body);
    }

    /** Sends the request on to the client and relays its answer, or Apache's answer when it is not there. */
    private RemotingCommand forward(RequestContext context, RemotingCommand request, String group, String clientId,
                                    byte[] body) {
        Optional<RemoteChannel> channel = clientId == null ? Optional.empty() : consumers.channelOf(group, clientId);
        if (channel.isEmpty()) {
            return error(request, ResponseCode.SYSTEM_ERROR, "The Consumer " + group + " " + clientId + " not online");
        }
        RemotingCommand call = RemotingCommand.request(request.code()).extFields(request.extFields()).body(body)
                .build();
        CompletableFuture<RemotingCommand> relayed = channel.get().invokeAsync(call, CLIENT_TIMEOUT)
                .handle((reply, failure) -> reply != null ? relay(request, reply)
                        : failed(request, group, clientId, failure));
        return DeferredAnswer.when(relayed, context, request, relayed::join);
    }

    private static RemotingCommand relay(RemotingCommand request, RemotingCommand reply) {
        return RemotingCommand.responseTo(request, reply.code()).remark(reply.remark())
                .extFields(reply.extFields()).body(reply.body()).build();
    }

    private static RemotingCommand failed(RemotingCommand request, String group, String clientId, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                : failure;
        if (cause instanceof RemotingTimeoutException) {
            return error(request, ResponseCode.CONSUME_MSG_TIMEOUT, "consumer " + group + " " + clientId
                    + " Timeout: " + cause.getMessage());
        }
        return error(request, ResponseCode.SYSTEM_ERROR, "invoke consumer " + group + " " + clientId
                + " Exception: " + cause);
    }

    private RemotingCommand resetOffsets(RemotingCommand request) {
        ResetOffsetRequestHeader h = request.header(ResetOffsetRequestHeader.class);
        EntryChecks.topic("topic", h.topic());
        EntryChecks.group("group", h.group());
        Optional<TopicConfig> topic = topics.get(h.topic());
        if (topic.isEmpty()) {
            return error(request, ResponseCode.TOPIC_NOT_EXIST, "Topic " + h.topic() + " does not exist");
        }
        if (!groups.contains(h.group())) {
            return error(request, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "Group " + h.group()
                    + " does not exist");
        }
        int queueId = h.queueId() == null ? -1 : h.queueId();
        if (queueId >= topic.get().readQueueNums()) {
            return error(request, ResponseCode.INVALID_PARAMETER, "queueId " + queueId + " outside 0.."
                    + (topic.get().readQueueNums() - 1) + " of " + h.topic());
        }
        Map<MessageQueueBody, Long> targets = new HashMap<>();
        for (int q = queueId >= 0 ? queueId : 0; q < (queueId >= 0 ? queueId + 1 : topic.get().readQueueNums()); q++) {
            long min = store.minOffset(h.topic(), q);
            long max = store.nextOffset(h.topic(), q);
            long target;
            if (queueId >= 0 && h.offset() != null && h.offset() != -1) {
                if (h.offset() < min || h.offset() > max) {
                    return error(request, ResponseCode.SYSTEM_ERROR, String.format(
                            "Target offset %d not in consume queue range [%d-%d]", h.offset(), min, max));
                }
                target = h.offset();
            } else {
                target = h.timestamp() < 0 ? max : store.offsetForTimestamp(h.topic(), q, h.timestamp());
            }
            long committed = offsets.query(h.group(), h.topic(), q).orElse(-1);
            // without force a reset only moves a group back, as Apache's clients apply it
            if (!h.isForce() && committed >= 0 && committed < target) {
                target = committed;
            }
            targets.put(new MessageQueueBody(h.topic(), brokerName, q), target);
        }
        if (targets.isEmpty()) {
            return error(request, ResponseCode.SYSTEM_ERROR, "No queues to reset.");
        }
        ResetOffsetBody body = new ResetOffsetBody(targets);
        List<RemoteChannel> online = consumers.channels(h.group());
        if (online.isEmpty()) {
            targets.forEach((queue, offset) -> offsets.commit(groups, topics, h.group(), h.topic(), queue.queueId(),
                    offset));
            LOG.log(System.Logger.Level.INFO, "reset the offsets of offline group {0} on {1} to {2}", h.group(),
                    h.topic(), targets.values());
        } else {
            RemotingCommand notice = RemotingCommand.request(RequestCode.RESET_CONSUMER_CLIENT_OFFSET,
                    new ResetOffsetRequestHeader(h.topic(), h.group(), null, null, h.timestamp(), h.isForce()))
                    .body(json.encode(body)).build();
            for (RemoteChannel channel : online) {
                try {
                    channel.invokeOneway(notice, CLIENT_TIMEOUT);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "cannot ask {0} to reset its offsets: {1}", channel,
                            e.getMessage());
                }
            }
            LOG.log(System.Logger.Level.INFO, "asked {0} clients of group {1} to reset their offsets on {2}",
                    online.size(), h.group(), h.topic());
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(json.encode(body)).build();
    }

    private RemotingCommand consumerStatus(RequestContext context, RemotingCommand request) {
        ConsumerStatusRequestHeader h = request.header(ConsumerStatusRequestHeader.class);
        List<ConsumerGroups.Member> members = consumers.members(h.group());
        if (members.isEmpty()) {
            return error(request, ResponseCode.SYSTEM_ERROR, "No Any Consumer online in the consumer group: ["
                    + h.group() + "]");
        }
        Map<String, Map<MessageQueueBody, Long>> table = new ConcurrentHashMap<>();
        RemotingCommand ask = RemotingCommand.request(RequestCode.GET_CONSUMER_STATUS_FROM_CLIENT,
                new ConsumerStatusRequestHeader(h.topic(), h.group(), null)).build();
        CompletableFuture<?>[] calls = members.stream()
                .filter(m -> h.clientAddr() == null || h.clientAddr().isBlank() || h.clientAddr().equals(m.clientId()))
                .map(m -> m.channel().invokeAsync(ask, CLIENT_TIMEOUT).thenAccept(reply -> {
                    if (reply.code() == ResponseCode.SUCCESS && reply.body() != null) {
                        table.put(m.clientId(), json.decode(reply.body(), ConsumerStatusBody.class)
                                .messageQueueTable());
                    }
                }).exceptionally(failure -> {
                    LOG.log(System.Logger.Level.DEBUG, "no consumer status from {0}: {1}", m.clientId(), failure);
                    return null;
                }))
                .toArray(CompletableFuture[]::new);
        CompletableFuture<Void> all = CompletableFuture.allOf(calls);
        return DeferredAnswer.when(all, context, request, () -> RemotingCommand.responseTo(request,
                ResponseCode.SUCCESS).body(json.encode(new ConsumerStatusBody(Map.of(), table))).build());
    }

    private static RemotingCommand error(RemotingCommand request, int code, String remark) {
        return RemotingCommand.responseTo(request, code).remark(remark).build();
    }
}
