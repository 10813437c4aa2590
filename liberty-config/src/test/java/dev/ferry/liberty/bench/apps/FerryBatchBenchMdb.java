package dev.ferry.liberty.bench.apps;

import dev.ferry.api.BatchMessageListener;
import dev.ferry.api.BatchResult;
import dev.ferry.api.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import java.util.List;

/** An empty batch bean on Ferry's adapter, in the same group as {@link FerryBenchMdb}; only counts. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = FerryBenchMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = "bench"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "16"),
        @ActivationConfigProperty(propertyName = "maxBatchSize", propertyValue = "32"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
public class FerryBatchBenchMdb implements BatchMessageListener {

    @Inject
    private Throughput throughput;

    @Override
    public BatchResult onMessages(List<ReceivedMessage> messages) {
        throughput.delivered(messages.size());
        return BatchResult.consumed();
    }
}
