package dev.ferry.client;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingConnectException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;

/**
 * A scripted broker behind {@link BrokerCalls}: every request is recorded, and the script answers it (or returns
 * {@code null} to leave an asynchronous call pending). Before each call it runs {@link #beforeEachCall}, where a test
 * checks the caller's state, such as that it holds no lock.
 */
final class FakeBrokerCalls implements BrokerCalls {
    /** One request and where it went. */
    record Sent(String address, RemotingCommand request) {
    }

    private final BiFunction<String, RemotingCommand, RemotingCommand> script;
    final List<Sent> sent = new CopyOnWriteArrayList<>();
    final List<CompletableFuture<RemotingCommand>> pending = new CopyOnWriteArrayList<>();
    volatile Runnable beforeEachCall = () -> { };

    FakeBrokerCalls(BiFunction<String, RemotingCommand, RemotingCommand> script) {
        this.script = script;
    }

    @Override
    public RemotingCommand call(String address, RemotingCommand request, Duration timeout) {
        beforeEachCall.run();
        sent.add(new Sent(address, request));
        RemotingCommand answer = script.apply(address, request);
        if (answer == null) {
            throw new RemotingConnectException("no answer from " + address + " in this script");
        }
        return answer;
    }

    @Override
    public CompletableFuture<RemotingCommand> callAsync(String address, RemotingCommand request, Duration timeout) {
        beforeEachCall.run();
        sent.add(new Sent(address, request));
        RemotingCommand answer = script.apply(address, request);
        if (answer != null) {
            return CompletableFuture.completedFuture(answer);
        }
        CompletableFuture<RemotingCommand> later = new CompletableFuture<>();
        pending.add(later);
        return later;
    }

    @Override
    public void callOneway(String address, RemotingCommand request, Duration timeout) {
        beforeEachCall.run();
        sent.add(new Sent(address, request));
    }

    List<RemotingCommand> requests(int code) {
        return sent.stream().map(Sent::request).filter(r -> r.code() == code).toList();
    }
}
