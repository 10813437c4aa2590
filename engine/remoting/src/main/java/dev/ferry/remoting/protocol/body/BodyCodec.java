package dev.ferry.remoting.protocol.body;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * JSON bodies of the remoting protocol (routes, topic configs, heartbeats, ...).
 *
 * <p>Writes standard JSON. Reads what Apache's fastjson-based peers write too: unquoted
 * (numeric) map keys, single quotes, unknown properties (newer peers add fields), and message queues as map keys
 * ({@link ObjectKeyedBody}).
 */
public final class BodyCodec {
    private final ObjectMapper mapper = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
            .addModule(new SimpleModule("message-queue-keys")
                    .addKeyDeserializer(MessageQueueBody.class, new MessageQueueKeyDeserializer()))
            .build();

    public byte[] encode(Object body) {
        try {
            return mapper.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + body.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /**
     * Reads a body.
     *
     * @throws BodyFormatException when the bytes are not the expected JSON
     */
    public <T> T decode(byte[] body, Class<T> type) {
        if (body == null || body.length == 0) {
            throw new BodyFormatException("expected a " + type.getSimpleName() + " body but the command has none");
        }
        try {
            if (ObjectKeyedBody.class.isAssignableFrom(type)) {
                String text = new String(body, StandardCharsets.UTF_8);
                return mapper.readValue(ObjectKeys.mayHaveObjectKeys(text) ? ObjectKeys.quoted(text) : text, type);
            }
            return mapper.readValue(body, type);
        } catch (IOException e) {
            throw new BodyFormatException("malformed " + type.getSimpleName() + " body: " + originalMessage(e), e);
        }
    }

    private static String originalMessage(IOException e) {
        return e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
    }
}
