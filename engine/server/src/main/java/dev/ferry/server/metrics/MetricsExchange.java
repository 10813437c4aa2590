package dev.ferry.server.metrics;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One connection of the metrics endpoint, answered one request at a time: reads are asked for only while a request is
 * awaited, and a client that sends its next request before its answer (pipelining, which Prometheus does not do) has
 * its connection closed after that answer.
 * There is always a deadline: a new connection's first request must have arrived whole within {@code
 * metricsHeaderTimeout}; on a connection kept alive, the next request must begin within {@code metricsIdleTimeout} and
 * then arrive within {@code metricsHeaderTimeout}; an answer must be made and taken by the client within {@code
 * metricsIdleTimeout}. Refusals close the connection once written. Runs on the endpoint's event loop; scrapes are
 * handed to {@link Scrapes} and their answers come back to the loop.
 */
final class MetricsExchange extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(MetricsExchange.class.getName());
    private static final byte[] INDEX = ("<html><head><title>Ferry metrics</title></head><body>"
            + "<a href=\"metrics\">/metrics</a></body></html>\n").getBytes(StandardCharsets.UTF_8);
    private static final byte[] HEALTHY = "Exporter is healthy.\n".getBytes(StandardCharsets.UTF_8);

    private final MetricsConfig config;
    private final Scrapes scrapes;
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> deadline;
    /** No byte of the next request has arrived. */
    private boolean awaiting = true;
    /** A request is complete and its answer not yet taken by the client. */
    private boolean answering;
    /** A request was answered on this connection before. */
    private boolean served;
    private boolean closing;
    /** A request arrived while another was being answered: the connection closes after that answer. */
    private boolean pipelined;
    /** The request whose head arrived, until it is answered. */
    private MetricsRoute route;
    private ScrapeExchange scrape;
    private boolean head;
    private boolean keepAlive;
    private HttpVersion version = HttpVersion.HTTP_1_1;

    MetricsExchange(MetricsConfig config, Scrapes scrapes) {
        this.config = config;
        this.scrapes = scrapes;
    }

    /** Goes before the HTTP decoder: tells this exchange that a request's first bytes have arrived. */
    ChannelHandler firstBytes() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext bytes, Object msg) {
                if (awaiting && served) { // the idle wait is over: the request now has metricsHeaderTimeout
                    deadline(config.headerTimeout(), "request not whole within metricsHeaderTimeout");
                }
                awaiting = false; // a new connection's deadline runs from its start
                bytes.fireChannelRead(msg);
            }
        };
    }

    /** Is being answered: not to be closed to make room. */
    boolean answering() {
        return answering;
    }

    /** Has had a request answered. */
    boolean served() {
        return served;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
        deadline(config.headerTimeout(), "no whole request within metricsHeaderTimeout");
        context.read();
        context.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        cancelDeadline();
        context.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        try {
            if (closing) {
                return;
            }
            if (answering) {
                pipelined = true;
                return;
            }
            if (msg instanceof HttpRequest request) {
                awaiting = false;
                route = MetricsRoute.of(request);
                if (route.refused()) {
                    refuse(route.status());
                    return;
                }
                head = request.method().equals(HttpMethod.HEAD);
                version = request.protocolVersion();
                keepAlive = HttpUtil.isKeepAlive(request);
                scrape = route.page().orElseThrow() == MetricsRoute.Page.SCRAPE ? new ScrapeExchange(request) : null;
            }
            if (msg instanceof LastHttpContent last && route != null) {
                if (last.decoderResult().isFailure()) { // its trailing headers were too long or malformed
                    refuse(HttpResponseStatus.BAD_REQUEST);
                    return;
                }
                answer();
            } else {
                context.read(); // the rest of the request
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        LOG.log(System.Logger.Level.DEBUG, "metrics endpoint: closing {0}: {1}", context.channel().remoteAddress(),
                String.valueOf(cause));
        context.close();
    }

    private void answer() {
        answering = true;
        deadline(config.idleTimeout(), "answer not taken within metricsIdleTimeout");
        switch (route.page().orElseThrow()) {
            case INDEX -> respond(page(INDEX, "text/html; charset=utf-8"));
            case HEALTHY -> respond(page(HEALTHY, "text/plain; charset=utf-8"));
            case SCRAPE -> {
                try {
                    scrapes.scrape(scrape, () -> ctx.channel().isActive(), this::respondOnLoop);
                } catch (RejectedExecutionException e) {
                    refuse(HttpResponseStatus.SERVICE_UNAVAILABLE);
                }
            }
        }
    }

    /** From a scrape thread: the answer goes back to the event loop, or nowhere once the endpoint is closing. */
    private void respondOnLoop(FullHttpResponse made) {
        try {
            ctx.executor().execute(() -> respond(made));
        } catch (RejectedExecutionException e) {
            made.release();
        }
    }

    private void respond(FullHttpResponse made) {
        if (!ctx.channel().isActive()) {
            made.release();
            return;
        }
        FullHttpResponse response = made;
        if (!response.headers().contains(HttpHeaderNames.CONTENT_LENGTH)) {
            HttpUtil.setContentLength(response, response.content().readableBytes());
        }
        if (head) {
            response = made.replace(Unpooled.EMPTY_BUFFER);
            made.release();
        }
        response.setProtocolVersion(version);
        HttpUtil.setKeepAlive(response, keepAlive && !pipelined);
        ctx.writeAndFlush(response).addListener((ChannelFuture written) -> {
            if (!written.isSuccess() || !keepAlive || pipelined) {
                ctx.close();
                return;
            }
            served = true;
            answering = false;
            awaiting = true;
            route = null;
            scrape = null;
            deadline(config.idleTimeout(), "idle for metricsIdleTimeout");
            ctx.read();
        });
    }

    /** Answers {@code status} and closes the connection once that is written (or the client does not take it). */
    private void refuse(HttpResponseStatus status) {
        closing = true;
        answering = true;
        deadline(config.idleTimeout(), "refusal not taken within metricsIdleTimeout");
        FullHttpResponse response = page((status + "\n").getBytes(StandardCharsets.US_ASCII),
                "text/plain; charset=utf-8");
        response.setStatus(status);
        if (status.equals(HttpResponseStatus.METHOD_NOT_ALLOWED)) {
            response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
        }
        HttpUtil.setContentLength(response, response.content().readableBytes());
        HttpUtil.setKeepAlive(response, false);
        ctx.writeAndFlush(response).addListener((ChannelFuture written) -> ctx.close());
    }

    private static FullHttpResponse page(byte[] body, String contentType) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        return response;
    }

    private void deadline(Duration after, String reason) {
        cancelDeadline();
        deadline = ctx.executor().schedule(() -> {
            LOG.log(System.Logger.Level.DEBUG, "metrics endpoint: closing {0}: {1}", ctx.channel().remoteAddress(),
                    reason);
            ctx.close();
        }, after.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }
}
