package dev.ferry.store;

/**
 * One consume queue's identity.
 *
 * @param topic   topic name
 * @param queueId queue id
 */
record QueueKey(String topic, int queueId) {
}
