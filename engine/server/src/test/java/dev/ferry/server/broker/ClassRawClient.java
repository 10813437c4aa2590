package dev.ferry.server.broker;

import org.apache.rocketmq.remoting.InvokeCallback;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One raw Apache remoting client for a whole test class, registered as a static extension. Its shutdown waits about
 * 3 s for the client's event thread, so a class pays it once rather than once a test; each test names its own
 * server's address, so sharing the client keeps the tests independent.
 */
final class ClassRawClient implements BeforeAllCallback, AfterAllCallback {
    private NettyRemotingClient client;

    @Override
    public void beforeAll(ExtensionContext context) {
        client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        client.shutdown();
    }

    RemotingCommand invokeSync(String address, RemotingCommand request, long timeoutMillis) throws Exception {
        return client.invokeSync(address, request, timeoutMillis);
    }

    void invokeAsync(String address, RemotingCommand request, long timeoutMillis, InvokeCallback callback)
            throws Exception {
        client.invokeAsync(address, request, timeoutMillis, callback);
    }
}
