package dev.ferry.ra;

import dev.ferry.api.BatchMessageListener;
import dev.ferry.api.BatchResult;
import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

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

    /** What a batch "message-driven bean" does with a batch. */
    @FunctionalInterface
    public interface BatchBean {
        BatchResult onMessages(List<ReceivedMessage> messages) throws Exception;
    }

    /** One call on one endpoint. */
    public record Call(int endpoint, String step, Method method) {
    }

    private final Bean bean;
    /** {@code null} for a bean that takes one message a call. */
    private final BatchBean batchBean;
    private final List<List<ReceivedMessage>> batches = new CopyOnWriteArrayList<>();
    private final AtomicInteger endpoints = new AtomicInteger();
    private final AtomicInteger released = new AtomicInteger();
    private final AtomicInteger concurrent = new AtomicInteger();
    private final AtomicInteger maxConcurrent = new AtomicInteger();
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final List<ReceivedMessage> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger refusalsLeft = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private volatile Class<?> endpointClass;
    private volatile String activationName = "test-app/RecordingBean";
    private volatile boolean transacted;
    private final AtomicInteger commits = new AtomicInteger();
    private final AtomicInteger rollbacks = new AtomicInteger();
    private static final ThreadLocal<Boolean> ROLLBACK_ONLY = ThreadLocal.withInitial(() -> false);

    public RecordingEndpointFactory(Bean bean) {
        this.bean = bean;
        this.batchBean = null;
    }

    private RecordingEndpointFactory(BatchBean batchBean) {
        this.bean = null;
        this.batchBean = batchBean;
    }

    /** An endpoint factory whose beans implement BatchMessageListener and hand each batch to {@code bean}. */
    public static RecordingEndpointFactory batches(BatchBean bean) {
        return new RecordingEndpointFactory(bean);
    }

    /** Every batch given to onMessages, in call order. */
    public List<List<ReceivedMessage>> batches() {
        return batches;
    }

    /** An endpoint factory whose bean accepts everything. */
    public static RecordingEndpointFactory accepting() {
        return new RecordingEndpointFactory(m -> { });
    }

    /** The bean's name in its application, which names its activation (two beans of one server differ in it). */
    public RecordingEndpointFactory activationName(String name) {
        this.activationName = name;
        return this;
    }

    /** The bean's class is {@code type} (whose class loader stands for the bean's application). */
    public RecordingEndpointFactory endpointClass(Class<?> type) {
        this.endpointClass = type;
        return this;
    }

    /**
     * Delivers in a transaction, as a container does for a bean with REQUIRED: the resource given to createEndpoint
     * is enlisted before onMessage and told the outcome after it: rollback when the bean threw a runtime exception or
     * called {@link #setRollbackOnly()}, else prepare and commit.
     */
    public RecordingEndpointFactory transacted() {
        this.transacted = true;
        return this;
    }

    /** Called by the bean: its delivery's transaction must roll back. */
    public static void setRollbackOnly() {
        ROLLBACK_ONLY.set(true);
    }

    public int commits() {
        return commits.get();
    }

    public int rollbacks() {
        return rollbacks.get();
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
        int id = endpoints.incrementAndGet();
        XAResource enlisted = transacted ? xaResource : null;
        return batchBean != null ? new BatchEndpoint(id, enlisted) : new Endpoint(id, enlisted);
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xaResource, long timeout) throws UnavailableException {
        return createEndpoint(xaResource);
    }

    @Override
    public boolean isDeliveryTransacted(Method method) {
        return transacted;
    }

    @Override
    public String getActivationName() {
        return activationName;
    }

    @Override
    public Class<?> getEndpointClass() {
        Class<?> type = endpointClass;
        return type != null ? type : batchBean != null ? BatchEndpoint.class : Endpoint.class;
    }

    /** A transaction branch id of the fake container. */
    private record TestXid(int getFormatId, byte[] getGlobalTransactionId, byte[] getBranchQualifier) implements Xid {
    }

    /** A batch bean's endpoint: the adapter calls onMessages. */
    private final class BatchEndpoint extends Endpoint implements BatchMessageListener {
        BatchEndpoint(int id, XAResource enlisted) {
            super(id, enlisted);
        }

        @Override
        public BatchResult onMessages(List<ReceivedMessage> messages) throws Exception {
            calls.add(new Call(id, "onMessages", null));
            batches.add(List.copyOf(messages));
            received.addAll(messages);
            maxConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
            try {
                return batchBean.onMessages(messages);
            } catch (RuntimeException e) {
                ROLLBACK_ONLY.set(true);
                throw e;
            } finally {
                concurrent.decrementAndGet();
            }
        }
    }

    private class Endpoint implements MessageEndpoint, MessageListener {
        final int id;
        private final XAResource enlisted;
        private final Xid xid;

        Endpoint(int id, XAResource enlisted) {
            this.id = id;
            this.enlisted = enlisted;
            this.xid = new TestXid(1, ("delivery-" + id).getBytes(StandardCharsets.UTF_8),
                    new byte[] {1});
        }

        @Override
        public void beforeDelivery(Method method) throws ResourceException {
            calls.add(new Call(id, "beforeDelivery", method));
            ROLLBACK_ONLY.set(false);
            if (enlisted != null) {
                try {
                    enlisted.start(xid, XAResource.TMNOFLAGS);
                } catch (XAException e) {
                    throw new ResourceException(e);
                }
            }
        }

        @Override
        public void onMessage(ReceivedMessage message) throws Exception {
            calls.add(new Call(id, "onMessage", null));
            received.add(message);
            maxConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
            try {
                bean.onMessage(message);
            } catch (RuntimeException e) {
                ROLLBACK_ONLY.set(true); // a system exception rolls the container's transaction back
                throw e;
            } finally {
                concurrent.decrementAndGet();
            }
        }

        @Override
        public void afterDelivery() throws ResourceException {
            calls.add(new Call(id, "afterDelivery", null));
            if (enlisted == null) {
                return;
            }
            try {
                boolean rollback = ROLLBACK_ONLY.get();
                enlisted.end(xid, rollback ? XAResource.TMFAIL : XAResource.TMSUCCESS);
                if (rollback) {
                    enlisted.rollback(xid);
                    rollbacks.incrementAndGet();
                } else if (prepared()) {
                    enlisted.commit(xid, false);
                    commits.incrementAndGet();
                }
            } catch (XAException e) {
                throw new ResourceException(e);
            } finally {
                ROLLBACK_ONLY.set(false);
            }
        }

        /** Phase one; a resource that votes no rolls the transaction back. */
        private boolean prepared() throws XAException {
            try {
                return enlisted.prepare(xid) == XAResource.XA_OK;
            } catch (XAException e) {
                if (e.errorCode < XAException.XA_RBBASE || e.errorCode > XAException.XA_RBEND) {
                    throw e;
                }
                enlisted.rollback(xid);
                rollbacks.incrementAndGet();
                return false;
            }
        }

        @Override
        public void release() {
            calls.add(new Call(id, "release", null));
            released.incrementAndGet();
        }
    }
}
