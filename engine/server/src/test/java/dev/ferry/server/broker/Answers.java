package dev.ferry.server.broker;

import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

/** A request put to a processor the way the server does: answered at once, or later through its context. */
final class Answers {
    private Answers() {
    }

    /** The answer {@code processor} gives {@code request}, from a connection named {@code connection}. */
    static CompletableFuture<RemotingCommand> of(BiFunction<RequestContext, RemotingCommand, RemotingCommand> processor,
                                                 RemotingCommand request,
                                                 String connection) {
        CompletableFuture<RemotingCommand> answered = new CompletableFuture<>();
        RequestContext context = new RequestContext() {
            @Override
            public RemoteChannel channel() {
                return new FakeChannel(connection);
            }

            @Override
            public void respond(RemotingCommand response) {
                answered.complete(response);
            }
        };
        RemotingCommand direct = processor.apply(context, request);
        if (direct != null) {
            answered.complete(direct);
        }
        return answered;
    }
}
