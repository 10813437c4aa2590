package dev.ferry.remoting.internal;

import dev.ferry.format.Clock;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingConnectException;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.RemotingSendException;
import dev.ferry.remoting.RemotingTimeoutException;
import dev.ferry.remoting.RemotingTooManyRequestsException;
import io.netty.channel.Channel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * Sends requests over channels and pairs responses with them: assigns opaques, bounds the
 * asynchronous and oneway requests in flight, and completes asynchronous calls on the callback
 * executor so that no user callback runs on an event loop.
 */
public final class ChannelInvoker {
    private final AtomicInteger nextOpaque = new AtomicInteger();
    private final PendingRequests pending = new PendingRequests();
    private final Semaphore asyncPermits;
    private final Semaphore onewayPermits;
    private final Executor callbackExecutor;
    private final Clock clock;
    /** What every request this endpoint sends goes through first (a client's signature), identity by default. */
    private volatile UnaryOperator<RemotingCommand> outbound = UnaryOperator.identity();

    public ChannelInvoker(int asyncPermits, int onewayPermits, Executor callbackExecutor, Clock clock) {
        this.clock = clock;
        this.asyncPermits = new Semaphore(asyncPermits);
        this.onewayPermits = new Semaphore(onewayPermits);
        this.callbackExecutor = callbackExecutor;
    }

    /** Passes every request sent from now on, through any channel, through {@code decorator} first. */
    public void decorateRequests(UnaryOperator<RemotingCommand> decorator) {
        this.outbound = java.util.Objects.requireNonNull(decorator, "decorator");
    }

    public PendingRequests pending() {
        return pending;
    }

    public RemotingCommand invokeSync(Channel channel, RemotingCommand request, Duration timeout) {
        long timeoutNanos = timeout.toNanos();
        PendingRequests.Entry entry = send(channel, request, timeoutNanos, null, null);
        try {
            return entry.future.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            RemotingTimeoutException timeoutException = new RemotingTimeoutException("no response from "
                    + channel.remoteAddress() + " to " + request + " within " + timeout.toMillis() + " ms");
            pending.fail(entry.opaque, timeoutException);
            throw timeoutException;
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pending.fail(entry.opaque, new RemotingException("interrupted"));
            throw new RemotingException("interrupted while waiting for a response from " + channel.remoteAddress(), e);
        }
    }

    public CompletableFuture<RemotingCommand> invokeAsync(Channel channel, RemotingCommand request, Duration timeout) {
        long timeoutNanos = timeout.toNanos();
        if (!acquire(asyncPermits, timeoutNanos)) {
            return CompletableFuture.failedFuture(new RemotingTooManyRequestsException(
                    "too many asynchronous requests in flight: no permit within " + timeout.toMillis() + " ms"));
        }
        return send(channel, request, timeoutNanos, callbackExecutor, asyncPermits::release).future;
    }

    public void invokeOneway(Channel channel, RemotingCommand request, Duration timeout) {
        if (!acquire(onewayPermits, timeout.toNanos())) {
            throw new RemotingTooManyRequestsException(
                    "too many oneway requests being sent: no permit within " + timeout.toMillis() + " ms");
        }
        RemotingCommand decorated = outbound.apply(request);
        RemotingCommand oneway = decorated.isOneway() ? decorated : decorated.toBuilder().oneway(true).build();
        if (!channel.isActive()) {
            onewayPermits.release();
            throw new RemotingConnectException("connection to " + channel.remoteAddress() + " is closed");
        }
        channel.writeAndFlush(oneway.withOpaque(nextOpaque.getAndIncrement()))
                .addListener(f -> onewayPermits.release());
    }

    private PendingRequests.Entry send(Channel channel, RemotingCommand undecorated, long timeoutNanos,
                                       Executor completer, Runnable release) {
        RemotingCommand request = outbound.apply(undecorated);
        int opaque = nextOpaque.getAndIncrement();
        PendingRequests.Entry entry = pending.register(opaque, channel, clock.nanos() + timeoutNanos,
                completer, release);
        if (!channel.isActive()) {
            pending.fail(opaque, new RemotingConnectException("connection to " + channel.remoteAddress()
                    + " is closed"));
            return entry;
        }
        channel.writeAndFlush(request.withOpaque(opaque)).addListener(f -> {
            if (!f.isSuccess()) {
                pending.fail(opaque, new RemotingSendException("cannot send " + request + " to "
                        + channel.remoteAddress() + ": " + f.cause(), f.cause()));
            }
        });
        return entry;
    }

    private static boolean acquire(Semaphore permits, long timeoutNanos) {
        try {
            return permits.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static RemotingException rethrow(Throwable cause) {
        if (cause instanceof RemotingException remoting) {
            return remoting;
        }
        return new RemotingException(String.valueOf(cause), cause);
    }
}
