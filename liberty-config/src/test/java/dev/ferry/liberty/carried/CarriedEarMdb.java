package dev.ferry.liberty.carried;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.liberty.apps.Deliveries;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;

/** As {@link CarriedMdb}, in a web module of an EAR whose library directory holds the filter plugin. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = CarriedEarMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = "carried-ear"),
        @ActivationConfigProperty(propertyName = "selectorType", propertyValue = VersionFilterProvider.TYPE),
        @ActivationConfigProperty(propertyName = "consumeMode", propertyValue = "ORDERLY"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
public class CarriedEarMdb implements MessageListener {
    public static final String TOPIC = "carried-ear-orders";

    @Inject
    private Deliveries deliveries;

    @Override
    public void onMessage(ReceivedMessage message) {
        deliveries.begin("CarriedEarMdb", message);
        deliveries.end("CarriedEarMdb", message);
    }
}
