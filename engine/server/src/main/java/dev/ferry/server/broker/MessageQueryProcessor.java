package dev.ferry.server.broker;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.StoredMessageView;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.QueryMessageRequestHeader;
import dev.ferry.remoting.protocol.header.QueryMessageResponseHeader;
import dev.ferry.remoting.protocol.header.ViewMessageRequestHeader;
import dev.ferry.store.MessageStore;
import dev.ferry.store.QueryMessageResult;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

/**
 * VIEW_MESSAGE_BY_ID (by commit-log offset) and QUERY_MESSAGE (by key within a time range, or by
 * unique message id when the request carries {@value QueryMessageRequestHeader#UNIQUE_KEY_QUERY}). A message viewed by
 * its offset may be of any topic, so it is answered only if {@link MessageAccess} allows it; a query returns only
 * messages of the topic it names, which the guard has checked.
 */
final class MessageQueryProcessor implements RequestProcessor {
    private static final int UNIQUE_KEY_CANDIDATES = 64;
    /** Keys are message ids and user keys; nothing longer is a key anyone stored (properties hold 32 KiB). */
    static final int MAX_KEY_LENGTH = 32 * 1024;

    private final MessageStore store;
    private final int maxResults;
    private final MessageAccess access;

    /** @param maxResults most messages one query returns (Apache's maxMsgsNumBatch, 64) */
    MessageQueryProcessor(MessageStore store, int maxResults, MessageAccess access) {
        this.store = store;
        this.maxResults = maxResults;
        this.access = access;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.VIEW_MESSAGE_BY_ID -> view(context, request);
            case RequestCode.QUERY_MESSAGE -> query(request);
            default -> RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED).build();
        };
    }

    private RemotingCommand view(RequestContext context, RemotingCommand request) {
        long offset = request.header(ViewMessageRequestHeader.class).offset();
        Optional<StoredMessageView> message = store.messageAt(offset);
        if (message.isEmpty()) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR)
                    .remark("can not find message by the offset " + offset).build();
        }
        RemotingCommand refusal = access.refusal(context.channel(), request, message.get());
        if (refusal != null) {
            return refusal;
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).bodyParts(List.of(message.get().bytes()))
                .build();
    }

    private RemotingCommand query(RemotingCommand request) {
        QueryMessageRequestHeader h = request.header(QueryMessageRequestHeader.class);
        EntryChecks.topic("topic", h.topic());
        if (h.key().isEmpty() || h.key().length() > MAX_KEY_LENGTH) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, "key must have 1 to " + MAX_KEY_LENGTH
                    + " characters, not " + h.key().length());
        }
        boolean uniqueKey = "true".equals(request.extField(QueryMessageRequestHeader.UNIQUE_KEY_QUERY));
        // A unique-key lookup asks for few; the index may hold other messages whose KEYS or hash
        // collide, so look wider and keep only the one with that id. Never more than the cap.
        int maxResults = Math.min(this.maxResults, uniqueKey ? Math.max(UNIQUE_KEY_CANDIDATES, h.maxNum())
                : Math.max(1, h.maxNum()));
        QueryMessageResult found = store.queryMessagesByKey(h.topic(), h.key(), maxResults, h.beginTimestamp(),
                h.endTimestamp());
        QueryMessageResult result = uniqueKey ? withUniqueKey(found, h.key()) : found;
        if (result.messages().isEmpty()) {
            return RemotingCommand.responseTo(request, ResponseCode.QUERY_NOT_FOUND)
                    .remark("no message of " + h.topic() + " has the key " + h.key() + " in that time range").build();
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                .header(new QueryMessageResponseHeader(result.indexLastUpdateTimestamp(),
                        result.indexLastUpdatePhysicalOffset()))
                .bodyParts(result.messages()).build();
    }

    private static QueryMessageResult withUniqueKey(QueryMessageResult result, String key) {
        List<ByteBuffer> matching = result.messages().stream()
                .filter(m -> key.equals(StoredMessageView.over(m.duplicate()).property(MessageProperties.UNIQ_KEY)))
                .toList();
        return new QueryMessageResult(matching, result.indexLastUpdateTimestamp(),
                result.indexLastUpdatePhysicalOffset());
    }
}
