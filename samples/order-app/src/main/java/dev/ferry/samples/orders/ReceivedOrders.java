package dev.ferry.samples.orders;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** The most recent orders the bean received, oldest first; at most {@value #CAPACITY} are kept. */
@ApplicationScoped
public class ReceivedOrders {
    static final int CAPACITY = 10_000;

    private final Deque<ReceivedOrder> orders = new ArrayDeque<>();

    public synchronized void add(ReceivedOrder order) {
        if (orders.size() == CAPACITY) {
            orders.removeFirst();
        }
        orders.addLast(order);
    }

    public synchronized List<ReceivedOrder> list() {
        return List.copyOf(orders);
    }
}
