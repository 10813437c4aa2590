package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** UPDATE_AND_CREATE_TOPIC request: a topic's settings; {@code attributes} as {@code +key=value,-key}. */
public record CreateTopicRequestHeader(
        @Required String topic,
        @Required String defaultTopic,
        int readQueueNums,
        int writeQueueNums,
        int perm,
        @Required String topicFilterType,
        Integer topicSysFlag,
        boolean order,
        String attributes,
        Boolean force) implements CommandHeader {
}
