package dev.ferry.remoting.protocol.body;

import java.util.Map;
import java.util.Set;

/** Every broker group a name server knows, and the groups of each cluster. */
public record ClusterInfo(Map<String, BrokerData> brokerAddrTable, Map<String, Set<String>> clusterAddrTable) {

    public ClusterInfo {
        brokerAddrTable = brokerAddrTable == null ? Map.of() : Map.copyOf(brokerAddrTable);
        clusterAddrTable = clusterAddrTable == null ? Map.of() : Map.copyOf(clusterAddrTable);
    }
}
