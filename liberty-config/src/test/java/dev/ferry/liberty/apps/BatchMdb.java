package dev.ferry.liberty.apps;

import dev.ferry.api.BatchMessageListener;
import dev.ferry.api.BatchResult;
import dev.ferry.api.ReceivedMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A batch bean: up to five messages of one queue a call, in queue order, in one container transaction. A message
 * whose body starts with "fail-from" fails the batch from itself on, once.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = BatchMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = BatchMdb.GROUP),
        @ActivationConfigProperty(propertyName = "consumeMode", propertyValue = "ORDERLY"),
        @ActivationConfigProperty(propertyName = "maxBatchSize", propertyValue = "5"),
        @ActivationConfigProperty(propertyName = "maxBatchWait", propertyValue = "300ms"),
        @ActivationConfigProperty(propertyName = "redeliveryDelay", propertyValue = "200ms"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class BatchMdb implements BatchMessageListener {
    public static final String TOPIC = "ops-batches";
    public static final String GROUP = "ops-batch";
    private static final Set<String> FAILED_ONCE = ConcurrentHashMap.newKeySet();

    @Inject
    private Deliveries deliveries;

    @Resource
    private TransactionSynchronizationRegistry transactions;

    @Override
    public BatchResult onMessages(List<ReceivedMessage> messages) {
        Object key = transactions.getTransactionKey();
        deliveries.batch("BatchMdb", messages, key == null ? null : key.toString());
        for (ReceivedMessage message : messages) {
            String body = new String(message.body(), StandardCharsets.UTF_8);
            if (body.startsWith("fail-from") && FAILED_ONCE.add(message.msgId())) {
                return BatchResult.failedFrom(message);
            }
        }
        return BatchResult.consumed();
    }
}
