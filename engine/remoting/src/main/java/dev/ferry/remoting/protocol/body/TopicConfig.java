package dev.ferry.remoting.protocol.body;

import java.util.Map;

/**
 * A topic as a broker serves it.
 *
 * @param perm permission bits: 4 read, 2 write, 1 inherit (see {@link Permission})
 */
public record TopicConfig(String topicName, int readQueueNums, int writeQueueNums, int perm, String topicFilterType,
                          int topicSysFlag, boolean order, Map<String, String> attributes) {

    public TopicConfig {
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        topicFilterType = topicFilterType == null ? "SINGLE_TAG" : topicFilterType;
    }

    /** A read-write topic with {@code queues} read and write queues. */
    public static TopicConfig of(String name, int queues) {
        return new TopicConfig(name, queues, queues, Permission.READ | Permission.WRITE, "SINGLE_TAG", 0, false,
                Map.of());
    }
}
