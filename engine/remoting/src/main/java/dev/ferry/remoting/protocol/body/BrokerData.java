package dev.ferry.remoting.protocol.body;

import java.util.Map;
import java.util.TreeMap;

/**
 * One broker group: its name, cluster, and the address of each member by broker id (0 is the
 * master).
 */
public record BrokerData(String cluster, String brokerName, Map<Long, String> brokerAddrs,
                         boolean enableActingMaster) {

    /** The id of a master broker. */
    public static final long MASTER_ID = 0L;

    public BrokerData {
        brokerAddrs = brokerAddrs == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(brokerAddrs));
    }

    /** The master's address, or {@code null} when the group has no master now. */
    public String masterAddress() {
        return brokerAddrs.get(MASTER_ID);
    }
}
