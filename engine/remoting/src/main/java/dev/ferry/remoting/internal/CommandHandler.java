package dev.ferry.remoting.internal;

import dev.ferry.remoting.CommandFormatException;
import dev.ferry.remoting.ConnectionEvent;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingConnectionLostException;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javax.net.ssl.SSLException;

/**
 * The last handler of every connection: responses complete pending requests, requests go to
 * the dispatcher, and the connection's life (active, inactive, idle, failing) becomes
 * {@link ConnectionEvent}s. Bad input closes only the connection it came on. Shared.
 */
@ChannelHandler.Sharable
public final class CommandHandler extends SimpleChannelInboundHandler<InboundCommand> {
    private static final System.Logger LOG = System.getLogger(CommandHandler.class.getName());

    private final ChannelInvoker invoker;
    private final RequestDispatcher dispatcher;
    private final Consumer<ConnectionEvent> events;
    private final AtomicLong malformedFrames = new AtomicLong();

    public CommandHandler(ChannelInvoker invoker, RequestDispatcher dispatcher, Consumer<ConnectionEvent> events) {
        this.invoker = invoker;
        this.dispatcher = dispatcher;
        this.events = events;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, InboundCommand inbound) {
        RemotingCommand command = inbound.command();
        if (command.isResponse()) {
            inbound.reservation().release();
            invoker.pending().complete(command);
        } else {
            dispatcher.dispatch(NettyRemoteChannel.of(ctx.channel(), invoker), command, inbound.reservation(),
                    inbound.answers());
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        events.accept(new ConnectionEvent(ConnectionEvent.Type.CONNECT, remote(ctx), null));
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        // sent, perhaps acted on: not the "never sent" of a connection that could not be made
        invoker.pending().failChannel(ctx.channel(), new RemotingConnectionLostException("connection to "
                + ctx.channel().remoteAddress() + " closed before the response arrived"));
        events.accept(new ConnectionEvent(ConnectionEvent.Type.CLOSE, remote(ctx), null));
        super.channelInactive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            LOG.log(System.Logger.Level.INFO, "closing idle connection {0}", ctx.channel().remoteAddress());
            events.accept(new ConnectionEvent(ConnectionEvent.Type.IDLE, remote(ctx), null));
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable reason = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (isBadInput(reason)) {
            malformedFrames.incrementAndGet();
            LOG.log(System.Logger.Level.WARNING, "closing connection {0}: bad input: {1}",
                    ctx.channel().remoteAddress(), reason.getMessage());
        } else if (reason instanceof IOException) {
            // a reset or a broken pipe: the peer died or the network dropped it, nothing to debug here
            LOG.log(System.Logger.Level.INFO, "closing connection {0}: {1}", ctx.channel().remoteAddress(),
                    reason.toString());
        } else {
            LOG.log(System.Logger.Level.WARNING, "closing connection " + ctx.channel().remoteAddress()
                    + " after an error", reason);
        }
        events.accept(new ConnectionEvent(ConnectionEvent.Type.EXCEPTION, remote(ctx), reason));
        ctx.close();
    }

    /** Connections closed because they sent a frame that could not be decoded, since start. */
    public long malformedFrames() {
        return malformedFrames.get();
    }

    private static boolean isBadInput(Throwable reason) {
        // a plain connection to a TLS-only port, a failed handshake: the peer's doing, one line each
        return reason instanceof CommandFormatException || reason instanceof TooLongFrameException
                || reason instanceof CorruptedFrameException || reason instanceof SSLException;
    }

    private NettyRemoteChannel remote(ChannelHandlerContext ctx) {
        return NettyRemoteChannel.of(ctx.channel(), invoker);
    }
}
