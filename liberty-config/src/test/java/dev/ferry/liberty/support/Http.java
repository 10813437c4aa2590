package dev.ferry.liberty.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Requests to a test server's applications; a status other than 2xx fails with the response's text. */
public final class Http {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    // HTTP/1.1: the JDK client's default asks to upgrade to HTTP/2, and the server's upgraded connection keeps a
    // reference to the web application that answered, which would keep an undeployed application loaded.
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT).build();
    private final String base;
    private final int port;

    /** Requests to {@code http://127.0.0.1:port}. */
    public Http(int port) {
        this.base = "http://127.0.0.1:" + port;
        this.port = port;
    }

    public int port() {
        return port;
    }

    public JsonNode postJson(String path, String body) {
        return readJson(send(HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build()));
    }

    public String post(String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT)
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build());
    }

    /** An answer of any status. */
    public record Answer(int status, String contentType, String body) {
    }

    /** Posts {@code body} as text and returns whatever the server answers, error statuses included. */
    public Answer postAnswer(String path, String body) {
        return answer(HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT)
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build());
    }

    private Answer answer(HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Gets {@code path} and returns whatever the server answers, error statuses included. */
    public Answer getAnswer(String path) {
        return answer(HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT).GET().build());
    }

    public JsonNode getJson(String path) {
        return readJson(get(path));
    }

    public String get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT).GET().build());
    }

    private String send(HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException(request.method() + " " + request.uri() + " answered "
                        + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static JsonNode readJson(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + text, e);
        }
    }
}
