package dev.ferry.server.namesrv;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.KvTable;
import dev.ferry.remoting.protocol.body.PropertiesText;
import dev.ferry.remoting.protocol.body.TopicList;
import dev.ferry.remoting.protocol.header.DeleteTopicFromNamesrvRequestHeader;
import dev.ferry.remoting.protocol.header.GetKvConfigResponseHeader;
import dev.ferry.remoting.protocol.header.KvConfigRequestHeader;
import dev.ferry.remoting.protocol.header.KvNamespaceRequestHeader;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What Apache's admin tools ask a name server besides routes: every topic (GET_ALL_TOPIC_LIST_FROM_NAMESERVER), a
 * topic's route removed (DELETE_TOPIC_IN_NAMESRV), the key-value configuration, and the name server's own
 * configuration (GET_NAMESRV_CONFIG; UPDATE_NAMESRV_CONFIG is refused: nothing of it changes while it runs).
 */
final class NameServerAdminProcessor implements RequestProcessor {
    static final int[] CODES = {RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, RequestCode.DELETE_TOPIC_IN_NAMESRV,
        RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_NS,
        RequestCode.PUT_KV_CONFIG, RequestCode.GET_KV_CONFIG, RequestCode.DELETE_KV_CONFIG,
        RequestCode.GET_KVLIST_BY_NAMESPACE, RequestCode.GET_NAMESRV_CONFIG, RequestCode.UPDATE_NAMESRV_CONFIG};

    private final RouteTable routes;
    private final KvConfigTable kv;
    private final NameServerConfig config;
    private final BodyCodec json;

    NameServerAdminProcessor(RouteTable routes, KvConfigTable kv, NameServerConfig config, BodyCodec json) {
        this.routes = routes;
        this.kv = kv;
        this.config = config;
        this.json = json;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER ->
                    ok(request, json.encode(new TopicList(routes.topicNames(), null)));
            case RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_NS -> ok(request, json.encode(routes.systemTopics()));
            case RequestCode.DELETE_TOPIC_IN_NAMESRV -> {
                DeleteTopicFromNamesrvRequestHeader h = request.header(DeleteTopicFromNamesrvRequestHeader.class);
                routes.deleteTopic(h.topic(), h.clusterName());
                yield RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
            }
            case RequestCode.PUT_KV_CONFIG -> putKv(request);
            case RequestCode.GET_KV_CONFIG -> {
                KvConfigRequestHeader h = request.header(KvConfigRequestHeader.class);
                Optional<String> value = kv.get(h.namespace(), h.key());
                yield value.map(v -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                                .header(new GetKvConfigResponseHeader(v)).build())
                        .orElseGet(() -> error(request, ResponseCode.QUERY_NOT_FOUND, "No config item, Namespace: "
                                + h.namespace() + " Key: " + h.key()));
            }
            case RequestCode.DELETE_KV_CONFIG -> {
                KvConfigRequestHeader h = request.header(KvConfigRequestHeader.class);
                yield answer(request, kv.delete(h.namespace(), h.key()));
            }
            case RequestCode.GET_KVLIST_BY_NAMESPACE -> {
                String namespace = request.header(KvNamespaceRequestHeader.class).namespace();
                yield kv.namespace(namespace).map(table -> ok(request, json.encode(new KvTable(table))))
                        .orElseGet(() -> error(request, ResponseCode.QUERY_NOT_FOUND, "No config item, Namespace: "
                                + namespace));
            }
            case RequestCode.GET_NAMESRV_CONFIG -> ok(request, PropertiesText.encode(configuration()));
            case RequestCode.UPDATE_NAMESRV_CONFIG -> error(request, ResponseCode.NO_PERMISSION,
                    "Ferry's name server configuration cannot be changed while it runs; change its --config and "
                            + "restart it");
            default -> RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED).build();
        };
    }

    private RemotingCommand putKv(RemotingCommand request) {
        KvConfigRequestHeader h = request.header(KvConfigRequestHeader.class);
        if (h.value() == null) {
            return error(request, ResponseCode.SYSTEM_ERROR, "namespace or key is null");
        }
        return answer(request, kv.put(h.namespace(), h.key(), h.value()));
    }

    private static RemotingCommand answer(RemotingCommand request, Optional<KvConfigTable.Refusal> refusal) {
        return refusal.map(r -> error(request, r.code(), r.remark()))
                .orElseGet(() -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build());
    }

    /** By Apache's key names where it has them. */
    private Map<String, String> configuration() {
        Map<String, String> values = new TreeMap<>();
        values.put("listenPort", String.valueOf(config.port()));
        values.put("bindAddress", config.host());
        values.put("scanNotActiveBrokerInterval", String.valueOf(config.scanInterval().toMillis()));
        values.put("brokerChannelExpiredTime", String.valueOf(config.brokerExpiry().toMillis()));
        values.put("enableAllTopicList", "true");
        values.put("orderMessageEnable", "false");
        values.put("maxTopics", String.valueOf(config.maxTopics()));
        values.put("maxBrokers", String.valueOf(config.maxBrokers()));
        values.put("maxKvBytes", String.valueOf(config.maxKvBytes()));
        config.kvConfigPath().ifPresent(path -> values.put("kvConfigPath", path.toString()));
        return values;
    }

    private static RemotingCommand ok(RemotingCommand request, byte[] body) {
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(body).build();
    }

    private static RemotingCommand error(RemotingCommand request, int code, String remark) {
        return RemotingCommand.responseTo(request, code).remark(remark).build();
    }
}
