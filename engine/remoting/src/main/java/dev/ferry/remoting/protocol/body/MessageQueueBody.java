package dev.ferry.remoting.protocol.body;

/** A message queue as lock and unlock bodies name it. */
public record MessageQueueBody(String topic, String brokerName, int queueId) {
}
