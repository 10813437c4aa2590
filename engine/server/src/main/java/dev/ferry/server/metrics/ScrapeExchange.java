package dev.ferry.server.metrics;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.prometheus.metrics.exporter.common.PrometheusHttpExchange;
import io.prometheus.metrics.exporter.common.PrometheusHttpRequest;
import io.prometheus.metrics.exporter.common.PrometheusHttpResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;

/**
 * One scrape as Prometheus' own scrape handler sees it, so the exposition (formats, content negotiation, gzip, the
 * {@code name[]} filter) is exactly the library's. The request is a copy of what the event loop decoded; the answer is
 * collected in memory and handed back whole as a {@link FullHttpResponse}. Used by one scrape thread.
 */
final class ScrapeExchange implements PrometheusHttpExchange {
    private static final System.Logger LOG = System.getLogger(ScrapeExchange.class.getName());
    private static final byte[] FAILED = "metrics could not be collected; see the server's log\n"
            .getBytes(StandardCharsets.UTF_8);

    private final Request request;
    private final Response response = new Response();

    /** @param request read here, so it must not change while the scrape runs (its headers are copied) */
    ScrapeExchange(HttpRequest request) {
        this.request = new Request(request.method().name(), request.uri(), request.headers().copy());
    }

    @Override
    public PrometheusHttpRequest getRequest() {
        return request;
    }

    @Override
    public PrometheusHttpResponse getResponse() {
        return response;
    }

    @Override
    public void handleException(IOException e) {
        failed(e);
    }

    @Override
    public void handleException(RuntimeException e) {
        failed(e);
    }

    /** The cause goes to the log only: an answer carries no stack trace or message of the server's. */
    private void failed(Exception e) {
        LOG.log(System.Logger.Level.WARNING, "a metrics scrape failed", e);
        response.status = HttpResponseStatus.INTERNAL_SERVER_ERROR;
        response.headers.clear().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.body.reset();
        response.body.writeBytes(FAILED);
    }

    @Override
    public void close() {
        // nothing held: the answer is taken by toResponse()
    }

    /** The answer the scrape handler made, with its body (HEAD's is left to the caller to drop). */
    FullHttpResponse toResponse() {
        DefaultFullHttpResponse answer = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, response.status,
                Unpooled.wrappedBuffer(response.body.toByteArray()));
        answer.headers().set(response.headers);
        return answer;
    }

    private record Request(String method, String uri, HttpHeaders headers) implements PrometheusHttpRequest {
        @Override
        public String getQueryString() {
            int query = uri.indexOf('?');
            return query < 0 ? null : uri.substring(query + 1);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return Collections.enumeration(headers.getAll(name));
        }

        @Override
        public String getMethod() {
            return method;
        }

        @Override
        public String getRequestPath() {
            int query = uri.indexOf('?');
            return query < 0 ? uri : uri.substring(0, query);
        }
    }

    private static final class Response implements PrometheusHttpResponse {
        private HttpResponseStatus status = HttpResponseStatus.OK;
        private final HttpHeaders headers = new DefaultHttpHeaders();
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();

        @Override
        public void setHeader(String name, String value) {
            headers.set(name, value);
        }

        @Override
        public OutputStream sendHeadersAndGetBody(int statusCode, int contentLength) {
            status = HttpResponseStatus.valueOf(statusCode);
            return body;
        }
    }
}
