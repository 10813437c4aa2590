package dev.ferry.ra.inbound;

import dev.ferry.api.BatchMessageListener;
import dev.ferry.api.BatchResult;
import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.Clock;
import dev.ferry.spi.ReadOffsetType;
import dev.ferry.spi.TransactionalOffsetStore;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;

/**
 * The push consumer's listener for one activation: delivers each message, or for a bean that implements
 * {@link BatchMessageListener} each batch, to a fresh {@link MessageEndpoint} ({@code createEndpoint},
 * {@code beforeDelivery}, {@code onMessage} or {@code onMessages}, {@code afterDelivery}, and {@code release} in
 * {@code finally}). A normal return acknowledges the message (what the batch bean says it consumed); an exception
 * from any step (an unavailable endpoint, a failing bean, a failing {@code afterDelivery}) is rethrown, which makes
 * the consumer deliver the message again later.
 *
 * <p>When the container delivers in a transaction ({@code isDeliveryTransacted}, a bean with REQUIRED), each delivery
 * passes a {@link DeliveryTransaction} to {@code createEndpoint}, which the container enlists: the message is
 * acknowledged only when that transaction commits and delivered again (reconsumeTimes + 1, to the dead-letter queue
 * past maxReconsumeTimes) when it rolls back. With an offset store that records offsets in the application's
 * database ({@link TransactionalOffsetStore}, such as {@code jdbc}), each delivery first claims its message in that
 * same transaction and skips a message a committed transaction consumed before: processed exactly once. A bean the
 * closing consumer interrupts has its transaction rolled back, whatever the container makes of the interruption (a
 * declared {@link InterruptedException} is an application exception, which would commit the claim without the work).
 *
 * <p>An endpoint the server cannot give now ({@code createEndpoint} throws {@link UnavailableException}, as while
 * the application starts or stops) is not a failed delivery: the call backs off (50 ms, doubling up to 5 s) and
 * asks again, keeping the message, until the server gives one or the activation closes. A failed delivery would
 * count against the message's retries and could send it to the dead-letter queue.
 *
 * <p>Called on the consumer's consume threads, at most {@code maxConcurrency} at once. {@link #close} shuts a
 * gate: later calls fail without touching the endpoint factory, and it waits for the calls already inside.
 */
