package dev.ferry.server.metrics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** HTTP/1.1 by hand over a socket, for requests no well-behaved client sends: half ones, huge ones, odd ones. */
final class RawHttp implements AutoCloseable {
    private final Socket socket;

    /** A response as read: its status, headers (names in lower case) and body. */
    record Response(int status, Map<String, String> headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    RawHttp(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(10_000);
    }

    RawHttp send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawHttp send(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
        return this;
    }

    /** Reads one response whose length is given by its Content-Length (none for a HEAD's: {@code head}). */
    Response read(boolean head) throws IOException {
        InputStream in = socket.getInputStream();
        String statusLine = line(in);
        if (statusLine == null) {
            throw new IOException("closed before a response");
        }
        Map<String, String> headers = new TreeMap<>();
        for (String line = line(in); line != null && !line.isEmpty(); line = line(in)) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        int length = head ? 0 : Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        return new Response(Integer.parseInt(statusLine.split(" ")[1]), headers, body);
    }

    Response read() throws IOException {
        return read(false);
    }

    /** Whether the server has closed the connection (waiting at most {@code wait} for it to say so). */
    boolean closedByServer(Duration wait) {
        try {
            socket.setSoTimeout((int) Math.max(1, wait.toMillis()));
            InputStream in = socket.getInputStream();
            while (true) {
                if (in.read() == -1) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    boolean closedByServer() {
        return closedByServer(Duration.ofMillis(20));
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b == -1) {
                return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
