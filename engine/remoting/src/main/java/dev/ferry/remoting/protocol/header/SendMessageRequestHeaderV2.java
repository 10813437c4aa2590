package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderFieldSink;
import dev.ferry.remoting.protocol.SelfWritingHeader;
import dev.ferry.remoting.protocol.HeaderField;
import dev.ferry.remoting.protocol.Required;

/** SEND_MESSAGE_V2 and SEND_BATCH_MESSAGE request: {@link SendMessageRequestHeader} with one-letter field names. */
public record SendMessageRequestHeaderV2(
        @Required @HeaderField("a") String producerGroup,
        @Required @HeaderField(SendMessageRequestHeaderV2.TOPIC) String topic,
        @Required @HeaderField("c") String defaultTopic,
        @HeaderField("d") int defaultTopicQueueNums,
        @HeaderField("e") int queueId,
        @HeaderField(SendMessageRequestHeaderV2.SYS_FLAG) int sysFlag,
        @HeaderField("g") long bornTimestamp,
        @HeaderField("h") int flag,
        @HeaderField("i") String properties,
        @HeaderField("j") Integer reconsumeTimes,
        @HeaderField("k") Boolean unitMode,
        @HeaderField("l") Integer maxReconsumeTimes,
        @HeaderField(SendMessageRequestHeaderV2.BATCH) Boolean batch,
        @HeaderField("n") String brokerName) implements CommandHeader, SelfWritingHeader {
    /** The wire names of the fields the broker reads from a frame before it decodes the header. */
    public static final String TOPIC = "b";
    public static final String SYS_FLAG = "f";
    public static final String BATCH = "m";

    @Override
    public void writeFields(HeaderFieldSink sink) {
        if (producerGroup != null) {
            sink.string(0, producerGroup);
        }
        if (topic != null) {
            sink.string(1, topic);
        }
        if (defaultTopic != null) {
            sink.string(2, defaultTopic);
        }
        sink.number(3, defaultTopicQueueNums);
        sink.number(4, queueId);
        sink.number(5, sysFlag);
        sink.number(6, bornTimestamp);
        sink.number(7, flag);
        if (properties != null) {
            sink.string(8, properties);
        }
        if (reconsumeTimes != null) {
            sink.number(9, reconsumeTimes);
        }
        if (unitMode != null) {
            sink.bool(10, unitMode);
        }
        if (maxReconsumeTimes != null) {
            sink.number(11, maxReconsumeTimes);
        }
        if (batch != null) {
            sink.bool(12, batch);
        }
        if (brokerName != null) {
            sink.string(13, brokerName);
        }
    }

    /** The compact form of a full-named header. */
    public static SendMessageRequestHeaderV2 of(SendMessageRequestHeader h) {
        return new SendMessageRequestHeaderV2(h.producerGroup(), h.topic(), h.defaultTopic(),
                h.defaultTopicQueueNums(), h.queueId(), h.sysFlag(), h.bornTimestamp(), h.flag(), h.properties(),
                h.reconsumeTimes(), h.unitMode(), h.maxReconsumeTimes(), h.batch(), h.brokerName());
    }

    /** The same header with full field names, the form processors work with. */
    public SendMessageRequestHeader toFullNames() {
        return new SendMessageRequestHeader(producerGroup, topic, defaultTopic, defaultTopicQueueNums, queueId,
                sysFlag, bornTimestamp, flag, properties, reconsumeTimes, unitMode, batch, maxReconsumeTimes,
                brokerName);
    }
}
