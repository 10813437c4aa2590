package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;

/** Response to the pull requests. */
public record PullMessageResponseHeader(
        long suggestWhichBrokerId,
        long nextBeginOffset,
        long minOffset,
        long maxOffset,
        Long offsetDelta,
        Integer topicSysFlag,
        Integer groupSysFlag,
        Integer forbiddenType) implements CommandHeader {
}
