package dev.ferry.server.namesrv;

import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.server.files.JsonFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The name server's key-value configuration (PUT/GET/DELETE_KV_CONFIG, GET_KVLIST_BY_NAMESPACE), by namespace: what
 * admin tools keep there, such as Apache's {@code ORDER_TOPIC_CONFIG}.
 *
 * <p>Bounded by bytes, not by count: every entry is charged what it costs the heap (two bytes a character of its
 * namespace, key and value, and {@value #ENTRY_OVERHEAD} for the maps' nodes), and a put that would take the table
 * beyond its budget is refused. A client flooding large values under new keys fills the budget, not the heap.
 *
 * <p>Persisted as Apache persists it: the whole table is written to {@code kvConfig.json} (Apache's layout, so either
 * server reads the other's file) after every change and before the change is answered, through the atomic write, and
 * read back at start.
 *
 * <p>Thread-safe: changes and their writes are serialized on this object.
 */
final class KvConfigTable {
    private static final System.Logger LOG = System.getLogger(KvConfigTable.class.getName());
    static final int MAX_NAME_LENGTH = 1024;
    static final int MAX_VALUE_LENGTH = 64 * 1024;
    /** What an entry costs besides its characters: the map nodes and string headers. */
    static final int ENTRY_OVERHEAD = 128;

    /** {@code kvConfig.json}: Apache's name server's layout. */
    record Stored(Map<String, Map<String, String>> configTable) {
    }

    /** Why a change was refused, with the response code to answer. */
    record Refusal(int code, String remark) {
    }

    private final long maxBytes;
    private final Optional<JsonFile<Stored>> file;
    private final Map<String, Map<String, String>> namespaces = new TreeMap<>();
    private long bytes;

    /** A table held in memory only. */
    KvConfigTable(long maxBytes) {
        this(maxBytes, Optional.empty());
    }

    /**
     * A table persisted to {@code path}, read from it now.
     *
     * @throws dev.ferry.format.AtomicFile.UnreadableFileException when the file and its backup exist and neither parses
     */
    KvConfigTable(long maxBytes, Optional<Path> path) {
        this.maxBytes = maxBytes;
        path.ifPresent(KvConfigTable::createParent);
        this.file = path.map(p -> new JsonFile<>(p, Stored.class));
        file.flatMap(JsonFile::read).ifPresent(this::load);
    }

    private static void createParent(Path path) {
        try {
            Files.createDirectories(path.toAbsolutePath().getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the directory of " + path, e);
        }
    }

    private void load(Stored stored) {
        int skipped = 0;
        Map<String, Map<String, String>> table = stored.configTable() == null ? Map.of() : stored.configTable();
        for (Map.Entry<String, Map<String, String>> namespace : table.entrySet()) {
            Map<String, String> keys = namespace.getValue() == null ? Map.of() : namespace.getValue();
            for (Map.Entry<String, String> entry : keys.entrySet()) {
                if (problem(namespace.getKey(), entry.getKey(), entry.getValue()).isPresent()) {
                    skipped++;
                } else {
                    store(namespace.getKey(), entry.getKey(), entry.getValue());
                }
            }
        }
        if (skipped > 0 || bytes > maxBytes) {
            LOG.log(System.Logger.Level.WARNING, "{0}: {1} entries left out (a name or value too long); the rest "
                    + "takes {2} bytes of the {3} it may (nameServerMaxKvBytes): puts adding bytes are refused "
                    + "until some go", file.get().path(), skipped, bytes, maxBytes);
        }
    }

    /**
     * Stores and persists the entry: refused INVALID_PARAMETER when a name or the value is too long, SYSTEM_ERROR (the
     * code Apache's name server refuses a put with) when the table is full or cannot be written.
     *
     * @return empty when stored, else why not
     */
    synchronized Optional<Refusal> put(String namespace, String key, String value) {
        Optional<String> problem = problem(namespace, key, value);
        if (problem.isPresent()) {
            return Optional.of(new Refusal(ResponseCode.INVALID_PARAMETER, problem.get()));
        }
        String before = namespaces.getOrDefault(namespace, Map.of()).get(key);
        long growth = before == null ? cost(namespace, key, value) : 2L * (value.length() - before.length());
        if (growth > 0 && bytes + growth > maxBytes) {
            return Optional.of(new Refusal(ResponseCode.SYSTEM_ERROR, "the name server's key-value configuration "
                    + "holds " + bytes + " bytes; this entry would take it beyond its maximum of " + maxBytes
                    + " (nameServerMaxKvBytes)"));
        }
        store(namespace, key, value);
        return persist(() -> {
            if (before == null) {
                remove(namespace, key);
            } else {
                store(namespace, key, before);
            }
        });
    }

    private static Optional<String> problem(String namespace, String key, String value) {
        if (namespace.length() > MAX_NAME_LENGTH || key.length() > MAX_NAME_LENGTH) {
            return Optional.of("namespace and key may have at most " + MAX_NAME_LENGTH + " characters");
        }
        if (value.length() > MAX_VALUE_LENGTH) {
            return Optional.of("value may have at most " + MAX_VALUE_LENGTH + " characters, not " + value.length());
        }
        return Optional.empty();
    }

    private static long cost(String namespace, String key, String value) {
        return 2L * (namespace.length() + key.length() + value.length()) + ENTRY_OVERHEAD;
    }

    private void store(String namespace, String key, String value) {
        String before = namespaces.computeIfAbsent(namespace, n -> new TreeMap<>()).put(key, value);
        bytes += before == null ? cost(namespace, key, value) : 2L * (value.length() - before.length());
    }

    private String remove(String namespace, String key) {
        Map<String, String> keys = namespaces.get(namespace);
        String before = keys == null ? null : keys.remove(key);
        if (before != null) {
            bytes -= cost(namespace, key, before);
            if (keys.isEmpty()) {
                namespaces.remove(namespace);
            }
        }
        return before;
    }

    /** Writes the table; when that fails, {@code undo} takes the change back and the refusal says why. */
    private Optional<Refusal> persist(Runnable undo) {
        if (file.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Map<String, String>> copy = new LinkedHashMap<>();
        namespaces.forEach((namespace, keys) -> copy.put(namespace, new TreeMap<>(keys)));
        try {
            file.get().write(new Stored(copy));
            return Optional.empty();
        } catch (UncheckedIOException e) {
            undo.run();
            LOG.log(System.Logger.Level.WARNING, "the key-value configuration was not changed", e);
            return Optional.of(new Refusal(ResponseCode.SYSTEM_ERROR, e.getMessage()));
        }
    }

    synchronized Optional<String> get(String namespace, String key) {
        return Optional.ofNullable(namespaces.getOrDefault(namespace, Map.of()).get(key));
    }

    /** @return empty when gone (or never there), else why it stays */
    synchronized Optional<Refusal> delete(String namespace, String key) {
        String before = remove(namespace, key);
        return before == null ? Optional.empty() : persist(() -> store(namespace, key, before));
    }

    synchronized Optional<Map<String, String>> namespace(String namespace) {
        Map<String, String> keys = namespaces.get(namespace);
        return keys == null ? Optional.empty() : Optional.of(Map.copyOf(keys));
    }

    /** Bytes the entries are charged now. */
    synchronized long bytes() {
        return bytes;
    }
}
