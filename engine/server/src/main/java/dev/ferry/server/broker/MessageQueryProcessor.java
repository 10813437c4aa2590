package dev.ferry.server.broker;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.QueryMessageRequestHeader;
import dev.ferry.remoting.protocol.header.QueryMessageResponseHeader;
import dev.ferry.remoting.protocol.header.ViewMessageRequestHeader;
import dev.ferry.store.MessageStore;
import dev.ferry.store.QueryMessageResult;
import dev.ferry.store.StoredMessageView;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

/** VIEW_MESSAGE_BY_ID (by commit-log offset) and QUERY_MESSAGE (by key within a time range). */
final class MessageQueryProcessor implements RequestProcessor {
    private final MessageStore store;

    MessageQueryProcessor(MessageStore store) {
        this.store = store;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.VIEW_MESSAGE_BY_ID -> view(request);
            case RequestCode.QUERY_MESSAGE -> query(request);
            default -> RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED).build();
        };
    }

    private RemotingCommand view(RemotingCommand request) {
        long offset = request.header(ViewMessageRequestHeader.class).offset();
        Optional<StoredMessageView> message = store.messageAt(offset);
        if (message.isEmpty()) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR)
                    .remark("can not find message by the offset " + offset).build();
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(copy(List.of(message.get().bytes())))
                .build();
    }

    private RemotingCommand query(RemotingCommand request) {
        QueryMessageRequestHeader h = request.header(QueryMessageRequestHeader.class);
        QueryMessageResult result = store.queryMessagesByKey(h.topic(), h.key(), Math.max(1, h.maxNum()),
                h.beginTimestamp(), h.endTimestamp());
        if (result.messages().isEmpty()) {
            return RemotingCommand.responseTo(request, ResponseCode.QUERY_NOT_FOUND)
                    .remark("no message of " + h.topic() + " has the key " + h.key() + " in that time range").build();
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                .header(new QueryMessageResponseHeader(result.indexLastUpdateTimestamp(),
                        result.indexLastUpdatePhysicalOffset()))
                .body(copy(result.messages())).build();
    }

    /** The stored records, back to back, as the wire carries them. */
    static byte[] copy(List<ByteBuffer> messages) {
        int total = 0;
        for (ByteBuffer message : messages) {
            total += message.remaining();
        }
        byte[] body = new byte[total];
        int position = 0;
        for (ByteBuffer message : messages) {
            ByteBuffer view = message.duplicate();
            int length = view.remaining();
            view.get(body, position, length);
            position += length;
        }
        return body;
    }
}
