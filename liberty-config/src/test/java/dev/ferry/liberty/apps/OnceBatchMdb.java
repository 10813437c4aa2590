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
import java.sql.SQLException;
import java.util.List;

/**
 * {@link OnceMdb} with batches: a batch of up to eight messages is one transaction, its rows and the group's offset
 * (offsetStore=jdbc) committed together. The first message of a batch waits for the test's {@link OnceAllowance};
 * the others are processed while permits are free, and the batch ends at the first without one
 * ({@code failedFrom}): that message and the rest come again in the next batch.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = OnceBatchMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = OnceBatchMdb.GROUP),
        @ActivationConfigProperty(propertyName = "consumeMode", propertyValue = "ORDERLY"),
        @ActivationConfigProperty(propertyName = "maxBatchSize", propertyValue = "8"),
        @ActivationConfigProperty(propertyName = "offsetStore", propertyValue = "jdbc"),
        @ActivationConfigProperty(propertyName = "offsetStoreDataSource", propertyValue = "jdbc/txdb"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class OnceBatchMdb implements BatchMessageListener {
    public static final String TOPIC = "once-batch-topic";
    public static final String GROUP = "once-batch-app";

    @Inject
    private TxService service;

    @Resource
    private TransactionSynchronizationRegistry transaction;

    @Override
    public BatchResult onMessages(List<ReceivedMessage> messages) throws SQLException, InterruptedException {
        for (int i = 0; i < messages.size(); i++) {
            ReceivedMessage message = messages.get(i);
            if (i == 0) {
                OnceAllowance.take(transaction);
            } else if (!OnceAllowance.tryTake(transaction)) {
                return BatchResult.failedFrom(message);
            }
            service.insert("DELIVERIES", new String(message.body(), StandardCharsets.UTF_8));
        }
        return BatchResult.consumed();
    }
}
