package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderFieldSink;
import dev.ferry.remoting.protocol.SelfWritingHeader;

/** Response to the pull requests. */
public record PullMessageResponseHeader(
        long suggestWhichBrokerId,
        long nextBeginOffset,
        long minOffset,
        long maxOffset,
        Long offsetDelta,
        Integer topicSysFlag,
        Integer groupSysFlag,
        Integer forbiddenType) implements CommandHeader, SelfWritingHeader {

    @Override
    public void writeFields(HeaderFieldSink sink) {
        sink.number(0, suggestWhichBrokerId);
        sink.number(1, nextBeginOffset);
        sink.number(2, minOffset);
        sink.number(3, maxOffset);
        if (offsetDelta != null) {
            sink.number(4, offsetDelta);
        }
        if (topicSysFlag != null) {
            sink.number(5, topicSysFlag);
        }
        if (groupSysFlag != null) {
            sink.number(6, groupSysFlag);
        }
        if (forbiddenType != null) {
            sink.number(7, forbiddenType);
        }
    }

}
