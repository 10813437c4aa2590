package dev.ferry.liberty.bench.apps;

import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** {@link JmsBenchMdb} delivered outside any transaction (NOT_SUPPORTED). */
@MessageDriven
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class JmsBenchNoTxMdb implements MessageListener {
    @Inject
    private Throughput throughput;

    @Override
    public void onMessage(Message message) {
        throughput.delivered();
    }
}
