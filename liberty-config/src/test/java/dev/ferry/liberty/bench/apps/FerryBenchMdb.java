package dev.ferry.liberty.bench.apps;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;

/** An empty bean on Ferry's adapter; only counts. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = FerryBenchMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = "bench"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
public class FerryBenchMdb implements MessageListener {
    public static final String TOPIC = "bench";

    @Inject
    private Throughput throughput;

    @Override
    public void onMessage(ReceivedMessage message) {
        throughput.delivered();
    }
}
