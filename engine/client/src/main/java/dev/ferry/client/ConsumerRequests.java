package dev.ferry.client;

import dev.ferry.api.FerryException;
import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.RetriableException;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.ConsumerListBody;
import dev.ferry.remoting.protocol.body.LockBatchRequestBody;
import dev.ferry.remoting.protocol.body.LockBatchResponseBody;
import dev.ferry.remoting.protocol.body.MessageQueueBody;
import dev.ferry.remoting.protocol.header.ConsumerSendMsgBackRequestHeader;
import dev.ferry.remoting.protocol.header.GetConsumerListByGroupRequestHeader;
import dev.ferry.remoting.protocol.header.GetMaxOffsetRequestHeader;
import dev.ferry.remoting.protocol.header.OffsetResponseHeader;
import dev.ferry.remoting.protocol.header.QueryConsumerOffsetRequestHeader;
import dev.ferry.remoting.protocol.header.QueryConsumerOffsetResponseHeader;
import dev.ferry.remoting.protocol.header.SearchOffsetRequestHeader;
import dev.ferry.remoting.protocol.header.UpdateConsumerOffsetRequestHeader;
import dev.ferry.spi.BrokerOffsetAccess;
import dev.ferry.spi.BrokerOffsetException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The synchronous requests one consumer group sends to brokers: offsets (also as the offset store's
 * {@link BrokerOffsetAccess}), queue bounds, the group's member list and sending failed messages back.
 * Thread-safe; every call blocks for at most the client's request timeout.
 */
final class ConsumerRequests implements BrokerOffsetAccess, QueueQueries, SendBack {
    private final String group;
    private final String clientId;
    private final BrokerCalls calls;
    private final Routes routes;
    private final BodyCodec codec;
    private final Duration timeout;

    ConsumerRequests(String group, String clientId, BrokerCalls calls, Routes routes, BodyCodec codec,
                     Duration timeout) {
        this.group = group;
        this.clientId = clientId;
        this.calls = calls;
        this.routes = routes;
        this.codec = codec;
        this.timeout = timeout;
    }

    /** The requests of {@code group} over the client's connections. */
    static ConsumerRequests of(FerryClient client, String group) {
        return new ConsumerRequests(group, client.clientId(), client.calls(), client.routes(), client.codec(),
                client.config().requestTimeout());
    }

