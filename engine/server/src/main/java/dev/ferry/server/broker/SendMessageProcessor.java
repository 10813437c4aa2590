package dev.ferry.server.broker;

import dev.ferry.format.BatchBody;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.SystemTopics;
import dev.ferry.format.TraceRecord;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.Permission;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeader;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeaderV2;
import dev.ferry.remoting.protocol.header.SendMessageResponseHeader;
import dev.ferry.server.replica.ReplicaOutcome;
import dev.ferry.server.replica.ReplicaWait;
import dev.ferry.server.timer.TimerRouting;
import dev.ferry.store.AppendResult;
import dev.ferry.store.AppendStatus;
import dev.ferry.store.MessageWriter;
import dev.ferry.store.MessageToStore;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * SEND_MESSAGE, SEND_MESSAGE_V2 and SEND_BATCH_MESSAGE: validates, creates the topic on first
 * send when allowed, and appends to the store. Runs on the send lane, whose single thread
 * keeps each producer's messages to a queue in the order they arrived, or, while the lane is idle, on the event loop
 * that read the send ({@link InlineSends}); so it may run on several threads at once. It never waits for a
 * flush: under sync flush the answer goes out when the store reports the messages durable, so
 * the thread goes on appending other producers' messages and one force covers them all.
 */
final class SendMessageProcessor implements RequestProcessor {
    /** The most messages one batch may hold. */
    static final int MAX_BATCH_MESSAGES = 10_000;
    private final Supplier<SendSettings> settings;
    private final MessageWriter store;
    private final TopicConfigTable topics;
    private final Runnable topicsChanged;
    private final SubscriptionGroupTable groups;
    private final SendRoute route;
    private final TopicCounters counters;
    /** What a send waits for after it is stored: slaves, for a SYNC_MASTER. */
    private final ReplicaWait replicas;
    /** Tells replication there is more to send. */
    private final Runnable appendedHint;
    private volatile InetSocketAddress storeHost;

    /**
     * @param settings      the settings as they are now, asked once per send
     * @param topicsChanged called when a send created a topic, to announce it
     */
    SendMessageProcessor(Supplier<SendSettings> settings, MessageWriter store,
                         TopicConfigTable topics, Runnable topicsChanged, SubscriptionGroupTable groups,
                         SendRoute route, TopicCounters counters, ReplicaWait replicas,
                         Runnable appendedHint, InetSocketAddress storeHost) {
        this.settings = settings;
        this.store = store;
        this.topics = topics;
        this.topicsChanged = topicsChanged;
        this.groups = groups;
        this.route = route;
        this.counters = counters;
        this.replicas = replicas;
        this.appendedHint = appendedHint;
        this.storeHost = storeHost;
    }

    InetSocketAddress storeHost() {
        return storeHost;
    }

    /** The address stored with each message, once the broker's port is bound. */
    void storeHost(InetSocketAddress value) {
        this.storeHost = value;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        SendMessageRequestHeader header = checkedHeader(request, RequestCode.SEND_MESSAGE);
        // Apache's msgCheck: a broker-only topic is NO_PERMISSION
        if (SystemTopics.isBrokerOnly(header.topic())) {
            return error(request, ResponseCode.NO_PERMISSION, "Sending message to topic[" + header.topic()
                    + "] is forbidden.");
        }
        SendSettings now = settings.get();
        boolean batch = request.code() == RequestCode.SEND_BATCH_MESSAGE || Boolean.TRUE.equals(header.batch());
        if (SystemTopics.isRetryTopic(header.topic())) {
            if (batch) {
                return error(request, ResponseCode.MESSAGE_ILLEGAL, "batch request does not support retry group "
                        + header.topic());
            }
            String group = SystemTopics.groupOf(header.topic());
            if (groups.findOrCreate(group).isEmpty()) {
                return error(request, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, groups.refusal(group));
            }
        }
        TopicConfig topic = topicFor(header, now);
        if (topic == null) {
            return error(request, ResponseCode.TOPIC_NOT_EXIST, "topic[" + header.topic()
                    + "] not exist, apply first please!");
        }
        if (!Permission.writable(topic.perm()) || topic.writeQueueNums() <= 0) {
            return error(request, ResponseCode.NO_PERMISSION, "the topic[" + header.topic()
                    + "] sending message is forbidden");
        }
        int queueId = header.queueId() < 0 ? ThreadLocalRandom.current().nextInt(topic.writeQueueNums())
                : header.queueId();
        if (queueId >= topic.writeQueueNums()) {
            return error(request, ResponseCode.INVALID_PARAMETER, "request queueId[" + queueId + "] is illegal, "
                    + "topic " + header.topic() + " has " + topic.writeQueueNums() + " write queues");
        }
        List<MessageToStore> messages;
        try {
            messages = batch ? batch(request.body(), header, queueId, bornHost(context), now)
                    : List.of(route(single(request.body(), header, queueId, bornHost(context), now), header));
        } catch (BadRequestException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            return error(request, ResponseCode.MESSAGE_ILLEGAL, e.getMessage());
        } catch (Refused e) {
            return error(request, e.code, e.getMessage());
        }
        for (MessageToStore message : messages) {
            if (message.body().length > now.maxMessageSize()) {
                return error(request, ResponseCode.MESSAGE_ILLEGAL, "the message body size " + message.body().length
                        + " is over the limit of " + now.maxMessageSize() + " bytes");
            }
        }
        return append(context, request, header, queueId, messages);
    }

