package dev.ferry.ra;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.transaction.xa.XAResource;

/**
 * A MessageEndpointFactory whose endpoints record every call (beforeDelivery, onMessage, afterDelivery,
 * release) and hand each message to a {@link Bean}, which may block or throw.
 */
public final class RecordingEndpointFactory implements MessageEndpointFactory {

    /** What the "message-driven bean" does with a message. */
    @FunctionalInterface
    public interface Bean {
        void onMessage(ReceivedMessage message) throws Exception;
    }

    /** One call on one endpoint. */
    public record Call(int endpoint, String step, Method method) {
    }

    private final Bean bean;
    private final AtomicInteger endpoints = new AtomicInteger();
    private final AtomicInteger released = new AtomicInteger();
    private final AtomicInteger concurrent = new AtomicInteger();
    private final AtomicInteger maxConcurrent = new AtomicInteger();
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final List<ReceivedMessage> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger refusalsLeft = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private volatile Class<?> endpointClass;

    public RecordingEndpointFactory(Bean bean) {
        this.bean = bean;
    }

    /** An endpoint factory whose bean accepts everything. */
    public static RecordingEndpointFactory accepting() {
        return new RecordingEndpointFactory(m -> { });
    }

    /** The bean's class is {@code type} (whose class loader stands for the bean's application). */
    public RecordingEndpointFactory endpointClass(Class<?> type) {
        this.endpointClass = type;
        return this;
    }

    public List<Call> calls() {
        return calls;
    }

    /** Every message given to onMessage, in call order. */
    public List<ReceivedMessage> received() {
        return received;
    }

    public int created() {
        return endpoints.get();
    }

    /** The next {@code count} createEndpoint calls fail with UnavailableException (an application starting up). */
    public RecordingEndpointFactory refuseEndpoints(int count) {
        refusalsLeft.set(count);
        return this;
    }

    /** How many createEndpoint calls failed with UnavailableException. */
    public int refused() {
        return refused.get();
    }

    public int released() {
        return released.get();
    }

    /** onMessage calls running now. */
    public int concurrent() {
        return concurrent.get();
    }

    /** The most onMessage calls that ever ran at once. */
    public int maxConcurrent() {
        return maxConcurrent.get();
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xaResource) throws UnavailableException {
        if (refusalsLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            refused.incrementAndGet();
            throw new UnavailableException("the application is not available yet");
        }
        return new Endpoint(endpoints.incrementAndGet());
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xaResource, long timeout) throws UnavailableException {
        return createEndpoint(xaResource);
    }

    @Override
    public boolean isDeliveryTransacted(Method method) {
        return false;
    }

    @Override
    public String getActivationName() {
        return "test-app/RecordingBean";
    }

    @Override
    public Class<?> getEndpointClass() {
        Class<?> type = endpointClass;
        return type != null ? type : Endpoint.class;
    }

    private final class Endpoint implements MessageEndpoint, MessageListener {
        private final int id;

        Endpoint(int id) {
            this.id = id;
        }

        @Override
        public void beforeDelivery(Method method) {
            calls.add(new Call(id, "beforeDelivery", method));
        }

        @Override
        public void onMessage(ReceivedMessage message) throws Exception {
            calls.add(new Call(id, "onMessage", null));
            received.add(message);
            maxConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
            try {
                bean.onMessage(message);
            } finally {
                concurrent.decrementAndGet();
            }
        }

        @Override
        public void afterDelivery() {
            calls.add(new Call(id, "afterDelivery", null));
        }

        @Override
        public void release() {
            calls.add(new Call(id, "release", null));
            released.incrementAndGet();
        }
    }
}
