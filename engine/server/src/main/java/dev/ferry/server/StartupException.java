package dev.ferry.server;

/**
 * A server cannot start for a reason its user fixes: the message is one line naming the config key and what is
 * wrong (a port in use, a store directory another broker holds, a plugin directory that is missing).
 */
public final class StartupException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StartupException(String key, String problem, Throwable cause) {
        super(key + ": " + problem, cause);
    }
}
