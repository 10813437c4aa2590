package dev.ferry.remoting.protocol.body;

import java.util.List;
import java.util.Map;

/** Which brokers serve a topic, with how many queues: the answer to GET_ROUTEINFO_BY_TOPIC. */
public record TopicRouteData(List<QueueData> queueDatas, List<BrokerData> brokerDatas,
                             Map<String, List<String>> filterServerTable) {

    public TopicRouteData {
        queueDatas = queueDatas == null ? List.of() : List.copyOf(queueDatas);
        brokerDatas = brokerDatas == null ? List.of() : List.copyOf(brokerDatas);
        filterServerTable = filterServerTable == null ? Map.of() : Map.copyOf(filterServerTable);
    }
}