final class EndpointDelivery implements MessageListener, BatchMessageListener {
    private static final System.Logger LOG = System.getLogger(EndpointDelivery.class.getName());
    /** {@link MessageListener#onMessage}, what {@code beforeDelivery} is told will be called. */
    static final Method ON_MESSAGE = listenerMethod(MessageListener.class, "onMessage", ReceivedMessage.class);
    /** {@link BatchMessageListener#onMessages}, the same for a batch bean. */
    static final Method ON_MESSAGES = listenerMethod(BatchMessageListener.class, "onMessages", List.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(50);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
    private static final long CLOSING_CHECK_MILLIS = 100;

    private final MessageEndpointFactory endpoints;
    private final String activation;
    /** Whether the bean is a {@link BatchMessageListener}. */
    private final boolean batches;
    /** Whether the container runs onMessage in a transaction (a bean with REQUIRED), asked once. */
    private final boolean transacted;
    private volatile boolean notEnlistedLogged;
    /** Where deliveries claim their messages, once the consumer's offset store is known. */
    private final CompletableFuture<Optional<TransactionalOffsetStore>> offsetClaims = new CompletableFuture<>();
    private final Object gate = new Object();
    private final Clock clock;
    private int inside;
    private boolean closed;
    /** Whether the activation's consumer has begun to close; set once the consumer exists. */
    private volatile BooleanSupplier consumerClosing = () -> false;

    /** @param batches whether the bean implements {@link BatchMessageListener} rather than MessageListener */
    EndpointDelivery(MessageEndpointFactory endpoints, String activation, boolean batches, Clock clock) {
        this.endpoints = Objects.requireNonNull(endpoints, "endpoints");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.activation = activation;
        this.batches = batches;
        this.transacted = deliveryTransacted(endpoints, activation, batches ? ON_MESSAGES : ON_MESSAGE);
    }

    /** Whether {@code endpoints} makes beans that take batches ({@link BatchMessageListener}). */
    static boolean takesBatches(MessageEndpointFactory endpoints) {
        try {
            Class<?> bean = endpoints.getEndpointClass();
            return bean != null && BatchMessageListener.class.isAssignableFrom(bean);
        } catch (RuntimeException | AbstractMethodError e) {
            return false;
        }
    }

    private static boolean deliveryTransacted(MessageEndpointFactory endpoints, String activation, Method method) {
        try {
            return endpoints.isDeliveryTransacted(method);
        } catch (NoSuchMethodException e) {
            LOG.log(Level.WARNING, "FERRY-RA-0216 {0}: the container does not know onMessage ({1}); delivering "
                    + "without a transaction", activation, e.getMessage());
            return false;
        }
    }

    private static Method listenerMethod(Class<?> listener, String name, Class<?> parameter) {
        try {
            return listener.getMethod(name, parameter);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Lets a delivery waiting for an endpoint give up as soon as the consumer begins to close. */
    void watch(BooleanSupplier closing) {
        this.consumerClosing = Objects.requireNonNull(closing, "closing");
    }

    @Override
    public void onMessage(ReceivedMessage message) throws Exception {
        enter(message);
        try {
            deliverOne(message);
        } finally {
            leave();
        }
    }

    /**
     * Delivers a batch to a batch bean in one endpoint call (one transaction when the bean is transacted), and
     * returns what the bean consumed of it.
     */
    @Override
    public BatchResult onMessages(List<ReceivedMessage> messages) throws Exception {
        enter(messages.get(0));
        try {
            return deliverBatch(messages);
        } finally {
            leave();
        }
    }

    private void enter(ReceivedMessage message) {
        synchronized (gate) {
            if (closed) {
                throw deactivated(message);
            }
            inside++;
        }
    }

    private void leave() {
        synchronized (gate) {
            inside--;
            gate.notifyAll();
        }
    }

    /**
     * A batch bean's delivery. With a transactional offset store, messages a committed transaction consumed
     * already are left out, and after the bean returned the offset is claimed up to the last message it consumed,
     * inside its transaction (all it was given when it threw: a transaction that commits despite an application
     * exception acknowledges the batch, as it does a single message). A claim that finds another transaction was
     * first votes the transaction down.
     */
    private BatchResult deliverBatch(List<ReceivedMessage> batch) throws Exception {
        String what = batch.get(0).msgId() + (batch.size() > 1 ? " and " + (batch.size() - 1) + " more" : "");
        return deliver(batch.get(0), what, ON_MESSAGES, (endpoint, claims, transaction) -> {
            List<ReceivedMessage> fresh = claims.isPresent() ? notConsumedBefore(claims.get(), batch) : batch;
            if (fresh.isEmpty()) {
                return BatchResult.consumed();
            }
            BatchResult result = null;
            Throwable thrown = null;
            try {
                result = ((BatchMessageListener) endpoint).onMessages(fresh);
            } catch (Throwable e) {
                thrown = e;
            }
            if (claims.isPresent()) {
                // a bean that threw is claimed in full: its transaction decides, commit or rollback
                claimThrough(claims.get(), fresh, thrown == null ? result : null, transaction, thrown);
            }
            if (thrown != null) {
                throw thrown;
            }
            return result == null ? BatchResult.consumed() : result;
        });
    }

    /**
     * A MessageListener bean's delivery. With a transactional offset store the message is claimed first, in the
     * delivery's transaction, and the bean is not called for a message a committed transaction consumed before.
     */
    private void deliverOne(ReceivedMessage message) throws Exception {
        deliver(message, message.msgId(), ON_MESSAGE, (endpoint, claims, transaction) -> {
            // in the container's transaction, begun by beforeDelivery: the offset commits with the bean's work
            if (claims.isEmpty() || claim(claims.get(), message, transaction)) {
                ((MessageListener) endpoint).onMessage(message);
            }
            return BatchResult.consumed();
        });
    }

    /** What a delivery does between {@code beforeDelivery} and {@code afterDelivery}. */
    @FunctionalInterface
    private interface BeanCall {
        BatchResult call(MessageEndpoint endpoint, Optional<TransactionalOffsetStore> claims,
                         DeliveryTransaction transaction) throws Throwable;
    }

    /**
     * One endpoint call: createEndpoint (with the transaction's resource when the bean is transacted),
     * beforeDelivery, {@code call}, afterDelivery, release. The container's transaction decides, not the exception:
     * an application exception that lets the transaction commit acknowledges what was delivered, a setRollbackOnly
     * without one does not.
     *
     * @param first the delivery's first message, named when it waits for an endpoint
     * @param what the delivered messages, as logs name them
     * @return what the bean consumed
     */
    private BatchResult deliver(ReceivedMessage first, String what, Method method, BeanCall call) throws Exception {
        Optional<TransactionalOffsetStore> claims = claims();
        DeliveryTransaction transaction = transacted ? new DeliveryTransaction() : null;
        MessageEndpoint endpoint = createEndpoint(first, transaction);
        try {
            endpoint.beforeDelivery(method);
            BatchResult result = null;
            Throwable failure = null;
            try {
                result = call.call(endpoint, claims, transaction);
            } catch (Throwable e) {
                failure = e;
                if (transaction != null && interruptedByClose(e)) {
                    // the consumer stopped the bean, it did not finish: its transaction must not commit, even when
                    // the container would take the interruption for an application exception
                    transaction.rollbackOnly("the stopping consumer interrupted the bean");
                }
            }
            failure = afterDelivery(endpoint, failure);
            if (transaction != null) {
                switch (transaction.outcome()) {
                    case COMMITTED -> {
                        if (failure != null) {
                            Throwable thrown = failure;
                            LOG.log(Level.DEBUG, () -> "FERRY-RA-0215 " + activation + ": the bean threw on " + what
                                    + " but its transaction committed; acknowledged", thrown);
                            return BatchResult.consumed();
                        }
                        return result;
                    }
                    case ROLLED_BACK -> {
                        if (failure == null) {
                            failure = new IllegalStateException("FERRY-RA-0214 " + activation + ": the transaction"
                                    + " of the delivery of " + what + " rolled back; it will be delivered again");
                        }
                    }
                    case NONE -> notEnlisted();
                }
            }
            if (failure != null) {
                Throwable logged = failure;
                LOG.log(Level.DEBUG, () -> "FERRY-RA-0211 " + activation + ": delivery of " + what
                        + " failed; it will be delivered again", logged);
                throwUnchecked(failure);
            }
            return result;
        } finally {
            endpoint.release();
        }
    }

    /** The messages of {@code batch} at or after the offset the store committed for their queue. */
    private List<ReceivedMessage> notConsumedBefore(TransactionalOffsetStore store, List<ReceivedMessage> batch) {
        long next = store.read(batch.get(0).messageQueue(), ReadOffsetType.READ_FROM_STORE);
        List<ReceivedMessage> fresh = batch.stream().filter(m -> m.queueOffset() >= next).toList();
        if (fresh.size() < batch.size()) {
            LOG.log(Level.DEBUG, () -> "FERRY-RA-0219 " + activation + ": " + (batch.size() - fresh.size())
                    + " messages of " + batch.get(0).messageQueue() + " before offset " + next
                    + " were consumed before; skipped");
        }
        return fresh;
    }

    /**
     * Claims the batch's offsets through the last message the bean consumed ({@code result} {@code null}: it threw,
     * all of them). A claim that fails, or finds another transaction consumed them, votes the transaction down.
     */
    private void claimThrough(TransactionalOffsetStore store, List<ReceivedMessage> fresh, BatchResult result,
                              DeliveryTransaction transaction, Throwable thrown) {
        int consumed = result == null ? fresh.size() : result.failedIndexIn(fresh);
        if (consumed == 0) {
            return;
        }
        ReceivedMessage last = fresh.get(consumed - 1);
        boolean claimed;
        try {
            claimed = store.claim(last.messageQueue(), last.queueOffset());
        } catch (RuntimeException e) {
            transaction.rollbackOnly("its offsets could not be recorded");
            if (thrown != null) {
                e.addSuppressed(thrown);
            }
            throw e;
        }
        if (!claimed) {
            transaction.rollbackOnly("another transaction consumed the batch first");
            throw new IllegalStateException("FERRY-RA-0225 " + activation + ": " + last.messageQueue() + " up to "
                    + last.queueOffset() + " was consumed by another transaction meanwhile; this one rolls back");
        }
    }

    private static Throwable afterDelivery(MessageEndpoint endpoint, Throwable failure) {
        try {
            endpoint.afterDelivery();
        } catch (Throwable e) {
            if (failure == null) {
                return e;
            }
            failure.addSuppressed(e);
        }
        return failure;
    }

    private Optional<TransactionalOffsetStore> claims() {
        try {
            return offsetClaims.join();
        } catch (CompletionException e) {
            throw (RuntimeException) e.getCause(); // noClaims: the reason, as is
        }
    }

    /** Whether {@code failure} is the consumer's closing interrupting the bean. */
    private boolean interruptedByClose(Throwable failure) {
        return consumerClosing.getAsBoolean()
                && (failure instanceof InterruptedException || Thread.currentThread().isInterrupted());
    }

    /**
     * Claims the message in the delivery's transaction; {@code false} when a committed transaction consumed it
     * already (the bean is not called). A failed claim votes the transaction down and fails the delivery.
     */
    private boolean claim(TransactionalOffsetStore store, ReceivedMessage message, DeliveryTransaction transaction) {
        try {
            boolean fresh = store.claim(message.messageQueue(), message.queueOffset());
            if (!fresh) {
                LOG.log(Level.DEBUG, () -> "FERRY-RA-0219 " + activation + ": " + message.msgId() + " at "
                        + message.messageQueue() + ":" + message.queueOffset() + " was consumed before; skipped");
            }
            return fresh;
        } catch (RuntimeException e) {
            transaction.rollbackOnly("its offset could not be recorded");
            throw e;
        }
    }

    /**
     * From now on each delivery claims its message in {@code store} inside its transaction (empty: no claims).
     * Deliveries wait for this to be said once, so none runs before the consumer's store is known.
     */
    void claimIn(Optional<TransactionalOffsetStore> store) {
        offsetClaims.complete(store);
    }

    /**
     * Deliveries waiting for {@link #claimIn}, and later ones, fail with {@code reason} instead: nothing runs without
     * the claim it may need. No effect once {@link #claimIn} was said.
     */
    void noClaims(String reason) {
        offsetClaims.completeExceptionally(new IllegalStateException("FERRY-RA-0224 " + activation + ": " + reason));
    }

    boolean transacted() {
        return transacted;
    }


    /** The container ran a transacted delivery without enlisting its resource: the bean's outcome alone decides. */
    private void notEnlisted() {
        if (!notEnlistedLogged) {
            notEnlistedLogged = true;
            LOG.log(Level.WARNING, "FERRY-RA-0217 {0}: the server delivers in a transaction but did not enlist the "
                    + "delivery''s resource; a rollback without an exception will not deliver the message again",
                    activation);
        }
    }

    private MessageEndpoint createEndpoint(ReceivedMessage message, DeliveryTransaction transaction)
            throws Exception {
        long backoff = FIRST_BACKOFF.toMillis();
        boolean logged = false;
        while (true) {
            try {
                return endpoints.createEndpoint(transaction);
            } catch (UnavailableException e) {
                if (!logged) {
                    LOG.log(Level.WARNING, "FERRY-RA-0213 {0}: no endpoint available ({1}); message {2} waits and"
                            + " is offered again", activation, e.getMessage(), message.msgId());
                    logged = true;
                }
                backOff(backoff, message);
                backoff = Math.min(backoff * 2, MAX_BACKOFF.toMillis());
            }
        }
    }

    /**
     * Waits {@code millis} unless the activation or its consumer closes meanwhile (checked at least every
     * {@value #CLOSING_CHECK_MILLIS} ms). Closing, or an interrupt (how a closing consumer stops its threads), ends
     * the wait with an exception: the consumer is stopping then, and leaves the message uncommitted for whoever
     * reads the queue next.
     */
    private void backOff(long millis, ReceivedMessage message) throws InterruptedException {
        long deadline = clock.nanos() + millis * 1_000_000;
        synchronized (gate) {
            while (!closed && !consumerClosing.getAsBoolean()) {
                long left = deadline - clock.nanos();
                if (left <= 0) {
                    return;
                }
                // close() wakes it; so does any delivery ending
                gate.wait(Math.max(1, Math.min(CLOSING_CHECK_MILLIS, left / 1_000_000)));
            }
        }
        throw deactivated(message);
    }

    private IllegalStateException deactivated(ReceivedMessage message) {
        return new IllegalStateException("FERRY-RA-0210 " + activation + " is deactivated; message "
                + message.msgId() + " will be delivered again");
    }

    private static void throwUnchecked(Throwable failure) throws Exception {
        if (failure instanceof Exception e) {
            throw e;
        }
        throw (Error) failure;
    }

    /**
     * Refuses further deliveries and waits up to {@code timeout} for the running ones.
     *
     * @return whether none is running any more
     */
    boolean close(Duration timeout) {
        long deadline = clock.nanos() + timeout.toNanos();
        // a delivery still waiting for the offset store fails (its message stays unconsumed): run without the
        // store's claim, it could process a message a second time
        noClaims("the activation closed before its offset store was known");
        synchronized (gate) {
            closed = true;
            gate.notifyAll(); // calls backing off for an endpoint give up now
            while (inside > 0) {
                long left = deadline - clock.nanos();
                if (left <= 0) {
                    LOG.log(Level.WARNING, "FERRY-RA-0212 {0}: {1} deliveries still run after {2}", activation,
                            String.valueOf(inside), timeout);
                    return false;
                }
                try {
                    gate.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }
}
