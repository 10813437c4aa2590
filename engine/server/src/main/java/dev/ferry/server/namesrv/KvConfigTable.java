package dev.ferry.server.namesrv;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The name server's key-value configuration (PUT/GET/DELETE_KV_CONFIG, GET_KVLIST_BY_NAMESPACE), by namespace: what
 * admin tools keep there, such as Apache's {@code ORDER_TOPIC_CONFIG}. Held in memory and bounded; like the routes,
 * it is rebuilt by whoever writes it after a restart.
 *
 * <p>Thread-safe.
 */
final class KvConfigTable {
    static final int MAX_NAMESPACES = 256;
    static final int MAX_KEYS_PER_NAMESPACE = 10_000;
    static final int MAX_NAME_LENGTH = 1024;
    static final int MAX_VALUE_LENGTH = 64 * 1024;

    private final Map<String, Map<String, String>> namespaces = new TreeMap<>();

    /** @return empty when stored, else why not */
    synchronized Optional<String> put(String namespace, String key, String value) {
        if (namespace.length() > MAX_NAME_LENGTH || key.length() > MAX_NAME_LENGTH) {
            return Optional.of("namespace and key may have at most " + MAX_NAME_LENGTH + " characters");
        }
        if (value.length() > MAX_VALUE_LENGTH) {
            return Optional.of("value may have at most " + MAX_VALUE_LENGTH + " characters, not " + value.length());
        }
        Map<String, String> keys = namespaces.get(namespace);
        if (keys == null) {
            if (namespaces.size() >= MAX_NAMESPACES) {
                return Optional.of("the name server keeps " + MAX_NAMESPACES + " namespaces, its maximum");
            }
            keys = new TreeMap<>();
            namespaces.put(namespace, keys);
        }
        if (!keys.containsKey(key) && keys.size() >= MAX_KEYS_PER_NAMESPACE) {
            return Optional.of("namespace " + namespace + " holds " + MAX_KEYS_PER_NAMESPACE + " keys, its maximum");
        }
        keys.put(key, value);
        return Optional.empty();
    }

    synchronized Optional<String> get(String namespace, String key) {
        return Optional.ofNullable(namespaces.getOrDefault(namespace, Map.of()).get(key));
    }

    synchronized void delete(String namespace, String key) {
        Map<String, String> keys = namespaces.get(namespace);
        if (keys != null) {
            keys.remove(key);
            if (keys.isEmpty()) {
                namespaces.remove(namespace);
            }
        }
    }

    synchronized Optional<Map<String, String>> namespace(String namespace) {
        Map<String, String> keys = namespaces.get(namespace);
        return keys == null ? Optional.empty() : Optional.of(Map.copyOf(keys));
    }
}
