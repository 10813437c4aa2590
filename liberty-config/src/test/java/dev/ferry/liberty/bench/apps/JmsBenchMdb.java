package dev.ferry.liberty.bench.apps;

import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** An empty bean on Liberty's built-in messaging engine (its activation spec is in server.xml); only counts. */
@MessageDriven
public class JmsBenchMdb implements MessageListener {
    @Inject
    private Throughput throughput;

    @Override
    public void onMessage(Message message) {
        throughput.delivered();
    }
}
