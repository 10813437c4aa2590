package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderFieldSink;
import dev.ferry.remoting.protocol.SelfWritingHeader;
import dev.ferry.remoting.protocol.Required;

/** Response to the send requests. */
public record SendMessageResponseHeader(
        @Required String msgId,
        int queueId,
        long queueOffset,
        String transactionId,
        String batchUniqId) implements CommandHeader, SelfWritingHeader {

    @Override
    public void writeFields(HeaderFieldSink sink) {
        if (msgId != null) {
            sink.string(0, msgId);
        }
        sink.number(1, queueId);
        sink.number(2, queueOffset);
        if (transactionId != null) {
            sink.string(3, transactionId);
        }
        if (batchUniqId != null) {
            sink.string(4, batchUniqId);
        }
    }

}
