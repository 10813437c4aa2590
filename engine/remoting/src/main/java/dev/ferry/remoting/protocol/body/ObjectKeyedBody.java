package dev.ferry.remoting.protocol.body;

/**
 * A body holding maps keyed by message queues, which Apache's peers write with object keys ({@link ObjectKeys});
 * {@link BodyCodec} reads such bodies through {@link ObjectKeys#quoted} and writes their maps the same way
 * ({@link QueueKeyedMapSerializer}), so fastjson 1 and 2 peers both read them.
 */
public interface ObjectKeyedBody {
}