    /**
     * The send header of {@code request}, in full names whichever form it came in ({@code fullNamesCode} is the code
     * of the full form), its names checked as Apache's msgCheck does: a bad topic or group is INVALID_PARAMETER.
     */
    static SendMessageRequestHeader checkedHeader(RemotingCommand request, int fullNamesCode) {
        SendMessageRequestHeader header = request.code() == fullNamesCode
                ? request.header(SendMessageRequestHeader.class)
                : request.header(SendMessageRequestHeaderV2.class).toFullNames();
        EntryChecks.topic("topic", header.topic());
        EntryChecks.group("producerGroup", header.producerGroup());
        if (header.defaultTopic() != null) {
            EntryChecks.topic("defaultTopic", header.defaultTopic());
        }
        return header;
    }

    /**
     * Appends the messages in order and answers once all are durable: at once under async flush, from the store's
     * flush thread under sync flush (then {@code null} is returned). A rejected message stops a batch there.
     */
    private RemotingCommand append(RequestContext context, RemotingCommand request, SendMessageRequestHeader header,
                                   int queueId, List<MessageToStore> messages) {
        List<CompletableFuture<AppendResult>> appended = new ArrayList<>(messages.size());
        for (MessageToStore message : messages) {
            CompletableFuture<AppendResult> result = store.appendAsync(message);
            if (result.isDone() && !result.join().isStored()) {
                return rejected(request, result.join());
            }
            appended.add(result);
        }
        appendedHint.run();
        // from the request: a prepared message is stored in the half topic without its transaction flag
        TopicCounters.MessageType type = TopicCounters.MessageType.of(header.sysFlag(), header.properties());
        CompletableFuture<AppendResult> last = appended.get(appended.size() - 1);
        CompletableFuture<ReplicaOutcome> replicated = CompletableFuture.allOf(appended.toArray(
                CompletableFuture[]::new)).thenCompose(stored -> last.join().isStored()
                ? replicas.replicated(last.join().nextPhysicalOffset(), store.commitLogEndOffset())
                : CompletableFuture.completedFuture(ReplicaOutcome.REPLICATED));
        return DeferredAnswer.when(replicated, context, request,
                () -> answer(request, header, queueId, type, appended, replicated.join()));
    }

    private RemotingCommand answer(RemotingCommand request, SendMessageRequestHeader header, int queueId,
                                   TopicCounters.MessageType type, List<CompletableFuture<AppendResult>> appended,
                                   ReplicaOutcome replicated) {
        List<String> ids = new ArrayList<>(appended.size());
        int code = ResponseCode.SUCCESS;
        long bytes = 0;
        for (CompletableFuture<AppendResult> future : appended) {
            AppendResult result = future.join();
            if (!result.isStored()) {
                return rejected(request, result);
            }
            ids.add(result.offsetMessageId());
            bytes += result.size();
            if (result.status() == AppendStatus.FLUSH_DISK_TIMEOUT) {
                code = ResponseCode.FLUSH_DISK_TIMEOUT;
            }
        }
        // As Apache's: stored here either way, the code tells the producer no slave confirmed it
        if (code == ResponseCode.SUCCESS && replicated != ReplicaOutcome.REPLICATED) {
            code = replicated == ReplicaOutcome.TIMED_OUT ? ResponseCode.FLUSH_SLAVE_TIMEOUT
                    : ResponseCode.SLAVE_NOT_AVAILABLE;
        }
        if (code == ResponseCode.SUCCESS) {
            counters.messagesIn(header.topic(), type, appended.size(), bytes);
        }
        return sent(request, header, queueId, appended.get(0).join(), ids, code);
    }

    private static RemotingCommand rejected(RemotingCommand request, AppendResult result) {
        return switch (result.status()) {
            case MESSAGE_ILLEGAL, MESSAGE_TOO_LARGE, PROPERTIES_TOO_LARGE ->
                    error(request, ResponseCode.MESSAGE_ILLEGAL, "message rejected: " + result.detail());
            default -> error(request, ResponseCode.SERVICE_NOT_AVAILABLE, "the broker cannot store messages now: "
                    + result.status() + (result.detail() == null ? "" : ": " + result.detail()));
        };
    }

    /** Where a single message really goes: along the {@link SendRoute}, its properties read once. */
    private MessageToStore route(MessageToStore message, SendMessageRequestHeader header) {
        SendStep.Routed routed = route.route(SendingMessage.of(message, header.maxReconsumeTimes()));
        if (routed.refused()) {
            throw new Refused(routed.refusalCode(), routed.remark());
        }
        return routed.message().toStore();
    }

    /** A send answered with a code and remark other than MESSAGE_ILLEGAL's. */
    private static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int code;

