package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;

/** Reads the dead letters of {@link FailingMdb}'s group, as an application handling them would. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = "%DLQ%" + FailingMdb.GROUP),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = FailingMdb.GROUP + "-dlq"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
public class DeadLetterMdb implements MessageListener {
    @Inject
    private Deliveries deliveries;

    @Override
    public void onMessage(ReceivedMessage message) {
        deliveries.begin("DeadLetterMdb", message);
        deliveries.end("DeadLetterMdb", message);
    }
}
