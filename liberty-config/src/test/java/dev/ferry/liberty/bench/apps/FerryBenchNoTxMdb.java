package dev.ferry.liberty.bench.apps;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

/** {@link FerryBenchMdb} delivered outside any transaction (NOT_SUPPORTED). */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = FerryBenchMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = "bench"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class FerryBenchNoTxMdb implements MessageListener {
    @Inject
    private Throughput throughput;

    @Override
    public void onMessage(ReceivedMessage message) {
        throughput.delivered();
    }
}
