package dev.ferry.client;

import dev.ferry.api.FerryException;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.BrokerData;
import dev.ferry.remoting.protocol.body.ClusterInfo;
import dev.ferry.remoting.protocol.body.TopicRouteData;
import dev.ferry.remoting.protocol.header.GetRouteInfoRequestHeader;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Topic routes read from the name servers and kept until refreshed: every 30 s by the client's
 * scheduler, and whenever a send fails. Thread-safe: routes are immutable values in a concurrent map.
 */
final class RouteCache implements Routes {
    private static final System.Logger LOG = System.getLogger(RouteCache.class.getName());

    private final BrokerCalls calls;
    private final List<String> nameServers;
    private final Duration timeout;
    private final BodyCodec codec;
    private final AtomicInteger nameServerIndex = new AtomicInteger();
    private final Map<String, TopicRoute> routes = new ConcurrentHashMap<>();
    /** Stand-in routes of topics that do not exist yet, derived from the auto-create topic. */
    private final Map<String, TopicRoute> pendingTopics = new ConcurrentHashMap<>();

    RouteCache(BrokerCalls calls, List<String> nameServers, Duration timeout, BodyCodec codec) {
        this.calls = calls;
        this.nameServers = nameServers;
        this.timeout = timeout;
        this.codec = codec;
    }

    /** The cached route of {@code topic}, read from a name server when absent; empty when the topic does not exist. */
    @Override
    public Optional<TopicRoute> route(String topic) {
        TopicRoute cached = routes.get(topic);
        return cached != null ? Optional.of(cached) : refresh(topic);
    }

    /**
     * The route a producer writes {@code topic} through: its own, or, while it does not exist, the
     * auto-create topic's with at most {@code defaultQueueNums} queues per broker.
     *
     * @throws FerryException when neither route exists
     */
    TopicRoute publishRoute(String topic, String autoCreateTopic, int defaultQueueNums) {
        Optional<TopicRoute> own = route(topic);
        if (own.isPresent() && !own.get().writeQueues().isEmpty()) {
            return own.get();
        }
        TopicRoute pending = pendingTopics.get(topic);
        if (pending != null) {
            return pending;
        }
        TopicRoute template = fetch(autoCreateTopic).orElseThrow(() -> new FerryException(
                "no route for topic '" + topic + "' nor for the auto-create topic '" + autoCreateTopic
                        + "' on name servers " + nameServers));
        TopicRoute derived = TopicRoute.of(topic, template.data(), defaultQueueNums);
        pendingTopics.put(topic, derived);
        return derived;
    }

    /** Reads the route of {@code topic} again, replacing the cached one. */
    @Override
    public Optional<TopicRoute> refresh(String topic) {
        Optional<TopicRoute> fresh = fetch(topic);
        fresh.ifPresent(route -> {
            routes.put(topic, route);
            pendingTopics.remove(topic);
        });
        return fresh;
    }

