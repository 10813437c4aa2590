package dev.ferry.api;

/** How the consumers of one group share a topic's messages. */
public enum MessageModel {
    /** Each message goes to one consumer of the group; the group's queues are divided among its consumers. */
    CLUSTERING,
    /** Each message goes to every consumer of the group; each consumer reads every queue. */
    BROADCASTING
}
