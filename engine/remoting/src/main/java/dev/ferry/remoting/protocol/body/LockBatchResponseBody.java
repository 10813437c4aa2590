package dev.ferry.remoting.protocol.body;

import java.util.Set;

/** Body of the LOCK_BATCH_MQ response: the queues now locked to the client. */
public record LockBatchResponseBody(Set<MessageQueueBody> lockOKMQSet) {

    public LockBatchResponseBody {
        lockOKMQSet = lockOKMQSet == null ? Set.of() : Set.copyOf(lockOKMQSet);
    }
}
