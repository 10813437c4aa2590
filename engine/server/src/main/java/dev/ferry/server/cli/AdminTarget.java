package dev.ferry.server.cli;

import java.util.function.UnaryOperator;

/**
 * Where an admin command sends its requests: the broker given, or the brokers the name server knows. The name server
 * is {@code --namesrv}, else the {@value #NAMESRV_ADDR} environment variable as RocketMQ's tools read it, else
 * {@code 127.0.0.1:9876}, the name server of a server started with its defaults.
 *
 * @param nameServer the name server ({@code host:port}) asked for clusters and routes
 * @param broker     the one broker to ask, or {@code null} to ask the brokers the name server knows
 */
record AdminTarget(String nameServer, String broker) {
    /** The environment variable RocketMQ's tools and clients read the name server address from. */
    static final String NAMESRV_ADDR = "NAMESRV_ADDR";
    static final String DEFAULT_NAME_SERVER = "127.0.0.1:9876";

    /**
     * @param namesrvOption {@code --namesrv}, or {@code null}
     * @param brokerOption  {@code --broker}, or {@code null}
     * @param environment   reads an environment variable ({@code null} when unset)
     * @param defaultNameServer the name server when neither the option nor the environment names one
     */
    static AdminTarget resolve(String namesrvOption, String brokerOption, UnaryOperator<String> environment,
                               String defaultNameServer) {
        String nameServer = given(namesrvOption) ? namesrvOption.trim()
                : given(environment.apply(NAMESRV_ADDR)) ? environment.apply(NAMESRV_ADDR).trim()
                : defaultNameServer;
        return new AdminTarget(nameServer, given(brokerOption) ? brokerOption.trim() : null);
    }

    /** Whether an option or variable holds a value: set, and not blank. */
    static boolean given(String value) {
        return value != null && !value.isBlank();
    }
}
