package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.sql.SQLException;

/**
 * The fault harness's exactly-once consumer: the ordered topic of the harness's producers, orderly, each message one
 * row inserted in the container's transaction, the group's offsets in the same database (offsetStore=jdbc) and
 * committed with the row.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = FaultOnceMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = FaultOnceMdb.GROUP),
        @ActivationConfigProperty(propertyName = "consumeMode", propertyValue = "ORDERLY"),
        @ActivationConfigProperty(propertyName = "offsetStore", propertyValue = "jdbc"),
        @ActivationConfigProperty(propertyName = "offsetStoreDataSource", propertyValue = FaultRows.DATA_SOURCE),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class FaultOnceMdb implements MessageListener {
    /** The harness's ordered topic (its producers' eight order keys). */
    public static final String TOPIC = "ChaosOrder";
    public static final String GROUP = "liberty-once";

    @Inject
    private FaultRows rows;

    @Override
    public void onMessage(ReceivedMessage message) throws SQLException {
        rows.insert(message);
    }
}
