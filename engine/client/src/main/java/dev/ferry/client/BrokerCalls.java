package dev.ferry.client;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.endpoint.RemotingClient;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The requests the client's services send, in the three ways RocketMQ sends them. The client's connections make
 * them ({@link #over}); a test answers them as a scripted broker would.
 */
interface BrokerCalls {
    /** Sends and waits for the answer; failures are unchecked {@code RemotingException}s. */
    RemotingCommand call(String address, RemotingCommand request, Duration timeout);

    /** Sends; the future completes with the answer or the failure. */
    CompletableFuture<RemotingCommand> callAsync(String address, RemotingCommand request, Duration timeout);

    /** Sends without an answer. */
    void callOneway(String address, RemotingCommand request, Duration timeout);

    static BrokerCalls over(RemotingClient remoting) {
        return new BrokerCalls() {
            @Override
            public RemotingCommand call(String address, RemotingCommand request, Duration timeout) {
                return remoting.invokeSync(address, request, timeout);
            }

            @Override
            public CompletableFuture<RemotingCommand> callAsync(String address, RemotingCommand request,
                                                                Duration timeout) {
                return remoting.invokeAsync(address, request, timeout);
            }

            @Override
            public void callOneway(String address, RemotingCommand request, Duration timeout) {
                remoting.invokeOneway(address, request, timeout);
            }
        };
    }
}