    /** Reads every cached topic's route again (the periodic refresh); failures are logged, the old route stays. */
    void refreshAll() {
        Set<String> topics = new TreeSet<>(routes.keySet());
        topics.addAll(pendingTopics.keySet());
        for (String topic : topics) {
            try {
                refresh(topic);
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "route refresh of " + topic + " failed: " + e.getMessage());
            }
        }
    }

    /** The master address of {@code brokerName} in any cached route. */
    @Override
    public Optional<String> brokerAddress(String brokerName) {
        for (TopicRoute route : routes.values()) {
            String address = route.brokerAddresses().get(brokerName);
            if (address != null) {
                return Optional.of(address);
            }
        }
        for (TopicRoute route : pendingTopics.values()) {
            String address = route.brokerAddresses().get(brokerName);
            if (address != null) {
                return Optional.of(address);
            }
        }
        return Optional.empty();
    }

    /** Where to read {@code brokerName}'s queues, from any cached route: its master, else a slave. */
    @Override
    public Optional<String> readAddress(String brokerName) {
        for (Map<String, TopicRoute> all : List.of(routes, pendingTopics)) {
            for (TopicRoute route : all.values()) {
                String address = route.readAddresses().get(brokerName);
                if (address != null) {
                    return Optional.of(address);
                }
            }
        }
        return Optional.empty();
    }

    /** Every address, masters' and slaves', of every broker in any cached route: where heartbeats go. */
    @Override
    public Set<String> brokerAddresses() {
        Set<String> addresses = new TreeSet<>();
        for (Map<String, TopicRoute> all : List.of(routes, pendingTopics)) {
            for (TopicRoute route : all.values()) {
                for (BrokerData broker : route.data().brokerDatas()) {
                    if (broker.brokerAddrs() != null) {
                        addresses.addAll(broker.brokerAddrs().values());
                    }
                }
            }
        }
        return addresses;
    }

    /** Whether the last route request reached a name server that answered. */
    @Override
    public boolean nameServerReachable() {
        return reachable;
    }

    /** Why no name server answered the last route request; empty while they answer. */
    Optional<String> nameServerProblem() {
        return reachable ? Optional.empty() : Optional.ofNullable(problem);
    }

    private volatile boolean reachable = true;
    private volatile String problem;

    /** One line when the name servers stop answering, one when they answer again: never one per attempt. */
    private void answered(boolean yes, String why) {
        if (yes && !reachable) {
            reachable = true;
            LOG.log(Level.INFO, "FERRY-CL-0101 name servers " + nameServers + " answer again");
        } else if (!yes && reachable) {
            problem = why;
            reachable = false;
            LOG.log(Level.WARNING, "FERRY-CL-0100 no name server of " + nameServers + " answers: " + why
                    + " (the client keeps trying; this is said once)");
        } else if (!yes) {
            problem = why;
        }
    }

    /** Asks the name servers, one after the other until one answers. */
    private Optional<TopicRoute> fetch(String topic) {
        RemotingCommand response = askNameServers(RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC,
                new GetRouteInfoRequestHeader(topic, null)).build(), "route of topic '" + topic + "'");
        if (response.code() == ResponseCode.TOPIC_NOT_EXIST) {
            return Optional.empty();
        }
        return Optional.of(TopicRoute.of(topic, codec.decode(response.body(), TopicRouteData.class)));
    }

    /**
     * The master address of every broker the name servers know, by broker name, of every cluster (GET_BROKER_CLUSTER_INFO):
     * where a transaction manager's recovery looks for half messages.
     */
    Map<String, String> masterAddresses() {
        RemotingCommand response = askNameServers(RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_INFO).build(),
                "cluster info");
        ClusterInfo info = codec.decode(response.body(), ClusterInfo.class);
        Map<String, String> masters = new TreeMap<>();
        if (info.brokerAddrTable() != null) {
            info.brokerAddrTable().forEach((name, broker) -> {
                if (broker != null && broker.masterAddress() != null) {
                    masters.put(name, broker.masterAddress());
                }
            });
        }
        return masters;
    }

    /** Sends to the name servers, one after the other until one answers SUCCESS or TOPIC_NOT_EXIST. */
    private RemotingCommand askNameServers(RemotingCommand request, String what) {
        RuntimeException last = null;
        for (int attempt = 0; attempt < nameServers.size(); attempt++) {
            String address = nameServers.get(Math.floorMod(nameServerIndex.get(), nameServers.size()));
            try {
                RemotingCommand response = calls.call(address, request, timeout);
                answered(true, null);
                if (response.code() != ResponseCode.SUCCESS && response.code() != ResponseCode.TOPIC_NOT_EXIST) {
                    throw WireErrors.fromResponse(response, what + " from " + address);
                }
                return response;
            } catch (RuntimeException e) {
                last = e;
                nameServerIndex.incrementAndGet();
            }
        }
        RuntimeException failure = WireErrors.fromFailure(last, "no name server of " + nameServers
                + " answered for the " + what);
        answered(false, failure.getMessage());
        throw failure;
    }
}
