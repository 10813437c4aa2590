package dev.ferry.client;

import dev.ferry.api.MessageQueue;
import dev.ferry.remoting.protocol.body.BrokerData;
import dev.ferry.remoting.protocol.body.Permission;
import dev.ferry.remoting.protocol.body.QueueData;
import dev.ferry.remoting.protocol.body.TopicRouteData;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One topic's route, digested: the queues producers may write, the queues consumers may read, and each
 * broker's master address. Immutable.
 *
 * @param topic the topic
 * @param writeQueues writable queues of brokers that have a master, sorted
 * @param readQueues readable queues, sorted
 * @param brokerAddresses master address by broker name
 * @param readAddresses where to read each broker's queues: its master, or while it has none its first slave
 * @param data the route as the name server sent it
 */
record TopicRoute(String topic, List<MessageQueue> writeQueues, List<MessageQueue> readQueues,
                  Map<String, String> brokerAddresses, Map<String, String> readAddresses, TopicRouteData data) {

    /** The route of {@code topic} from the name server's answer. */
    static TopicRoute of(String topic, TopicRouteData data) {
        return of(topic, data, Integer.MAX_VALUE);
    }

    /**
     * A route for a topic that does not exist yet, derived from the auto-create topic's route: at most
     * {@code maxQueues} queues per broker, as the broker will create them.
     */
    static TopicRoute of(String topic, TopicRouteData data, int maxQueues) {
        Map<String, String> addresses = new TreeMap<>();
        Map<String, String> readAddresses = new TreeMap<>();
        for (BrokerData broker : data.brokerDatas()) {
            String master = broker.masterAddress();
            if (master != null) {
                addresses.put(broker.brokerName(), master);
                readAddresses.put(broker.brokerName(), master);
            } else if (broker.brokerAddrs() != null && !broker.brokerAddrs().isEmpty()) {
                // Apache's consumers read from a slave while the master is away, the lowest id first
                readAddresses.put(broker.brokerName(), new TreeMap<>(broker.brokerAddrs()).firstEntry().getValue());
            }
        }
        List<MessageQueue> write = new ArrayList<>();
        List<MessageQueue> read = new ArrayList<>();
        for (QueueData queues : data.queueDatas()) {
            if (Permission.writable(queues.perm()) && addresses.containsKey(queues.brokerName())) {
                for (int i = 0; i < Math.min(maxQueues, queues.writeQueueNums()); i++) {
                    write.add(new MessageQueue(topic, queues.brokerName(), i));
                }
            }
            if (Permission.readable(queues.perm())) {
                for (int i = 0; i < Math.min(maxQueues, queues.readQueueNums()); i++) {
                    read.add(new MessageQueue(topic, queues.brokerName(), i));
                }
            }
        }
        Collections.sort(write);
        Collections.sort(read);
        return new TopicRoute(topic, List.copyOf(write), List.copyOf(read), Collections.unmodifiableMap(addresses),
                Collections.unmodifiableMap(readAddresses), data);
    }
}
