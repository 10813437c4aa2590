package dev.ferry.remoting.protocol.body;

/** A producer group a client's heartbeat names. */
public record ProducerData(String groupName) {
}
