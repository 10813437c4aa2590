package dev.ferry.remoting;

import java.util.Locale;

/** A server could not listen on its address: the port is taken, or the host is not one of this machine's. */
public final class ListenException extends RemotingException {
    private static final long serialVersionUID = 1L;

    private final String host;
    private final int port;

    public ListenException(String host, int port, Throwable cause) {
        super("cannot listen on " + host + ":" + port + " (" + reason(cause) + ")", cause);
        this.host = host;
        this.port = port;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /** Whether another process (or server) holds the port, rather than the host being wrong. */
    public boolean portInUse() {
        return reason(getCause()).contains("in use");
    }

    /** The operating system's words, without Netty's "bind(..) failed: " before them. */
    private static String reason(Throwable cause) {
        Throwable root = cause;
        while (root != null && root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root == null || root.getMessage() == null ? String.valueOf(root) : root.getMessage();
        int colon = message.lastIndexOf(": ");
        return (colon >= 0 ? message.substring(colon + 2) : message).toLowerCase(Locale.ROOT);
    }
}
