package dev.ferry.liberty.apps;

import dev.ferry.api.ReceivedMessage;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Every delivery to the test application's beans, in the order they began. */
@ApplicationScoped
public class Deliveries {
    private final List<Delivery> deliveries = new ArrayList<>();
    private final Set<String> running = new HashSet<>();

    /** Records the start of a delivery; {@link #end} must follow. */
    public synchronized void begin(String bean, ReceivedMessage message) {
        boolean overlapped = !running.add(bean + "/" + message.queueId());
        deliveries.add(Delivery.of(bean, message, overlapped));
    }

    private int batches;

    /** Records one call of a batch bean: every message of it, with the batch's number and transaction. */
    public synchronized void batch(String bean, List<ReceivedMessage> batch, String transaction) {
        int number = ++batches;
        for (ReceivedMessage message : batch) {
            deliveries.add(Delivery.of(bean, message, false, number, transaction));
        }
    }

    public synchronized void end(String bean, ReceivedMessage message) {
        running.remove(bean + "/" + message.queueId());
    }

    public synchronized List<Delivery> of(String bean) {
        return deliveries.stream().filter(d -> bean == null || d.bean().equals(bean)).toList();
    }

    public synchronized List<Delivery> all() {
        return new ArrayList<>(deliveries);
    }
}
