package dev.ferry.components;

import java.util.Map;
import java.util.Properties;

/**
 * A component's configuration as Configuration Admin and the Service Component Runtime hand it over: the keys the
 * user set, plus the framework's own ({@code service.pid}, {@code component.name}, {@code listener.target}, ...).
 * Ferry's keys never contain a dot, so every key with a dot is the framework's and is left out.
 */
final class ComponentProperties {

    private ComponentProperties() {
    }

    /** The user's keys, with each value as text. */
    static Properties userKeys(Map<String, ?> configuration) {
        Properties keys = new Properties();
        configuration.forEach((key, value) -> {
            if (!key.contains(".") && value != null) {
                keys.setProperty(key, String.valueOf(value));
            }
        });
        return keys;
    }
}