    @Override
    public OptionalLong query(MessageQueue queue) throws BrokerOffsetException {
        try {
            // setZeroIfNotFound=false: a group without an offset gets "not found", so that "consume from
            // last offset" really starts at the end instead of at 0 while message 0 is still cached.
            RemotingCommand response = call(queue.brokerName(), RemotingCommand.request(
                    RequestCode.QUERY_CONSUMER_OFFSET, new QueryConsumerOffsetRequestHeader(group, queue.topic(),
                            queue.queueId(), false, queue.brokerName())).build());
            if (response.code() == ResponseCode.QUERY_NOT_FOUND) {
                return OptionalLong.empty();
            }
            requireSuccess(response, "offset of group " + group + " on " + queue);
            long offset = response.header(QueryConsumerOffsetResponseHeader.class).offset();
            return offset < 0 ? OptionalLong.empty() : OptionalLong.of(offset);
        } catch (FerryException e) {
            throw new BrokerOffsetException("could not query the offset of group " + group + " on " + queue
                    + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void commit(MessageQueue queue, long nextOffset) throws BrokerOffsetException {
        try {
            String address = address(queue.brokerName());
            calls.callOneway(address, RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET,
                    new UpdateConsumerOffsetRequestHeader(group, queue.topic(), queue.queueId(), nextOffset,
                            queue.brokerName())).oneway(true).build(), timeout);
        } catch (RuntimeException e) {
            throw new BrokerOffsetException("could not commit offset " + nextOffset + " of group " + group
                    + " on " + queue + ": " + e.getMessage(), e);
        }
    }

    /** The offset after the queue's last message. */
    @Override
    public long nextOffset(MessageQueue queue) {
        RemotingCommand response = call(queue.brokerName(), RemotingCommand.request(RequestCode.GET_MAX_OFFSET,
                new GetMaxOffsetRequestHeader(queue.topic(), queue.queueId(), true, queue.brokerName())).build());
        requireSuccess(response, "next offset of " + queue);
        return response.header(OffsetResponseHeader.class).offset();
    }

    /** The offset of the first message stored at or after {@code timestampMillis}. */
    @Override
    public long searchOffset(MessageQueue queue, long timestampMillis) {
        RemotingCommand response = call(queue.brokerName(), RemotingCommand.request(
                RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, new SearchOffsetRequestHeader(queue.topic(),
                        queue.queueId(), timestampMillis, null, queue.brokerName())).build());
        requireSuccess(response, "offset of " + queue + " at " + timestampMillis);
        return response.header(OffsetResponseHeader.class).offset();
    }

    /** The client ids of the group's live consumers, as broker {@code brokerName} knows them. */
    @Override
    public List<String> consumerIds(String brokerName) {
        RemotingCommand response = call(brokerName, RemotingCommand.request(RequestCode.GET_CONSUMER_LIST_BY_GROUP,
                new GetConsumerListByGroupRequestHeader(group, null)).build());
        if (response.code() == ResponseCode.SYSTEM_ERROR) {
            // Brokers answer this request so only when the group has no member online (Apache: "no consumer for this
            // group"): an empty list, so that the caller greets the broker instead of failing every round.
            return List.of();
        }
        requireSuccess(response, "consumers of group " + group);
        return codec.decode(response.body(), ConsumerListBody.class).consumerIdList();
    }

    /**
     * Asks the broker that stored {@code message} to deliver it again later through the retry topic
     * ({@code delayLevel} 0: the broker picks the delay), or, with {@code delayLevel} -1, to move it to the
     * group's dead-letter queue.
     */
    @Override
    public void sendBack(ReceivedMessage message, int maxReconsumeTimes, int delayLevel) {
        RemotingCommand response = callAt(masterAddress(message.brokerName()), RemotingCommand.request(
                RequestCode.CONSUMER_SEND_MSG_BACK, new ConsumerSendMsgBackRequestHeader(message.commitLogOffset(),
                        group, delayLevel, message.msgId(), message.topic(), false, maxReconsumeTimes,
                        message.brokerName())).build());
        requireSuccess(response, "send-back of message " + message.msgId());
    }

    /** Locks {@code queues} (all on broker {@code brokerName}) to this client; returns those now locked to it. */
    Set<MessageQueue> lock(String brokerName, Collection<MessageQueue> queues) {
        RemotingCommand response = callAt(masterAddress(brokerName), RemotingCommand.request(RequestCode.LOCK_BATCH_MQ)
                .body(codec.encode(lockBody(queues))).build());
        requireSuccess(response, "lock of " + queues.size() + " queues on " + brokerName);
        return codec.decode(response.body(), LockBatchResponseBody.class).lockOKMQSet().stream()
                .map(q -> new MessageQueue(q.topic(), q.brokerName(), q.queueId())).collect(Collectors.toSet());
    }

    /** Gives up this client's locks on {@code queues} (all on broker {@code brokerName}). */
    void unlock(String brokerName, Collection<MessageQueue> queues) {
        RemotingCommand response = callAt(masterAddress(brokerName),
                RemotingCommand.request(RequestCode.UNLOCK_BATCH_MQ)
                .body(codec.encode(lockBody(queues))).build());
        requireSuccess(response, "unlock of " + queues.size() + " queues on " + brokerName);
    }

    private LockBatchRequestBody lockBody(Collection<MessageQueue> queues) {
        return new LockBatchRequestBody(group, clientId, queues.stream()
                .map(q -> new MessageQueueBody(q.topic(), q.brokerName(), q.queueId())).collect(Collectors.toSet()),
                false);
    }

    /** Calls the broker read from ({@link #address}). */
    private RemotingCommand call(String brokerName, RemotingCommand request) {
        return callAt(address(brokerName), request);
    }

    private RemotingCommand callAt(String address, RemotingCommand request) {
        try {
            return calls.call(address, request, timeout);
        } catch (RuntimeException e) {
            throw WireErrors.fromFailure(e, RequestCode.nameOf(request.code()) + " to " + address);
        }
    }

    /** Where offsets and queue figures are read and committed: the master, or a slave while it is away. */
    private String address(String brokerName) {
        return routes.readAddress(brokerName).orElseThrow(() -> new RetriableException(
                "no known address for broker " + brokerName));
    }

    /** Where what only a master does goes: locks and send-backs. */
    private String masterAddress(String brokerName) {
        return routes.brokerAddress(brokerName).orElseThrow(() -> new RetriableException(
                "no master known for broker " + brokerName));
    }

    private static void requireSuccess(RemotingCommand response, String what) {
        if (response.code() != ResponseCode.SUCCESS) {
            throw WireErrors.fromResponse(response, what);
        }
    }
}
