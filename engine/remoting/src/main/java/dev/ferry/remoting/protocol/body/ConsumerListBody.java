package dev.ferry.remoting.protocol.body;

import java.util.List;

/** Body of the GET_CONSUMER_LIST_BY_GROUP response: the live client ids of a group. */
public record ConsumerListBody(List<String> consumerIdList) {

    public ConsumerListBody {
        consumerIdList = consumerIdList == null ? List.of() : List.copyOf(consumerIdList);
    }
}
