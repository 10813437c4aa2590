package dev.ferry.remoting.protocol.body;

import java.util.Set;

/** Body of LOCK_BATCH_MQ and UNLOCK_BATCH_MQ: the queues a client of a group wants (or gives up). */
public record LockBatchRequestBody(String consumerGroup, String clientId, Set<MessageQueueBody> mqSet,
                                   boolean onlyThisBroker) {

    public LockBatchRequestBody {
        mqSet = mqSet == null ? Set.of() : Set.copyOf(mqSet);
    }
}
