package dev.ferry.server.broker;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.GetEarliestMsgStoretimeRequestHeader;
import dev.ferry.remoting.protocol.header.GetEarliestMsgStoretimeResponseHeader;
import dev.ferry.remoting.protocol.header.GetMaxOffsetRequestHeader;
import dev.ferry.remoting.protocol.header.GetMinOffsetRequestHeader;
import dev.ferry.remoting.protocol.header.OffsetResponseHeader;
import dev.ferry.remoting.protocol.header.QueryConsumerOffsetRequestHeader;
import dev.ferry.remoting.protocol.header.QueryConsumerOffsetResponseHeader;
import dev.ferry.remoting.protocol.header.SearchOffsetRequestHeader;
import dev.ferry.remoting.protocol.header.UpdateConsumerOffsetRequestHeader;
import dev.ferry.store.GetMessageResult;
import dev.ferry.store.GetMessageStatus;
import dev.ferry.store.MessageFilterPredicate;
import dev.ferry.store.MessageStore;
import java.util.OptionalLong;

/**
 * Offsets: the consumer offsets groups commit and query, and the queues' own min and max
 * offsets, offset by timestamp and earliest store time. Names are checked first: a commit as
 * Apache's broker checks it (an unknown group 26, an unknown topic 17), a bad name anywhere else
 * INVALID_PARAMETER; a lookup never creates anything.
 */
final class OffsetRequestProcessor implements RequestProcessor {
    private final MessageStore store;
    private final ConsumerOffsetTable offsets;
    private final SubscriptionGroupTable groups;
    private final TopicConfigTable topics;
    private final FirstOffsets firstOffsets;

    OffsetRequestProcessor(MessageStore store, ConsumerOffsetTable offsets, SubscriptionGroupTable groups,
                           TopicConfigTable topics, FirstOffsets firstOffsets) {
        this.store = store;
        this.firstOffsets = firstOffsets;
        this.offsets = offsets;
        this.groups = groups;
        this.topics = topics;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.QUERY_CONSUMER_OFFSET -> queryConsumerOffset(request);
            case RequestCode.UPDATE_CONSUMER_OFFSET -> updateConsumerOffset(request);
            case RequestCode.GET_MAX_OFFSET -> {
                GetMaxOffsetRequestHeader h = request.header(GetMaxOffsetRequestHeader.class);
                yield offset(request, store.nextOffset(topic(h.topic()), queueId(h.queueId())));
            }
            case RequestCode.GET_MIN_OFFSET -> {
                GetMinOffsetRequestHeader h = request.header(GetMinOffsetRequestHeader.class);
                yield offset(request, store.minOffset(topic(h.topic()), queueId(h.queueId())));
            }
            case RequestCode.SEARCH_OFFSET_BY_TIMESTAMP -> {
                SearchOffsetRequestHeader h = request.header(SearchOffsetRequestHeader.class);
                yield offset(request, store.offsetForTimestamp(topic(h.topic()), queueId(h.queueId()),
                        h.timestamp()));
            }
            case RequestCode.GET_EARLIEST_MSG_STORETIME -> earliestStoreTime(request);
            default -> RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED).build();
        };
    }

    private static String topic(String topic) {
        return EntryChecks.topic("topic", topic);
    }

    private static int queueId(int queueId) {
        if (queueId < 0) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, "queueId " + queueId + " is negative");
        }
        return queueId;
    }

    private RemotingCommand queryConsumerOffset(RemotingCommand request) {
        QueryConsumerOffsetRequestHeader h = request.header(QueryConsumerOffsetRequestHeader.class);
        EntryChecks.group("consumerGroup", h.consumerGroup());
        topic(h.topic());
        queueId(h.queueId());
        OptionalLong offset = offsets.query(h.consumerGroup(), h.topic(), h.queueId());
        if (offset.isEmpty()) {
            offset = firstOffsets.startOf(h.topic(), h.queueId(), h.setZeroIfNotFound());
        }
        if (offset.isPresent()) {
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                    .header(new QueryConsumerOffsetResponseHeader(offset.getAsLong())).build();
        }
        // The client starts where its consume-from setting says.
        return RemotingCommand.responseTo(request, ResponseCode.QUERY_NOT_FOUND)
                .remark("no committed offset of group " + h.consumerGroup() + " on " + h.topic() + ":" + h.queueId())
                .build();
    }

    private RemotingCommand updateConsumerOffset(RemotingCommand request) {
        UpdateConsumerOffsetRequestHeader h = request.header(UpdateConsumerOffsetRequestHeader.class);
        offsets.commit(groups, topics, h.consumerGroup(), h.topic(), h.queueId(), h.commitOffset());
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }

    private RemotingCommand earliestStoreTime(RemotingCommand request) {
        GetEarliestMsgStoretimeRequestHeader h = request.header(GetEarliestMsgStoretimeRequestHeader.class);
        topic(h.topic());
        queueId(h.queueId());
        GetMessageResult result = store.getMessages(h.topic(), h.queueId(), store.minOffset(h.topic(), h.queueId()),
                1, 64 * 1024, MessageFilterPredicate.ALL);
        if (result.status() != GetMessageStatus.FOUND) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR)
                    .remark("queue " + h.topic() + ":" + h.queueId() + " holds no message").build();
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                .header(new GetEarliestMsgStoretimeResponseHeader(result.views().get(0).storeTimestamp())).build();
    }

    private static RemotingCommand offset(RemotingCommand request, long offset) {
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).header(new OffsetResponseHeader(offset)).build();
    }
}
