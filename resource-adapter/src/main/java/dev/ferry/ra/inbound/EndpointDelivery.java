package dev.ferry.ra.inbound;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The push consumer's listener for one activation: delivers each message to a fresh {@link MessageEndpoint}
 * ({@code createEndpoint}, {@code beforeDelivery}, {@code onMessage}, {@code afterDelivery}, and {@code release}
 * in {@code finally}). A normal return acknowledges the message; an exception from any step (an unavailable
 * endpoint, a failing bean, a failing {@code afterDelivery}) is rethrown, which makes the consumer deliver the
 * message again later.
 *
 * <p>An endpoint the server cannot give now ({@code createEndpoint} throws {@link UnavailableException}, as while
 * the application starts or stops) is not a failed delivery: the call backs off (50 ms, doubling up to 5 s) and
 * asks again, keeping the message, until the server gives one or the activation closes. A failed delivery would
 * count against the message's retries and could send it to the dead-letter queue.
 *
 * <p>Called on the consumer's consume threads, at most {@code maxConcurrency} at once. {@link #close} shuts a
 * gate: later calls fail without touching the endpoint factory, and it waits for the calls already inside.
 */
final class EndpointDelivery implements MessageListener {
    private static final System.Logger LOG = System.getLogger(EndpointDelivery.class.getName());
    /** {@link MessageListener#onMessage}, what {@code beforeDelivery} is told will be called. */
    static final Method ON_MESSAGE = onMessageMethod();
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(50);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
    private static final long CLOSING_CHECK_MILLIS = 100;

    private final MessageEndpointFactory endpoints;
    private final String activation;
    private final Object gate = new Object();
    private int inside;
    private boolean closed;
    /** Whether the activation's consumer has begun to close; set once the consumer exists. */
    private volatile BooleanSupplier consumerClosing = () -> false;

    EndpointDelivery(MessageEndpointFactory endpoints, String activation) {
        this.endpoints = Objects.requireNonNull(endpoints, "endpoints");
        this.activation = activation;
    }

    private static Method onMessageMethod() {
        try {
            return MessageListener.class.getMethod("onMessage", ReceivedMessage.class);
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
        synchronized (gate) {
            if (closed) {
                throw deactivated(message);
            }
            inside++;
        }
        try {
            deliver(message);
        } finally {
            synchronized (gate) {
                inside--;
                gate.notifyAll();
            }
        }
    }

    private void deliver(ReceivedMessage message) throws Exception {
        MessageEndpoint endpoint = createEndpoint(message);
        try {
            endpoint.beforeDelivery(ON_MESSAGE);
            Throwable failure = null;
            try {
                ((MessageListener) endpoint).onMessage(message);
            } catch (Throwable e) {
                failure = e;
            }
            try {
                endpoint.afterDelivery();
            } catch (Throwable e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
            if (failure != null) {
                LOG.log(Level.DEBUG, () -> "FERRY-RA-0211 " + activation + ": delivery of " + message.msgId()
                        + " failed; it will be delivered again", failure);
                throwUnchecked(failure);
            }
        } finally {
            endpoint.release();
        }
    }

    private MessageEndpoint createEndpoint(ReceivedMessage message) throws Exception {
        long backoff = FIRST_BACKOFF.toMillis();
        boolean logged = false;
        while (true) {
            try {
                return endpoints.createEndpoint(null);
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
        long deadline = System.nanoTime() + millis * 1_000_000;
        synchronized (gate) {
            while (!closed && !consumerClosing.getAsBoolean()) {
                long left = deadline - System.nanoTime();
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
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (gate) {
            closed = true;
            gate.notifyAll(); // calls backing off for an endpoint give up now
            while (inside > 0) {
                long left = deadline - System.nanoTime();
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
