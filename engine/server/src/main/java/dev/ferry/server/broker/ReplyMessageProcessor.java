package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.NameRules;
import dev.ferry.format.SystemTopics;
import dev.ferry.format.TraceRecord;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.Permission;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.header.ReplyMessageRequestHeader;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeader;
import dev.ferry.remoting.protocol.header.SendMessageResponseHeader;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * SEND_REPLY_MESSAGE and SEND_REPLY_MESSAGE_V2: a replier's answer to a request, sent like a message to a topic of
 * this broker (Apache's {@code <cluster>_REPLY_TOPIC}), pushed to the connection of the client its
 * {@value MessageProperties#REPLY_TO_CLIENT} property names, with a {@value MessageProperties#PUSH_REPLY_TIME}
 * property added. The replier is answered once the requester's client has taken it: SUCCESS (message id "0", offset
 * 0, as Apache answers), or SYSTEM_ERROR with Apache's remark when the requester has no connection here or did not
 * take it (Apache's producers then try another broker), SYSTEM_BUSY when pushes in flight are at their bound.
 *
 * <p>Unlike Apache's broker (whose {@code storeReplyMessageEnable} is true by default), Ferry does not store replies:
 * a reply nobody waits for is dropped and counted ({@link ReplyPushes}), never kept.
 *
 * <p>Checked where it enters, before anything is pushed: the topic and group names, the topic (it must exist here and
 * be writable), the queue id, the body (present, at most {@code maxMessageSize} bytes), and the reply's two
 * properties: a reply without {@value MessageProperties#REPLY_TO_CLIENT} (or one that is no client id) or without
 * {@value MessageProperties#CORRELATION_ID} is refused MESSAGE_ILLEGAL, which Apache's producers do not retry.
 *
 * <p>Runs on the client executor and never waits there: the answer goes out when the push completes.
 */
final class ReplyMessageProcessor implements RequestProcessor {
    private final TopicConfigTable topics;
    private final ProducerGroups producers;
    private final ReplyPushes pushes;
    private final BrokerSettings settings;
    private final Supplier<InetSocketAddress> storeHost;
    private final Clock clock;

    ReplyMessageProcessor(TopicConfigTable topics, ProducerGroups producers, ReplyPushes pushes,
                          BrokerSettings settings, Supplier<InetSocketAddress> storeHost, Clock clock) {
        this.topics = topics;
        this.producers = producers;
        this.pushes = pushes;
        this.settings = settings;
        this.storeHost = storeHost;
        this.clock = clock;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        SendMessageRequestHeader header = SendMessageProcessor.checkedHeader(request, RequestCode.SEND_REPLY_MESSAGE);
        Optional<TopicConfig> topic = topics.get(header.topic());
        if (topic.isEmpty()) {
            return error(request, ResponseCode.TOPIC_NOT_EXIST, "topic[" + header.topic()
                    + "] not exist, apply first please!");
        }
        if (!Permission.writable(topic.get().perm()) || topic.get().writeQueueNums() <= 0) {
            return error(request, ResponseCode.NO_PERMISSION, "the topic[" + header.topic()
                    + "] sending message is forbidden");
        }
        int queueId = header.queueId() < 0 ? ThreadLocalRandom.current().nextInt(topic.get().writeQueueNums())
                : EntryChecks.queueId("queueId", header.queueId(), topic.get().writeQueueNums(), header.topic());
        byte[] body = request.body();
        if (body == null || body.length == 0) {
            return error(request, ResponseCode.MESSAGE_ILLEGAL, "the message body is empty");
        }
        int maxMessageSize = settings.values().maxMessageSize();
        if (body.length > maxMessageSize) {
            return error(request, ResponseCode.MESSAGE_ILLEGAL, "the message body size " + body.length
                    + " is over the limit of " + maxMessageSize + " bytes");
        }
        Map<String, String> properties = MessageProperties.parse(header.properties());
        String requester = properties.get(MessageProperties.REPLY_TO_CLIENT);
        String problem = problem(properties, requester);
        if (problem != null) {
            return error(request, ResponseCode.MESSAGE_ILLEGAL, problem);
        }
        properties.put(MessageProperties.PUSH_REPLY_TIME, Long.toString(clock.millis()));
        String pushed = MessageProperties.format(properties);
        RemotingCommand push = RemotingCommand.request(RequestCode.PUSH_REPLY_MESSAGE_TO_CLIENT,
                new ReplyMessageRequestHeader(header.producerGroup(), header.topic(),
                        header.defaultTopic() == null ? SystemTopics.AUTO_CREATE_TOPIC : header.defaultTopic(),
                        header.defaultTopicQueueNums(), queueId, header.sysFlag(), header.bornTimestamp(),
                        header.flag(), pushed, header.reconsumeTimes(), Boolean.TRUE.equals(header.unitMode()),
                        hostPort(context.channel().remoteAddress()), hostPort(storeHost.get()), clock.millis()))
                .body(body).build();
        CompletableFuture<ReplyPushes.Outcome> outcome = pushes.push(requester,
                producers.channelOf(requester), push, pushed.length());
        return DeferredAnswer.when(outcome, context, request, () -> answer(request, queueId, outcome.join()));
    }

    /** Why the reply's properties do not make a reply, or {@code null}; the first two remarks are Apache's. */
    private static String problem(Map<String, String> properties, String requester) {
        if (requester == null) {
            return "reply message properties[" + MessageProperties.REPLY_TO_CLIENT + "] is null";
        }
        if (properties.get(MessageProperties.CORRELATION_ID) == null) {
            return "reply message properties[" + MessageProperties.CORRELATION_ID + "] is null";
        }
        if (requester.length() > EntryChecks.MAX_CLIENT_ID_LENGTH
                || requester.chars().anyMatch(Character::isISOControl)) {
            return "reply message properties[" + MessageProperties.REPLY_TO_CLIENT + "] "
                    + NameRules.shown(requester) + " is not a client id: 1 to " + EntryChecks.MAX_CLIENT_ID_LENGTH
                    + " printable characters";
        }
        return null;
    }

    private static RemotingCommand answer(RemotingCommand request, int queueId, ReplyPushes.Outcome outcome) {
        if (!outcome.pushed()) {
            return error(request, outcome.code(), outcome.remark());
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                .header(new SendMessageResponseHeader("0", queueId, 0L, null, null))
                .extField(MessageProperties.MESSAGE_REGION, TraceRecord.DEFAULT_REGION)
                .extField(MessageProperties.TRACE_SWITCH, "true").build();
    }

    /** {@code host:port}, which Apache's client parses back into an address. */
    private static String hostPort(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            return inet.getAddress() == null ? inet.getHostString() + ":" + inet.getPort()
                    : inet.getAddress().getHostAddress() + ":" + inet.getPort();
        }
        return "127.0.0.1:0";
    }

    private static RemotingCommand error(RemotingCommand request, int code, String remark) {
        return RemotingCommand.responseTo(request, code).remark(remark).build();
    }
}
