package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.MessageDrivenContext;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;

/**
 * A bean delivered in the container's transaction: each delivery inserts a row, and a "rollback-twice" message is
 * rolled back (setRollbackOnly, no exception) on its first two deliveries.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = TxMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = TxMdb.GROUP),
        @ActivationConfigProperty(propertyName = "maxReconsumeTimes", propertyValue = "2"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class TxMdb implements MessageListener {
    public static final String TOPIC = "tx-deliveries";
    public static final String GROUP = "tx-app";

    @Resource
    private MessageDrivenContext context;

    @Inject
    private Deliveries deliveries;

    @Inject
    private TxService service;

    @Override
    public void onMessage(ReceivedMessage message) throws SQLException {
        deliveries.begin("TxMdb", message);
        deliveries.end("TxMdb", message);
        String body = new String(message.body(), StandardCharsets.UTF_8);
        service.insert("DELIVERIES", body);
        if (body.startsWith("rollback-twice") && message.reconsumeTimes() < 2) {
            context.setRollbackOnly();
        }
    }
}
