package dev.ferry.server.cli;

import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.RemotingClient;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.BrokerData;
import dev.ferry.remoting.protocol.body.ClusterInfo;
import dev.ferry.remoting.protocol.body.TopicRouteData;
import dev.ferry.remoting.protocol.header.GetRouteInfoRequestHeader;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * The requests admin commands send, over RocketMQ's own protocol so that they work against Ferry and Apache
 * clusters alike: cluster and route lookups at the name server, then calls to the brokers they name. An answer
 * other than SUCCESS ends the command with the server's code and remark.
 */
final class AdminCalls implements AutoCloseable {
    static final Duration TIMEOUT = Duration.ofSeconds(15);

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

    private final String nameServer;
    private final RemotingClient client;
    private final BodyCodec json = new BodyCodec();

    /** @param credentials what requests are signed with (a cluster with authentication on), or {@code null} */
    AdminCalls(String nameServer, Credentials credentials) {
        this.nameServer = nameServer;
        this.client = new RemotingClient(RemotingClientConfig.builder().credentials(credentials).build(),
                new DefaultThreadFactory("ferry-admin", true));
    }

    BodyCodec json() {
        return json;
    }

    String nameServer() {
        return nameServer;
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
        throw new Refused(address + " answered " + ResponseCode.nameOf(answer.code()) + " to "
                + RequestCode.nameOf(request.code()) + ": " + answer.remark(), answer.code());
    }

    <T> T body(RemotingCommand answer, Class<T> type) {
        return json.decode(answer.body(), type);
    }

    ClusterInfo clusterInfo() {
        return body(call(nameServer, RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_INFO).build()),
                ClusterInfo.class);
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
        return body(call(nameServer, RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC,
                new GetRouteInfoRequestHeader(topic, null)).build()), TopicRouteData.class);
    }

    /** The master address of each broker group the topic's route names. */
    List<String> topicMasters(String topic) {
        List<String> masters = new ArrayList<>();
        for (BrokerData broker : route(topic).brokerDatas()) {
            if (broker.masterAddress() != null) {
                masters.add(broker.masterAddress());
            }
        }
        return masters;
    }

    @Override
    public void close() {
        client.close();
    }
}
