package dev.ferry.remoting.protocol.body;

import java.util.Map;
import java.util.TreeMap;

/** Named string values: a broker's runtime information, a name server's key-value namespace. */
public record KvTable(Map<String, String> table) {

    public KvTable {
        table = table == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(table));
    }
}
