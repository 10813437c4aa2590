package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderFieldSink;
import dev.ferry.remoting.protocol.SelfWritingHeader;
import dev.ferry.remoting.protocol.HeaderField;
import dev.ferry.remoting.protocol.Required;

/** PULL_MESSAGE and LITE_PULL_MESSAGE request. */
public record PullMessageRequestHeader(
        @Required String consumerGroup,
        @Required String topic,
        int queueId,
        long queueOffset,
        int maxMsgNums,
        int sysFlag,
        long commitOffset,
        long suspendTimeoutMillis,
        String subscription,
        long subVersion,
        String expressionType,
        Integer maxMsgBytes,
        @HeaderField("bname") String brokerName) implements CommandHeader, SelfWritingHeader {

    @Override
    public void writeFields(HeaderFieldSink sink) {
        if (consumerGroup != null) {
            sink.string(0, consumerGroup);
        }
        if (topic != null) {
            sink.string(1, topic);
        }
        sink.number(2, queueId);
        sink.number(3, queueOffset);
        sink.number(4, maxMsgNums);
        sink.number(5, sysFlag);
        sink.number(6, commitOffset);
        sink.number(7, suspendTimeoutMillis);
        if (subscription != null) {
            sink.string(8, subscription);
        }
        sink.number(9, subVersion);
        if (expressionType != null) {
            sink.string(10, expressionType);
        }
        if (maxMsgBytes != null) {
            sink.number(11, maxMsgBytes);
        }
        if (brokerName != null) {
            sink.string(12, brokerName);
        }
    }

}
