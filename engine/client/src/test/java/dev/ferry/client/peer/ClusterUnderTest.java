package dev.ferry.client.peer;

/**
 * A running name server and broker the client suite talks to: Apache RocketMQ 5.3.3 now
 * ({@link ApachePeer}), ferry-server later.
 */
public interface ClusterUnderTest {

    /** {@code host:port} of the name server. */
    String nameServerAddress();
}
