package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderField;
import dev.ferry.remoting.protocol.Required;

/** CONSUMER_SEND_MSG_BACK request: a consumed message goes back for a later retry. */
public record ConsumerSendMsgBackRequestHeader(
        long offset,
        @Required String group,
        int delayLevel,
        String originMsgId,
        String originTopic,
        Boolean unitMode,
        Integer maxReconsumeTimes,
        @HeaderField("bname") String brokerName) implements CommandHeader {
}
