package dev.ferry.server.namesrv;

import dev.ferry.format.NameRules;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.BrokerData;
import dev.ferry.remoting.protocol.body.CompressedRegistration;
import dev.ferry.remoting.protocol.body.DataVersion;
import dev.ferry.remoting.protocol.body.RegisterBrokerBody;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.body.TopicConfigSerializeWrapper;
import dev.ferry.remoting.protocol.body.TopicRouteData;
import dev.ferry.remoting.protocol.header.GetRouteInfoRequestHeader;
import dev.ferry.remoting.protocol.header.RegisterBrokerRequestHeader;
import dev.ferry.remoting.protocol.header.RegisterBrokerResponseHeader;
import dev.ferry.remoting.protocol.header.UnregisterBrokerRequestHeader;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The name server's requests: brokers register and unregister, clients ask for routes and
 * cluster info. Stateless; the {@link RouteTable} holds the state.
 *
 * <p>Everything a registration carries is checked before the table changes: the broker and
 * cluster names, the addresses, the CRC, a compressed body's size once inflated; topics with
 * invalid names or queue counts beyond {@value #MAX_QUEUES} are left out (the remark counts them). A refused registration is answered
 * INVALID_PARAMETER or SYSTEM_ERROR with the reason (Apache answers SUCCESS to most bad
 * registrations and logs; a broker cannot tell then).
 */
final class RouteRequestProcessor implements RequestProcessor {
    /** The most queues a topic may have on one broker in a route: clients build one object per queue. */
    static final int MAX_QUEUES = 65_535;

    private final RouteTable routes;
    private final BodyCodec json;
    private final CompressedRegistration compressed;
    private final int maxRegistrationBytes;

    RouteRequestProcessor(RouteTable routes, BodyCodec json, int maxRegistrationBytes) {
        this.routes = routes;
        this.json = json;
        this.compressed = new CompressedRegistration(json);
        this.maxRegistrationBytes = maxRegistrationBytes;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.REGISTER_BROKER -> register(context, request);
            case RequestCode.UNREGISTER_BROKER -> unregister(context, request);
            case RequestCode.GET_ROUTEINFO_BY_TOPIC -> route(request);
            case RequestCode.GET_BROKER_CLUSTER_INFO -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                    .body(json.encode(routes.clusterInfo())).build();
            default -> RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED)
                    .remark("the name server does not serve request code " + request.code()).build();
        };
    }

    private static void check(String problem) {
        if (problem != null) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, problem);
        }
    }

    private static void checkBroker(String brokerName, String clusterName, String brokerAddr, long brokerId) {
        check(NameRules.brokerNameProblem("brokerName", brokerName));
        check(NameRules.brokerNameProblem("clusterName", clusterName));
        check(NameRules.addressProblem("brokerAddr", brokerAddr));
        if (brokerId < 0) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, "brokerId " + brokerId + " is negative");
        }
    }

    private RemotingCommand register(RequestContext context, RemotingCommand request) {
        RegisterBrokerRequestHeader header = request.header(RegisterBrokerRequestHeader.class);
        checkBroker(header.brokerName(), header.clusterName(), header.brokerAddr(), header.brokerId());
        if (!header.haServerAddr().isEmpty()) {
            check(NameRules.addressProblem("haServerAddr", header.haServerAddr()));
        }
        byte[] body = request.body() == null ? new byte[0] : request.body();
        if (header.bodyCrc32() != null && header.bodyCrc32() != 0 && header.bodyCrc32() != crc32(body)) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR).remark("crc32 not match").build();
        }
        TopicConfigSerializeWrapper topics;
        if (body.length == 0) {
            topics = new TopicConfigSerializeWrapper(Map.of(), new DataVersion(0, 0, 0));
        } else if (Boolean.TRUE.equals(header.compressed())) {
            topics = compressed.decode(body, maxRegistrationBytes).topicConfigSerializeWrapper();
        } else {
            RegisterBrokerBody decoded = json.decode(body, RegisterBrokerBody.class);
            topics = decoded.topicConfigSerializeWrapper() == null
                    ? new TopicConfigSerializeWrapper(Map.of(), new DataVersion(0, 0, 0))
                    : decoded.topicConfigSerializeWrapper();
        }
        Map<String, TopicConfig> valid = new HashMap<>();
        int invalid = 0;
        for (Map.Entry<String, TopicConfig> topic : topics.topicConfigTable().entrySet()) {
            TopicConfig config = topic.getValue();
            if (config != null && NameRules.topicProblem(topic.getKey()) == null && queues(config.readQueueNums())
                    && queues(config.writeQueueNums()) && (config.perm() & ~7) == 0) {
                valid.put(topic.getKey(), config);
            } else {
                invalid++;
            }
        }
        DataVersion version = topics.dataVersion() == null ? new DataVersion(0, 0, 0) : topics.dataVersion();
        RouteTable.Outcome outcome = routes.register(header.clusterName(), header.brokerName(), header.brokerAddr(),
                header.brokerId(), header.haServerAddr(), Boolean.TRUE.equals(header.enableActingMaster()), version,
                valid, context.channel().id(), sourceHost(context));
        if (!outcome.accepted()) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR).remark(outcome.refusal()).build();
        }
        // As Apache's: a slave learns where its master serves and replicates from
        boolean slave = header.brokerId() != BrokerData.MASTER_ID;
        String master = slave ? routes.masterAddress(header.brokerName()) : null;
        RemotingCommand.Builder response = RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                .header(new RegisterBrokerResponseHeader(master == null ? null
                        : routes.masterHaAddress(header.brokerName()), master));
        int skipped = invalid + outcome.topicsSkipped();
        if (skipped > 0) {
            response.remark(skipped + " topics not routed: " + invalid + " with invalid names, "
                    + outcome.topicsSkipped() + " beyond the name server's maximum of topic routes (per broker, or "
                    + "in all)");
        }
        return response.build();
    }

    /** The host a request's connection comes from: brokers are told apart by it. */
    private static String sourceHost(RequestContext context) {
        return context.channel().remoteAddress() instanceof java.net.InetSocketAddress inet && inet.getAddress() != null
                ? inet.getAddress().getHostAddress() : String.valueOf(context.channel().remoteAddress());
    }

    /** Queue counts a client can build a route of. */
    private static boolean queues(int count) {
        return count >= 0 && count <= MAX_QUEUES;
    }

    private static int crc32(byte[] body) {
        CRC32 crc = new CRC32();
        crc.update(body);
        // RocketMQ keeps the CRC as a positive int.
        return (int) (crc.getValue() & 0x7FFFFFFF);
    }

    private RemotingCommand unregister(RequestContext context, RemotingCommand request) {
        UnregisterBrokerRequestHeader header = request.header(UnregisterBrokerRequestHeader.class);
        checkBroker(header.brokerName(), header.clusterName(), header.brokerAddr(), header.brokerId());
        String refusal = routes.unregister(header.brokerAddr(), context.channel().id());
        if (refusal != null) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR).remark(refusal).build();
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }

    private RemotingCommand route(RemotingCommand request) {
        String topic = request.header(GetRouteInfoRequestHeader.class).topic();
        String problem = NameRules.topicProblem(topic);
        TopicRouteData route = problem == null ? routes.route(topic) : null;
        if (route == null) {
            return RemotingCommand.responseTo(request, ResponseCode.TOPIC_NOT_EXIST)
                    .remark("No topic route info in name server for the topic: " + NameRules.shown(topic)
                            + (problem == null ? "" : " (" + problem + ")")).build();
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(json.encode(route)).build();
    }
}
