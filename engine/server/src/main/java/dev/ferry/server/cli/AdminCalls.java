package dev.ferry.server.cli;

import dev.ferry.format.Clock;
import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.TlsConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.BrokerData;
import dev.ferry.remoting.protocol.body.BrokerStatsBody;
import dev.ferry.remoting.protocol.body.ClusterInfo;
import dev.ferry.remoting.protocol.body.TopicRouteData;
import dev.ferry.remoting.protocol.header.GetRouteInfoRequestHeader;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The requests admin commands send, over RocketMQ's own protocol so that they work against Ferry and Apache
 * clusters alike: cluster and route lookups at the name server, then calls to the brokers they name. An answer
 * other than SUCCESS ends the command with the server's code and remark.
 */
final class AdminCalls implements AutoCloseable {
    static final Duration TIMEOUT = Duration.ofSeconds(15);
    /** Longer remarks are cut: they come from the network and end up on a terminal. */
    static final int SHOWN_REMARK = 512;

    /** A server refused an admin request; the message says which, with its code and remark. */
    static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int code;

        Refused(String message, int code) {
            super(message);
            this.code = code;
        }

        int code() {
            return code;
        }
    }

    /** The command cannot start: its credentials or options are unusable; the message says why in one line. */
    static final class BadSetup extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadSetup(String message) {
            super(message);
        }
    }

    private final AdminTarget target;
    private final RemotingClient client;
    private final BodyCodec json = new BodyCodec();

    /**
     * @param credentials what every request is signed with (a cluster with authentication on), or {@code null}
     * @param tls         how to connect: {@link TlsConfig#DISABLED}, or TLS to servers that require it
     * @throws BadSetup when the TLS files cannot be used
     */
    AdminCalls(AdminTarget target, Credentials credentials, TlsConfig tls) {
        this.target = target;
        try {
            this.client = new RemotingClient(RemotingClientConfig.builder().credentials(credentials).tls(tls).build(),
                    new DefaultThreadFactory("ferry-admin", true), Clock.system());
        } catch (RemotingException e) {
            throw new BadSetup(e.getMessage());
        }
    }

    BodyCodec json() {
        return json;
    }

    String nameServer() {
        return target.nameServer();
    }

    /** Sends {@code request} and returns the answer, which is SUCCESS or one of {@code alsoAccepted}. */
    RemotingCommand call(String address, RemotingCommand request, int... alsoAccepted) {
        RemotingCommand answer = client.invokeSync(address, request, TIMEOUT);
        if (answer.code() == ResponseCode.SUCCESS) {
            return answer;
        }
        for (int accepted : alsoAccepted) {
            if (answer.code() == accepted) {
                return answer;
            }
        }
        String who = address.equals(target.nameServer()) ? "name server " : "broker ";
        throw new Refused(who + address + " answered " + ResponseCode.nameOf(answer.code()) + " to "
                + RequestCode.nameOf(request.code()) + ": " + shown(answer.remark()), answer.code());
    }

    /** A server's remark as a terminal may show it: one line, bounded. */
    static String shown(String remark) {
        if (remark == null) {
            return "(no remark)";
        }
        String line = remark.codePoints().limit(SHOWN_REMARK).map(c -> Character.isISOControl(c) ? ' ' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return remark.length() > SHOWN_REMARK ? line + "..." : line;
    }

    /** A value from the network in a table cell: {@code -} when absent, else {@link #shown shown}. */
    static String cell(String value) {
        return value == null || value.isEmpty() ? "-" : shown(value);
    }

    <T> T body(RemotingCommand answer, Class<T> type) {
        return json.decode(answer.body(), type);
    }

    ClusterInfo clusterInfo() {
        return body(call(target.nameServer(), RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_INFO)
                .build()), ClusterInfo.class);
    }

    /** The broker given ({@code --broker}), else the masters of {@code cluster}, of every cluster when {@code null}. */
    List<String> brokers(String cluster) {
        return target.broker() != null ? List.of(target.broker()) : masters(cluster);
    }

    /**
     * Sends each broker a request and reads the array its answer holds: the elements by broker, in the brokers'
     * order; an answer without a body holds none.
     */
    <T> Map<String, List<T>> listEach(List<String> brokers, Supplier<RemotingCommand> request, Class<T[]> type) {
        Map<String, List<T>> all = new LinkedHashMap<>();
        for (String broker : brokers) {
            RemotingCommand answer = call(broker, request.get());
            all.put(broker, answer.body() == null || answer.body().length == 0 ? List.of()
                    : Arrays.stream(body(answer, type)).filter(Objects::nonNull).toList());
        }
        return all;
    }

    /**
     * Sends each broker a request and reads the object its answer holds, by broker in the brokers' order.
     *
     * @param absent what the request asked for, to say that a broker answered without it ("user alice")
     */
    <T> Map<String, T> getEach(List<String> brokers, Supplier<RemotingCommand> request, Class<T> type,
                               String absent) {
        Map<String, T> all = new LinkedHashMap<>();
        for (String broker : brokers) {
            RemotingCommand answer = call(broker, request.get());
            if (answer.body() == null || answer.body().length == 0) {
                throw new Refused("broker " + broker + " has no " + absent, ResponseCode.SYSTEM_ERROR);
            }
            all.put(broker, body(answer, type));
        }
        return all;
    }

    /** Ferry's counters of each broker {@link #brokers(String)} names. */
    List<BrokerStatsBody> stats() {
        List<BrokerStatsBody> all = new ArrayList<>();
        for (String address : brokers(null)) {
            all.add(body(call(address, RemotingCommand.request(RequestCode.FERRY_GET_BROKER_STATS).build()),
                    BrokerStatsBody.class));
        }
        return all;
    }

    /** The master of every broker group of {@code cluster}, or of every cluster when it is {@code null}. */
    List<String> masters(String cluster) {
        ClusterInfo info = clusterInfo();
        Set<String> names = cluster == null ? info.brokerAddrTable().keySet()
                : info.clusterAddrTable().getOrDefault(cluster, Set.of());
        if (cluster != null && names.isEmpty()) {
            throw new Refused("the name server knows no cluster " + cluster, ResponseCode.SYSTEM_ERROR);
        }
        List<String> masters = new ArrayList<>();
        for (BrokerData broker : new TreeMap<>(info.brokerAddrTable()).values()) {
            if (names.contains(broker.brokerName()) && broker.masterAddress() != null) {
                masters.add(broker.masterAddress());
            }
        }
        return masters;
    }

    TopicRouteData route(String topic) {
        return body(call(target.nameServer(), RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC,
                new GetRouteInfoRequestHeader(topic, null)).build()), TopicRouteData.class);
    }

    /** The master address of each broker group the topic's route names. */
    List<String> topicMasters(String topic) {
        return new ArrayList<>(topicMasterAddresses(topic).values());
    }

    /** The master address of each broker group the topic's route names, by broker name. */
    Map<String, String> topicMasterAddresses(String topic) {
        Map<String, String> masters = new TreeMap<>();
        for (BrokerData broker : route(topic).brokerDatas()) {
            if (broker.masterAddress() != null) {
                masters.put(broker.brokerName(), broker.masterAddress());
            }
        }
        return masters;
    }

    @Override
    public void close() {
        client.close();
    }
}
