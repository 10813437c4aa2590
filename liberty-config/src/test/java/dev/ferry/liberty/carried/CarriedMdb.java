package dev.ferry.liberty.carried;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.liberty.apps.Deliveries;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;

/** Selects with the filter plugin its own application carries. Orderly: see {@code RegexMdb}. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = CarriedMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = "carried-app"),
        @ActivationConfigProperty(propertyName = "selectorType", propertyValue = VersionFilterProvider.TYPE),
        @ActivationConfigProperty(propertyName = "consumeMode", propertyValue = "ORDERLY"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
public class CarriedMdb implements MessageListener {
    public static final String TOPIC = "carried-orders";

    @Inject
    private Deliveries deliveries;

    @Override
    public void onMessage(ReceivedMessage message) {
        deliveries.begin("CarriedMdb", message);
        deliveries.end("CarriedMdb", message);
    }
}
