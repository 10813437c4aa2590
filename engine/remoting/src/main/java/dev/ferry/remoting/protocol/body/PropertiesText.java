package dev.ferry.remoting.protocol.body;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The {@code key=value} lines broker and name server configurations travel as (GET_BROKER_CONFIG,
 * UPDATE_BROKER_CONFIG, GET/UPDATE_NAMESRV_CONFIG): written one line per key, sorted, read as Java properties, as
 * Apache's peers do.
 */
public final class PropertiesText {
    private PropertiesText() {
    }

    public static byte[] encode(Map<String, String> values) {
        StringBuilder text = new StringBuilder();
        new TreeMap<>(values).forEach((key, value) -> {
            if (value != null) {
                text.append(key).append('=').append(value).append('\n');
            }
        });
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** @throws BodyFormatException when the text is not properties */
    public static Map<String, String> decode(byte[] body) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(body == null ? "" : new String(body, StandardCharsets.UTF_8)));
        } catch (IOException | IllegalArgumentException e) {
            throw new BodyFormatException("not key=value lines: " + e.getMessage(), e);
        }
        Map<String, String> values = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> values.put(name, properties.getProperty(name)));
        return values;
    }
}
