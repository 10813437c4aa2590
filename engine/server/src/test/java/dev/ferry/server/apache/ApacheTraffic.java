package dev.ferry.server.apache;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * Records the requests Apache's unmodified client sends, as they go on the wire (code, extension fields, body,
 * oneway), through the hook every Apache client accepts: real traffic to seed a fuzzer with.
 */
final class ApacheTraffic implements RPCHook {
    /** One recorded request. */
    record Request(int code, Map<String, String> fields, byte[] body, boolean oneway, String address) {
    }

    private final List<Request> requests = new CopyOnWriteArrayList<>();

    @Override
    public void doBeforeRequest(String remoteAddr, RemotingCommand request) {
        request.makeCustomHeaderToNet();
        Map<String, String> fields = request.getExtFields() == null ? Map.of() : new TreeMap<>(request.getExtFields());
        byte[] body = request.getBody() == null ? null : request.getBody().clone();
        requests.add(new Request(request.getCode(), Map.copyOf(fields), body, request.isOnewayRPC(), remoteAddr));
    }

    @Override
    public void doAfterResponse(String remoteAddr, RemotingCommand request, RemotingCommand response) {
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }
}
