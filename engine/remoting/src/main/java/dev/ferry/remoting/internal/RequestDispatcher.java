package dev.ferry.remoting.internal;

import dev.ferry.format.Clock;
import dev.ferry.format.LogPace;
import dev.ferry.remoting.InlineRule;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestGuard;
import dev.ferry.remoting.RequestObserver;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands each incoming request to the processor registered for its code, on that processor's
 * executor, or on the event loop that read it when the code's {@link InlineRule} picks it.
 * Unknown codes go to the default processor, which unless replaced answers
 * REQUEST_CODE_NOT_SUPPORTED. A full executor is answered with SYSTEM_BUSY, as Apache's servers
 * answer it; neither touches the event loop beyond writing the answer.
 *
 * <p>A {@link BadRequestException} (a malformed header or body, a bad name) is the client's
 * fault: answered with its code and message, counted, logged only at DEBUG. Any other exception
 * is a fault of the processor's own: answered with SYSTEM_ERROR, counted apart, and logged with
 * its stack trace at most once a second, so that no client can flood the log.
 *
 * <p>A request holds what it holds (its frame's reservation in the {@link InboundBudget}) until its answer has been
 * written or failed, not only until it is answered: an answer waiting for a client that does not read keeps its
 * request counted too. The answer itself is counted in the {@link OutboundBudget} meanwhile; one that does not fit
 * closes its connection.
 */
public final class RequestDispatcher {
    private static final System.Logger LOG = System.getLogger(RequestDispatcher.class.getName());

    private record Registration(RequestProcessor processor, Executor executor, InlineRule inline) {
    }

    private final Map<Integer, Registration> registrations = new ConcurrentHashMap<>();
    /** Codes nobody registered are answered REQUEST_CODE_NOT_SUPPORTED on the event loop: there is nothing to do. */
    private static final Registration NOT_SUPPORTED = new Registration(RequestDispatcher::notSupported, Runnable::run,
            InlineRule.NEVER);
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicLong badRequests = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private volatile RequestGuard guard = RequestGuard.OPEN;
    private volatile RequestObserver observer = RequestObserver.NONE;
    private final LogPace failureLog = LogPace.perSecond();
    private final OutboundBudget outboundBudget;
    private final Clock clock;

    /**
     * @param outboundBudget what the answers of every connection may hold until written
     * @param clock          what spaces failure warnings and times answers for an observer
     */
    public RequestDispatcher(OutboundBudget outboundBudget, Clock clock) {
        this.outboundBudget = Objects.requireNonNull(outboundBudget, "outboundBudget");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public void register(int code, RequestProcessor processor, Executor executor) {
        register(code, processor, executor, InlineRule.NEVER);
    }

    /** As {@link #register(int, RequestProcessor, Executor)}, the requests {@code inline} picks run where they arrive. */
    public void register(int code, RequestProcessor processor, Executor executor, InlineRule inline) {
        registrations.put(code, new Registration(Objects.requireNonNull(processor, "processor"),
                Objects.requireNonNull(executor, "executor"), Objects.requireNonNull(inline, "inline")));
    }

    /** Checks every request before its processor sees it. */
    public void guard(RequestGuard value) {
        this.guard = Objects.requireNonNull(value, "guard");
    }

    /** Is told of every request answered, with how long the answer took. */
    public void observe(RequestObserver value) {
        this.observer = Objects.requireNonNull(value, "observer");
    }

    /** Requests the guard refused since start. */
    public long refused() {
        return refused.get();
    }

    /** Processor invocations under way (for graceful shutdown). */
    public int running() {
        return running.get();
    }

    /** Requests refused as malformed or invalid ({@link BadRequestException}) since start. */
    public long badRequests() {
        return badRequests.get();
    }

    /** Requests whose processor failed with any other exception since start: each is a defect to fix. */
    public long failures() {
        return failures.get();
    }

    public void dispatch(NettyRemoteChannel channel, RemotingCommand request) {
        dispatch(channel, request, InboundBudget.Reservation.NONE, OutboundBudget.UNLIMITED.connection());
    }

    /**
     * Dispatches a request whose frame holds {@code reservation} until its answer is written (or, oneway, until it
     * has been processed); the answer is counted in {@code answers} until then.
     */
    public void dispatch(NettyRemoteChannel channel, RemotingCommand request, InboundBudget.Reservation reservation,
                         OutboundBudget.Connection answers) {
        Context context = new Context(channel, request, reservation, answers, observer);
        Registration registration = registrations.getOrDefault(request.code(), NOT_SUPPORTED);
        running.incrementAndGet();
        if (inline(registration, request)) {
            run(registration.processor, context);
            return;
        }
        try {
            registration.executor.execute(() -> run(registration.processor, context));
        } catch (RejectedExecutionException e) {
            running.decrementAndGet();
            context.respond(RemotingCommand.responseTo(request, ResponseCode.SYSTEM_BUSY)
                    .remark(ResponseCode.OVERLOAD_REMARK).build());
        }
    }

    private boolean inline(Registration registration, RemotingCommand request) {
        try {
            return registration.inline.inline(request);
        } catch (RuntimeException e) { // a request the rule cannot read goes the usual way, to be refused there
            return false;
        }
    }

    /** Whether the guard lets the request through; if not, it has been answered. */
    private boolean passes(Context context) {
        RemotingCommand refusal;
        try {
            refusal = guard.check(context.channel, context.request);
        } catch (RuntimeException e) {
            failures.incrementAndGet();
            logFailure(context, e);
            refusal = RemotingCommand.responseTo(context.request, ResponseCode.SYSTEM_ERROR)
                    .remark("the request could not be checked: " + e.getClass().getSimpleName()).build();
        }
        if (refusal == null) {
            return true;
        }
        refused.incrementAndGet();
        context.respond(refusal);
        return false;
    }

    /**
     * Runs the processor, once the guard let the request through. The frame's reservation goes with the first
     * answer, which may come later from another thread (a held pull, a send waiting for its flush), and is released
     * once that answer is written: until then the request and its body are still held.
     */
    private void run(RequestProcessor processor, Context context) {
        try {
            if (!passes(context)) {
                return;
            }
            context.processing = true;
            RemotingCommand response = processor.process(context, context.request);
            if (response != null) {
                context.respond(response);
            } else if (context.request.isOneway()) {
                context.reservation.release();
            }
        } catch (BadRequestException e) {
            badRequests.incrementAndGet();
            LOG.log(System.Logger.Level.DEBUG, "refusing {0} from {1}: {2}", context.request, context.channel,
                    e.getMessage());
            context.respond(RemotingCommand.responseTo(context.request, e.responseCode()).remark(e.getMessage())
                    .build());
        } catch (Throwable e) { // the worker thread must survive any processor
            failures.incrementAndGet();
            logFailure(context, e);
            context.respond(RemotingCommand.responseTo(context.request, ResponseCode.SYSTEM_ERROR)
                    .remark(e.getClass().getSimpleName() + ": " + e.getMessage()).build());
        } finally {
            context.processing = false;
            running.decrementAndGet();
        }
    }

    private void logFailure(Context context, Throwable e) {
        if (failureLog.passes(clock.nanos())) {
            LOG.log(System.Logger.Level.WARNING, "processing " + context.request + " from " + context.channel
                    + " failed (" + failures.get() + " failures since start)", e);
        } else {
            LOG.log(System.Logger.Level.DEBUG, "processing {0} from {1} failed: {2}", context.request,
                    context.channel, e.toString());
        }
    }

    private static RemotingCommand notSupported(RequestContext context, RemotingCommand request) {
        return RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED)
                .remark("request code " + RequestCode.nameOf(request.code()) + " is not supported").build();
    }

    /** A request being handled; once answered, it listens for its answer's write (no allocation of its own). */
    private final class Context implements RequestContext, ChannelFutureListener {
        private final NettyRemoteChannel channel;
        private final RemotingCommand request;
        private final InboundBudget.Reservation reservation;
        private final OutboundBudget.Connection answers;
        private final AtomicBoolean responded = new AtomicBoolean();
        private final RequestObserver observer;
        /** When the request was dispatched; read only when someone observes. */
        private final long dispatchedNanos;
        /** While the processor runs: an answer given now is not deferred. */
        private volatile boolean processing;
        /** What the answer is counted as until written; set before the write, read by its listener. */
        private long answerBytes;

        Context(NettyRemoteChannel channel, RemotingCommand request, InboundBudget.Reservation reservation,
                OutboundBudget.Connection answers, RequestObserver observer) {
            this.channel = channel;
            this.request = request;
            this.reservation = reservation;
            this.answers = answers;
            this.observer = observer;
            this.dispatchedNanos = observer == RequestObserver.NONE ? 0 : clock.nanos();
        }

        @Override
        public RemoteChannel channel() {
            return channel;
        }

        @Override
        public void respond(RemotingCommand response) {
            if (request.isOneway()) {
                reservation.release(); // at most once
                return;
            }
            if (!responded.compareAndSet(false, true)) {
                return;
            }
            if (observer != RequestObserver.NONE) {
                try {
                    observer.answered(request.code(), response.code(), clock.nanos() - dispatchedNanos,
                            !processing);
                } catch (RuntimeException e) { // a metric must never cost a client its answer
                    LOG.log(System.Logger.Level.DEBUG, "observing {0} failed: {1}", request, e.toString());
                }
            }
            RemotingCommand answer = response;
            if (!response.isResponse() || response.opaque() != request.opaque()) {
                answer = response.toBuilder().opaque(request.opaque())
                        .flag(response.flag() | RemotingCommand.FLAG_RESPONSE).build();
            }
            if (!channel.isActive()) {
                reservation.release();
                return;
            }
            long bytes = OutboundBudget.sizeOf(answer);
            if (!answers.take(bytes)) {
                reservation.release();
                refuseAnswer(bytes);
                return;
            }
            answerBytes = bytes;
            channel.nettyChannel().writeAndFlush(answer).addListener(this);
        }

        /** The server holds more answers than its budget and this connection is behind: its client is not reading. */
        private void refuseAnswer(long bytes) {
            if (!channel.isActive()) {
                return;
            }
            System.Logger.Level level = outboundBudget.warnNow(clock.nanos()) ? System.Logger.Level.WARNING
                    : System.Logger.Level.DEBUG;
            LOG.log(level, "closing connection {0}: it holds {1} bytes of answers not taken while the server holds "
                    + "more than its {2} bytes, and {3} more came ({4} closed so since start)", channel,
                    answers.held(), outboundBudget.total(), bytes, outboundBudget.refused());
            channel.close();
        }

        /** The answer was written, or failed (its connection closed): what it and its request held is freed. */
        @Override
        public void operationComplete(ChannelFuture future) {
            reservation.release();
            answers.release(answerBytes);
            if (!future.isSuccess()) {
                LOG.log(System.Logger.Level.DEBUG, "cannot answer {0} on {1}: {2}", request, channel, future.cause());
            }
        }
    }
}