        Refused(int code, String remark) {
            super(remark, null, false, false);
            this.code = code;
        }
    }

    private static RemotingCommand sent(RemotingCommand request, SendMessageRequestHeader header, int queueId,
                                        AppendResult first, List<String> ids, int code) {
        String uniqueKey = header.properties() == null ? null
                : MessageProperties.find(header.properties(), MessageProperties.UNIQ_KEY);
        return RemotingCommand.responseTo(request, code)
                .header(new SendMessageResponseHeader(String.join(",", ids), queueId, first.queueOffset(), uniqueKey,
                        null))
                .extField(MessageProperties.MESSAGE_REGION, TraceRecord.DEFAULT_REGION)
                .extField(MessageProperties.TRACE_SWITCH, "true").build();
    }

    private MessageToStore single(byte[] body, SendMessageRequestHeader header, int queueId, InetSocketAddress born,
                                  SendSettings now) {
        if (body == null || body.length == 0) {
            throw new IllegalArgumentException("the message body is empty");
        }
        return toStore(header, queueId, born, header.flag(), body, header.properties() == null ? ""
                : header.properties(), now.clusterName());
    }

    /** Each message of a batch keeps its own flag, body and properties; the rest comes from the header. */
    private List<MessageToStore> batch(byte[] body, SendMessageRequestHeader header, int queueId,
                                       InetSocketAddress born, SendSettings now) {
        List<MessageToStore> messages = new ArrayList<>();
        for (BatchBody.Item item : BatchBody.decode(body, MAX_BATCH_MESSAGES)) {
            if (TimerRouting.asksForTime(item.properties())) {
                // one queue and consecutive offsets for the whole batch: a message held apart has neither
                throw new IllegalArgumentException("a batch cannot hold timer messages (TIMER_DELIVER_MS, "
                        + "TIMER_DELAY_SEC, TIMER_DELAY_MS): send them one by one");
            }
            messages.add(toStore(header, queueId, born, item.flag(), item.body(), item.properties(),
                    now.clusterName()));
        }
        return messages;
    }

    /**
     * The message as stored, with the cluster, region and trace switch Apache's broker stamps on every message: an
     * Apache consumer writes no trace of a delivery without a region.
     */
    private MessageToStore toStore(SendMessageRequestHeader header, int queueId, InetSocketAddress born, int flag,
                                   byte[] body, String properties, String clusterName) {
        String stamped = MessageProperties.with(MessageProperties.with(withCluster(properties, clusterName),
                MessageProperties.MESSAGE_REGION, TraceRecord.DEFAULT_REGION), MessageProperties.TRACE_SWITCH, "true");
        return MessageToStore.builder(header.topic(), queueId, body).flag(flag).properties(stamped)
                .sysFlag(header.sysFlag()).bornTimestamp(header.bornTimestamp()).bornHost(born).storeHost(storeHost)
                .reconsumeTimes(header.reconsumeTimes() == null ? 0 : header.reconsumeTimes()).build();
    }

    /**
     * The properties with the broker's cluster added, as Apache's broker adds it to every message: a replier reads it
     * to name the reply topic of the request's cluster. Appended, so that it wins over a sender's own.
     */
    private static String withCluster(String properties, String clusterName) {
        return MessageProperties.normalize(properties) + MessageProperties.CLUSTER
                + MessageProperties.NAME_VALUE_SEPARATOR + clusterName + MessageProperties.PROPERTY_SEPARATOR;
    }

    /** The topic's config, created from the default topic on first send when allowed. */
    private TopicConfig topicFor(SendMessageRequestHeader header, SendSettings now) {
        Optional<TopicConfig> existing = topics.get(header.topic());
        if (existing.isPresent()) {
            return existing.get();
        }
        boolean retry = SystemTopics.isRetryTopic(header.topic());
        if (!now.autoCreateTopicEnable() && !retry) {
            return null;
        }
        Optional<TopicConfig> template = topics.get(header.defaultTopic() == null ? SystemTopics.AUTO_CREATE_TOPIC
                : header.defaultTopic());
        if (template.isEmpty() && !retry) {
            return null;
        }
        int queues = retry ? 1 : Math.min(header.defaultTopicQueueNums() > 0 ? header.defaultTopicQueueNums()
                : now.defaultTopicQueueNums(), template.get().writeQueueNums());
        Optional<TopicConfig> created = topics.putIfAbsent(TopicConfig.of(header.topic(), queues));
        if (created.isEmpty()) {
            throw new BadRequestException(ResponseCode.TOPIC_NOT_EXIST, topics.refusal(header.topic()));
        }
        topicsChanged.run();
        return created.get();
    }

    private static InetSocketAddress bornHost(RequestContext context) {
        SocketAddress address = context.channel().remoteAddress();
        return address instanceof InetSocketAddress inet ? inet : new InetSocketAddress("127.0.0.1", 0);
    }

    private static RemotingCommand error(RemotingCommand request, int code, String remark) {
        return RemotingCommand.responseTo(request, code).remark(remark).build();
    }
}
