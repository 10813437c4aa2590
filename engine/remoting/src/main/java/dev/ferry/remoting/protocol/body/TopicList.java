package dev.ferry.remoting.protocol.body;

import java.util.List;

/** Topic names, as GET_ALL_TOPIC_LIST_FROM_NAMESERVER answers ({@code brokerAddr} only for system topic lists). */
public record TopicList(List<String> topicList, String brokerAddr) {

    public TopicList {
        topicList = topicList == null ? List.of() : List.copyOf(topicList);
    }
}
