package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
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

/**
 * Exactly once: each delivery inserts one row, in the container's transaction, and the group's offsets live in the
 * same database (offsetStore=jdbc), written in that transaction. Orderly, as the jdbc store requires. Each message
 * waits for the test's {@link OnceAllowance}.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = OnceMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = OnceMdb.GROUP),
        @ActivationConfigProperty(propertyName = "consumeMode", propertyValue = "ORDERLY"),
        @ActivationConfigProperty(propertyName = "offsetStore", propertyValue = "jdbc"),
        @ActivationConfigProperty(propertyName = "offsetStoreDataSource", propertyValue = "jdbc/txdb"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class OnceMdb implements MessageListener {
    public static final String TOPIC = "once-topic";
    public static final String GROUP = "once-app";

    @Inject
    private TxService service;

    @Resource
    private TransactionSynchronizationRegistry transaction;

    /** Waits until the test allows one more message, then inserts its row. */
    @Override
    public void onMessage(ReceivedMessage message) throws SQLException, InterruptedException {
        OnceAllowance.take(transaction);
        service.insert("DELIVERIES", new String(message.body(), StandardCharsets.UTF_8));
    }
}
