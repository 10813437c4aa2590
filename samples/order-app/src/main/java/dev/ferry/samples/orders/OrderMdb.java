package dev.ferry.samples.orders;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;

/**
 * Receives the {@code orders} topic through Ferry's resource adapter. Returning normally acknowledges a
 * message; throwing would have it delivered again later. The server's activation spec
 * ({@code order-app/OrderMdb} on Liberty) may add settings; the ones here win.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = OrderResource.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = "order-app"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "CONSUME_FROM_FIRST_OFFSET")
})
public class OrderMdb implements MessageListener {

    @Inject
    private ReceivedOrders received;

    @Override
    public void onMessage(ReceivedMessage message) {
        received.add(ReceivedOrder.of(message));
    }
}
