package dev.ferry.api;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.SystemTopics;
import java.util.Objects;

/**
 * Replies to requests, by Apache RocketMQ's rules ({@code MessageUtil.createReplyMessage}): a reply goes to the reply
 * topic of the request's cluster ({@code <CLUSTER>_REPLY_TOPIC}) and carries the request's
 * {@value MessageProperties#CORRELATION_ID}, {@value MessageProperties#REPLY_TO_CLIENT} and
 * {@value MessageProperties#TTL}, with {@value MessageProperties#MESSAGE_TYPE} {@code reply}. The broker pushes it to
 * the requester's connection; it is never stored. Send it like any message.
 */
public final class Replies {
    private Replies() {
    }

    /**
     * A builder of the reply to {@code request}, its topic and reply properties set: add the body (and tags, keys or
     * properties) and build it.
     *
     * @throws InvalidMessageException when {@code request} is no request: it lacks the broker's
     *                                 {@value MessageProperties#CLUSTER}, or the requester's
     *                                 {@value MessageProperties#REPLY_TO_CLIENT} or
     *                                 {@value MessageProperties#CORRELATION_ID}
     */
    public static Message.Builder to(ReceivedMessage request) {
        Objects.requireNonNull(request, "request");
        String cluster = required(request, MessageProperties.CLUSTER);
        Message.Builder reply = Message.builder(SystemTopics.replyTopic(cluster))
                .property(MessageProperties.MESSAGE_TYPE, MessageProperties.REPLY_MESSAGE_TYPE)
                .property(MessageProperties.CORRELATION_ID, required(request, MessageProperties.CORRELATION_ID))
                .property(MessageProperties.REPLY_TO_CLIENT, required(request, MessageProperties.REPLY_TO_CLIENT));
        request.property(MessageProperties.TTL).ifPresent(ttl -> reply.property(MessageProperties.TTL, ttl));
        return reply;
    }

    /** Whether {@code message} is a reply: it is sent as one, to be pushed to its requester. */
    public static boolean isReply(Message message) {
        return message.property(MessageProperties.MESSAGE_TYPE).filter(MessageProperties.REPLY_MESSAGE_TYPE::equals)
                .isPresent();
    }

    private static String required(ReceivedMessage request, String property) {
        return request.property(property).orElseThrow(() -> new InvalidMessageException("cannot reply to message "
                + request.msgId() + " of '" + request.topic() + "': it has no property " + property
                + ", so it is no request"));
    }
}
