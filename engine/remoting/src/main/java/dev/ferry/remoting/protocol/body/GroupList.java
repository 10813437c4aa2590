package dev.ferry.remoting.protocol.body;

import java.util.Set;
import java.util.TreeSet;

/** Consumer group names, as QUERY_TOPIC_CONSUME_BY_WHO answers. */
public record GroupList(Set<String> groupList) {

    public GroupList {
        groupList = groupList == null ? Set.of() : java.util.Collections.unmodifiableSet(new TreeSet<>(groupList));
    }
}
