package dev.ferry.remoting.protocol.body;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.Map;

/**
 * Writes a map keyed by message queues as Apache's peers do, each key a JSON object:
 * <code>{{"brokerName":"b","queueId":0,"topic":"t"}:{...}}</code>. Readers built on fastjson 2 refuse the key as a
 * string, so the standard form is not an option here.
 */
final class QueueKeyedMapSerializer extends StdSerializer<Map<MessageQueueBody, ?>> {

    @SuppressWarnings({"unchecked", "rawtypes"})
    QueueKeyedMapSerializer() {
        super((Class) Map.class);
    }

    @Override
    public void serialize(Map<MessageQueueBody, ?> map, JsonGenerator generator, SerializerProvider provider)
            throws IOException {
        ObjectMapper mapper = (ObjectMapper) generator.getCodec();
        StringBuilder text = new StringBuilder(map.size() * 96 + 2).append('{');
        boolean first = true;
        for (Map.Entry<MessageQueueBody, ?> entry : map.entrySet()) {
            if (!first) {
                text.append(',');
            }
            first = false;
            text.append(mapper.writeValueAsString(entry.getKey())).append(':')
                    .append(mapper.writeValueAsString(entry.getValue()));
        }
        generator.writeRawValue(text.append('}').toString());
    }
}
