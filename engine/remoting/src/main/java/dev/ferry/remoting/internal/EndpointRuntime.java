package dev.ferry.remoting.internal;

import dev.ferry.format.Clock;
import dev.ferry.remoting.ConnectionEvent;
import dev.ferry.remoting.ConnectionListener;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.codec.CommandCodec;
import dev.ferry.remoting.protocol.SerializeType;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.timeout.IdleStateHandler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * What a server and a client share: codec, invoker, dispatcher, the connection pipeline, and
 * two small thread pools from the owner's {@link ThreadFactory}: a housekeeping thread (expiry
 * scan, connection events in order) and the callback threads that complete asynchronous calls.
 */
public final class EndpointRuntime implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(EndpointRuntime.class.getName());
    /** The most writes one flush waits for while more are queued. */
    private static final int FLUSH_AFTER = 256;

    private final CommandCodec codec = new CommandCodec();
    private final RequestDispatcher dispatcher;
    private final List<ConnectionListener> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService housekeeper;
    private final ExecutorService callbacks;
    private final ChannelInvoker invoker;
    private final CommandHandler handler;
    private final CommandEncoder encoder;
    private final int maxFrameLength;
    private final Duration maxIdleTime;
    private final InboundBudget inboundBudget;
    private final Duration frameTimeout;
    private final OutboundBudget outboundBudget;
    private final Duration writeStallTimeout;
    private final Clock clock;

    public EndpointRuntime(ThreadFactory threadFactory, int callbackThreads, int asyncPermits, int onewayPermits,
                           int maxFrameLength, Duration maxIdleTime, Duration scanInterval,
                           SerializeType requestType, Clock clock) {
        this(threadFactory, callbackThreads, asyncPermits, onewayPermits, maxFrameLength, maxIdleTime, scanInterval,
                requestType, InboundBudget.UNLIMITED, Duration.ZERO, OutboundBudget.UNLIMITED, Duration.ZERO, clock);
    }

    /**
     * @param inboundBudget     what frames coming in may hold until their answers are written
     * @param frameTimeout      how long a frame may take to arrive once begun (zero: no limit)
     * @param outboundBudget    what answers may hold until written
     * @param writeStallTimeout how long a server's connection may stay above its high-water mark with its client taking
     *                          nothing before it is closed
     * @param clock             what measures timeouts, stalls and processing times
     */
    public EndpointRuntime(ThreadFactory threadFactory, int callbackThreads, int asyncPermits, int onewayPermits,
                           int maxFrameLength, Duration maxIdleTime, Duration scanInterval,
                           SerializeType requestType, InboundBudget inboundBudget, Duration frameTimeout,
                           OutboundBudget outboundBudget, Duration writeStallTimeout, Clock clock) {
        this.clock = clock;
        this.inboundBudget = inboundBudget;
        this.frameTimeout = frameTimeout;
        this.outboundBudget = outboundBudget;
        this.writeStallTimeout = writeStallTimeout;
        this.dispatcher = new RequestDispatcher(outboundBudget, clock);
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, threadFactory);
        scheduler.setRemoveOnCancelPolicy(true);
        this.housekeeper = scheduler;
        this.callbacks = Executors.newFixedThreadPool(callbackThreads, threadFactory);
        this.invoker = new ChannelInvoker(asyncPermits, onewayPermits, callbacks, clock);
        this.handler = new CommandHandler(invoker, dispatcher, this::publish);
        this.encoder = new CommandEncoder(codec, requestType);
        this.maxFrameLength = maxFrameLength;
        this.maxIdleTime = maxIdleTime;
        long scanMillis = scanInterval.toMillis();
        housekeeper.scheduleWithFixedDelay(() -> invoker.pending().expire(clock.nanos()),
                scanMillis, scanMillis, TimeUnit.MILLISECONDS);
    }

    public RequestDispatcher dispatcher() {
        return dispatcher;
    }

    /** Connections closed for a frame that could not be decoded, since start. */
    public long malformedFrames() {
        return handler.malformedFrames();
    }

    public InboundBudget inboundBudget() {
        return inboundBudget;
    }

    public OutboundBudget outboundBudget() {
        return outboundBudget;
    }

    public ChannelInvoker invoker() {
        return invoker;
    }

    public void addListener(ConnectionListener listener) {
        listeners.add(listener);
    }

    /** Adds the framing, codec, idle and command handlers after whatever TLS handler is first. */
    public void initPipeline(ChannelPipeline pipeline, ChannelHandler tlsHandler) {
        initPipeline(pipeline, tlsHandler, null);
    }

    /**
     * The same for a server's connection holding {@code slot} of {@code slots}; it must send a whole request within
     * {@code firstRequestTimeout}, and is not read while its answers wait above its high-water mark.
     */
    public void initPipeline(ChannelPipeline pipeline, ChannelHandler tlsHandler, ConnectionSlots slots,
                             ConnectionSlots.Slot slot, Duration firstRequestTimeout) {
        initPipeline(pipeline, tlsHandler, new SlotHolder(slots, slot, firstRequestTimeout.toMillis()));
    }

    /** A client's connection always reads (so that it and a server never wait on each other); a server's not always. */
    private void initPipeline(ChannelPipeline pipeline, ChannelHandler tlsHandler, ChannelHandler slotHolder) {
        ReadGate gate = new ReadGate();
        pipeline.addLast("gate", gate); // first: it must see the reads TLS asks for too
        if (tlsHandler != null) {
            pipeline.addLast("tls", tlsHandler);
        }
        // Answers written one by one from the processors' threads go out in one write per event-loop turn instead of
        // one system call each (up to 256 answers, or at once when nothing else is queued).
        pipeline.addLast("flushes", new FlushConsolidationHandler(FLUSH_AFTER, true));
        pipeline.addLast("idle", new IdleStateHandler(0, 0, maxIdleTime.toMillis(), TimeUnit.MILLISECONDS));
        FrameDecoder frames = new FrameDecoder(maxFrameLength, codec, inboundBudget, frameTimeout, gate,
                outboundBudget);
        pipeline.addLast("frames", frames);
        if (slotHolder != null) {
            pipeline.addLast("answers", new OutboundFlow(frames, outboundBudget, writeStallTimeout.toMillis(), clock));
            pipeline.addLast("slot", slotHolder);
        }
        pipeline.addLast("encoder", encoder);
        pipeline.addLast("commands", handler);
    }

    private void publish(ConnectionEvent event) {
        if (listeners.isEmpty()) {
            return;
        }
        try {
            housekeeper.execute(() -> {
                for (ConnectionListener listener : listeners) {
                    try {
                        listener.onEvent(event);
                    } catch (RuntimeException e) {
                        LOG.log(System.Logger.Level.WARNING, "connection listener failed on " + event, e);
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.log(System.Logger.Level.DEBUG, "dropping {0}: shutting down", event);
        }
    }

    /** Waits up to {@code timeout} for running processor invocations to finish. */
    public void awaitIdleProcessors(Duration timeout) {
        long deadline = clock.nanos() + timeout.toNanos();
        while (dispatcher.running() > 0 && clock.nanos() - deadline < 0) {
            try {
                Thread.sleep(10); // a shutdown poll, not a test assertion
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        invoker.pending().failAll(new RemotingException("the endpoint is shutting down"));
        housekeeper.shutdown();
        callbacks.shutdown();
        try {
            housekeeper.awaitTermination(2, TimeUnit.SECONDS);
            callbacks.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
