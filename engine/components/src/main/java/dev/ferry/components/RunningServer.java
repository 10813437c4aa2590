package dev.ferry.components;

/** A ferry-server running in the framework, as a service: where clients find it. */
public interface RunningServer {

    /** {@code host:port} of its name server, as clients configure it. */
    String nameServerAddress();

    /** The port its broker listens on. */
    int brokerPort();
}
