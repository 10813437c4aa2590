package dev.ferry.remoting.protocol.body;

import java.util.List;

/** Body of REGISTER_BROKER. */
public record RegisterBrokerBody(TopicConfigSerializeWrapper topicConfigSerializeWrapper,
                                 List<String> filterServerList) {

    public RegisterBrokerBody {
        filterServerList = filterServerList == null ? List.of() : List.copyOf(filterServerList);
    }
}
