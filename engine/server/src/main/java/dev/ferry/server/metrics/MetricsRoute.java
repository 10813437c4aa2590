package dev.ferry.server.metrics;

import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.List;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.util.Optional;

/**
 * What a decoded request asks of the metrics endpoint: one of its pages, or a refusal and its status. Only {@code GET}
 * and {@code HEAD} without a body are served; the pages are {@code /metrics}, {@code /} (a pointer to it) and
 * {@code /-/healthy}, as Prometheus' own exporter serves them, and of its {@code debug} views those Ferry has.
 */
record MetricsRoute(Optional<Page> page, HttpResponseStatus status) {
    static final String METRICS_PATH = "/metrics";

    /** The pages. */
    enum Page {
        SCRAPE, INDEX, HEALTHY
    }

    static MetricsRoute of(HttpRequest request) {
        DecoderResult decoded = request.decoderResult();
        if (decoded.isFailure()) {
            Throwable cause = decoded.cause();
            return refused(cause instanceof TooLongHttpLineException ? HttpResponseStatus.REQUEST_URI_TOO_LONG
                    : cause instanceof TooLongHttpHeaderException ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
                    : HttpResponseStatus.BAD_REQUEST);
        }
        if (!request.protocolVersion().equals(HttpVersion.HTTP_1_1)
                && !request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
            return refused(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED);
        }
        String uri = request.uri();
        if (!uri.startsWith("/")) {
            return refused(HttpResponseStatus.BAD_REQUEST);
        }
        int query = uri.indexOf('?');
        Page page = switch (query < 0 ? uri : uri.substring(0, query)) {
            case METRICS_PATH -> Page.SCRAPE;
            case "/" -> Page.INDEX;
            case "/-/healthy" -> Page.HEALTHY;
            default -> null;
        };
        if (page == null) {
            return refused(HttpResponseStatus.NOT_FOUND);
        }
        if (!request.method().equals(HttpMethod.GET) && !request.method().equals(HttpMethod.HEAD)) {
            return refused(HttpResponseStatus.METHOD_NOT_ALLOWED);
        }
        if (page == Page.SCRAPE && !debugViewSupported(uri)) {
            return refused(HttpResponseStatus.BAD_REQUEST);
        }
        if (HttpUtil.isTransferEncodingChunked(request) || bodyLength(request) != 0) {
            return refused(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE); // a scrape has no body to send
        }
        return new MetricsRoute(Optional.of(page), HttpResponseStatus.OK);
    }

    /**
     * Whether the {@code debug} views asked for, if any, are ones Ferry has ({@code openmetrics}, {@code text}): the
     * scrape handler answers others with a 500 that echoes the value.
     */
    private static boolean debugViewSupported(String uri) {
        try {
            return new QueryStringDecoder(uri).parameters().getOrDefault("debug", List.of()).stream()
                    .allMatch(view -> view.equals("openmetrics") || view.equals("text"));
        } catch (IllegalArgumentException e) { // an escape that is not one
            return false;
        }
    }

    /** The announced body length; -1 for one that is not a number (the decoder refuses those first). */
    private static long bodyLength(HttpRequest request) {
        try {
            return HttpUtil.getContentLength(request, 0L);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static MetricsRoute refused(HttpResponseStatus status) {
        return new MetricsRoute(Optional.empty(), status);
    }

    boolean refused() {
        return page.isEmpty();
    }
}
