package dev.ferry.remoting.protocol.body;

import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.KeyDeserializer;
import java.io.IOException;

/** Reads a message-queue map key that {@link ObjectKeys#quoted} turned into a string holding its object. */
final class MessageQueueKeyDeserializer extends KeyDeserializer {
    @Override
    public Object deserializeKey(String key, DeserializationContext context) throws IOException {
        MessageQueueBody queue = context.getParser().getCodec().getFactory().createParser(key)
                .readValueAs(MessageQueueBody.class);
        if (queue == null || queue.topic() == null) {
            throw context.weirdKeyException(MessageQueueBody.class, key, "not a message queue");
        }
        return queue;
    }
}
