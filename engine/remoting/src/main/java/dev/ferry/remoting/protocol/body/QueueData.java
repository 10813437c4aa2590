package dev.ferry.remoting.protocol.body;

/** How many queues of a topic one broker serves, and with which permissions. */
public record QueueData(String brokerName, int readQueueNums, int writeQueueNums, int perm, int topicSysFlag) {
}
