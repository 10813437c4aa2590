package dev.ferry.remoting.protocol.body;

import java.util.Map;

/** A broker's topic configs with their version, as it registers them with name servers. */
public record TopicConfigSerializeWrapper(Map<String, TopicConfig> topicConfigTable, DataVersion dataVersion) {

    public TopicConfigSerializeWrapper {
        topicConfigTable = topicConfigTable == null ? Map.of() : Map.copyOf(topicConfigTable);
    }
}
