package dev.ferry.server.namesrv;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.DataVersion;
import dev.ferry.remoting.protocol.body.RegisterBrokerBody;
import dev.ferry.remoting.protocol.body.TopicConfigSerializeWrapper;
import dev.ferry.remoting.protocol.body.TopicRouteData;
import dev.ferry.remoting.protocol.header.GetRouteInfoRequestHeader;
import dev.ferry.remoting.protocol.header.RegisterBrokerRequestHeader;
import dev.ferry.remoting.protocol.header.RegisterBrokerResponseHeader;
import dev.ferry.remoting.protocol.header.UnregisterBrokerRequestHeader;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The name server's requests: brokers register and unregister, clients ask for routes and
 * cluster info. Stateless; the {@link RouteTable} holds the state.
 */
final class RouteRequestProcessor implements RequestProcessor {
    private final RouteTable routes;
    private final BodyCodec json;

    RouteRequestProcessor(RouteTable routes, BodyCodec json) {
        this.routes = routes;
        this.json = json;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.REGISTER_BROKER -> register(context, request);
            case RequestCode.UNREGISTER_BROKER -> unregister(request);
            case RequestCode.GET_ROUTEINFO_BY_TOPIC -> route(request);
            case RequestCode.GET_BROKER_CLUSTER_INFO -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                    .body(json.encode(routes.clusterInfo())).build();
            default -> RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED)
                    .remark("the name server does not serve request code " + request.code()).build();
        };
    }

    private RemotingCommand register(RequestContext context, RemotingCommand request) {
        RegisterBrokerRequestHeader header = request.header(RegisterBrokerRequestHeader.class);
        if (Boolean.TRUE.equals(header.compressed())) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR)
                    .remark("compressed REGISTER_BROKER bodies are not supported; register uncompressed").build();
        }
        if (header.bodyCrc32() != null && header.bodyCrc32() != 0 && header.bodyCrc32() != crc32(request.body())) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR)
                    .remark("REGISTER_BROKER body does not match its CRC32").build();
        }
        TopicConfigSerializeWrapper topics = request.body().length == 0
                ? new TopicConfigSerializeWrapper(Map.of(), new DataVersion(0, 0, 0))
                : json.decode(request.body(), RegisterBrokerBody.class).topicConfigSerializeWrapper();
        DataVersion version = topics.dataVersion() == null ? new DataVersion(0, 0, 0) : topics.dataVersion();
        routes.register(header.clusterName(), header.brokerName(), header.brokerAddr(), header.brokerId(),
                header.haServerAddr(), Boolean.TRUE.equals(header.enableActingMaster()), version,
                topics.topicConfigTable(), context.channel().id());
        String master = routes.masterAddress(header.brokerName());
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                .header(new RegisterBrokerResponseHeader(null, master)).build();
    }

    private static int crc32(byte[] body) {
        CRC32 crc = new CRC32();
        crc.update(body);
        // RocketMQ keeps the CRC as a positive int.
        return (int) (crc.getValue() & 0x7FFFFFFF);
    }

    private RemotingCommand unregister(RemotingCommand request) {
        UnregisterBrokerRequestHeader header = request.header(UnregisterBrokerRequestHeader.class);
        routes.unregister(header.brokerAddr());
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }

    private RemotingCommand route(RemotingCommand request) {
        String topic = request.header(GetRouteInfoRequestHeader.class).topic();
        TopicRouteData route = routes.route(topic);
        if (route == null) {
            return RemotingCommand.responseTo(request, ResponseCode.TOPIC_NOT_EXIST)
                    .remark("No topic route info in name server for the topic: " + topic).build();
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(json.encode(route)).build();
    }
}
