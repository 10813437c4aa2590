package dev.ferry.strategies.offset;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.BrokerOffsetAccess;
import dev.ferry.spi.BrokerOffsetException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/** A fake of the client's broker access: offsets in a map, and queues whose broker is unreachable. */
final class RecordingBrokers implements BrokerOffsetAccess {

    final Map<MessageQueue, Long> offsets = new HashMap<>();
    final Set<MessageQueue> unreachable = new HashSet<>();

    @Override
    public OptionalLong query(MessageQueue queue) throws BrokerOffsetException {
        failIfUnreachable(queue);
        Long offset = offsets.get(queue);
        return offset == null ? OptionalLong.empty() : OptionalLong.of(offset);
    }

    @Override
    public void commit(MessageQueue queue, long nextOffset) throws BrokerOffsetException {
        failIfUnreachable(queue);
        offsets.put(queue, nextOffset);
    }

    private void failIfUnreachable(MessageQueue queue) throws BrokerOffsetException {
        if (unreachable.contains(queue)) {
            throw new BrokerOffsetException("timeout on " + queue, null);
        }
    }
}
