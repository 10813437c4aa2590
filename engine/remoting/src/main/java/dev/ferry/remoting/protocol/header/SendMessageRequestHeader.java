package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderField;
import dev.ferry.remoting.protocol.Required;

/** SEND_MESSAGE request with full field names; {@link SendMessageRequestHeaderV2} is the compact form Apache clients send. */
public record SendMessageRequestHeader(
        @Required String producerGroup,
        @Required String topic,
        @Required String defaultTopic,
        int defaultTopicQueueNums,
        int queueId,
        int sysFlag,
        long bornTimestamp,
        int flag,
        String properties,
        Integer reconsumeTimes,
        Boolean unitMode,
        Boolean batch,
        Integer maxReconsumeTimes,
        @HeaderField("bname") String brokerName) implements CommandHeader {
}
