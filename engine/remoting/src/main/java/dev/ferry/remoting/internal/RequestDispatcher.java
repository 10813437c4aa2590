package dev.ferry.remoting.internal;

import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands each incoming request to the processor registered for its code, on that processor's
 * executor. Unknown codes go to the default processor, which unless replaced answers
 * REQUEST_CODE_NOT_SUPPORTED. A full executor is answered with SYSTEM_BUSY and a failing
 * processor with SYSTEM_ERROR; neither touches the event loop beyond writing the answer.
 */
public final class RequestDispatcher {
    private static final System.Logger LOG = System.getLogger(RequestDispatcher.class.getName());

    private record Registration(RequestProcessor processor, Executor executor) {
    }

    private final Map<Integer, Registration> registrations = new ConcurrentHashMap<>();
    private volatile Registration fallback = new Registration(RequestDispatcher::notSupported, Runnable::run);
    private final AtomicInteger running = new AtomicInteger();

    public void register(int code, RequestProcessor processor, Executor executor) {
        registrations.put(code, new Registration(Objects.requireNonNull(processor, "processor"),
                Objects.requireNonNull(executor, "executor")));
    }

    public void registerDefault(RequestProcessor processor, Executor executor) {
        fallback = new Registration(Objects.requireNonNull(processor, "processor"),
                Objects.requireNonNull(executor, "executor"));
    }

    /** Processor invocations under way (for graceful shutdown). */
    public int running() {
        return running.get();
    }

    public void dispatch(NettyRemoteChannel channel, RemotingCommand request) {
        Registration registration = registrations.getOrDefault(request.code(), fallback);
        Context context = new Context(channel, request);
        running.incrementAndGet();
        try {
            registration.executor.execute(() -> run(registration.processor, context));
        } catch (RejectedExecutionException e) {
            running.decrementAndGet();
            context.respond(RemotingCommand.responseTo(request, ResponseCode.SYSTEM_BUSY)
                    .remark("[OVERLOAD] too many requests: the processor's executor is full, try again later").build());
        }
    }

    private void run(RequestProcessor processor, Context context) {
        try {
            RemotingCommand response = processor.process(context, context.request);
            if (response != null) {
                context.respond(response);
            }
        } catch (Throwable e) { // the worker thread must survive any processor
            LOG.log(System.Logger.Level.WARNING, "processing " + context.request + " from " + context.channel
                    + " failed", e);
            context.respond(RemotingCommand.responseTo(context.request, ResponseCode.SYSTEM_ERROR)
                    .remark(e.getClass().getSimpleName() + ": " + e.getMessage()).build());
        } finally {
            running.decrementAndGet();
        }
    }

    private static RemotingCommand notSupported(RequestContext context, RemotingCommand request) {
        return RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED)
                .remark("request code " + RequestCode.nameOf(request.code()) + " is not supported").build();
    }

    private static final class Context implements RequestContext {
        private final NettyRemoteChannel channel;
        private final RemotingCommand request;
        private final AtomicBoolean responded = new AtomicBoolean();

        Context(NettyRemoteChannel channel, RemotingCommand request) {
            this.channel = channel;
            this.request = request;
        }

        @Override
        public RemoteChannel channel() {
            return channel;
        }

        @Override
        public void respond(RemotingCommand response) {
            if (request.isOneway() || !responded.compareAndSet(false, true)) {
                return;
            }
            RemotingCommand answer = response;
            if (!response.isResponse() || response.opaque() != request.opaque()) {
                answer = response.toBuilder().opaque(request.opaque())
                        .flag(response.flag() | RemotingCommand.FLAG_RESPONSE).build();
            }
            if (channel.isActive()) {
                channel.nettyChannel().writeAndFlush(answer).addListener(f -> {
                    if (!f.isSuccess()) {
                        LOG.log(System.Logger.Level.DEBUG, "cannot answer {0} on {1}: {2}", request, channel, f.cause());
                    }
                });
            }
        }
    }
}
